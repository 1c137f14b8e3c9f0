import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 22, real warbands on real files: the smaller items. Fixtures are our own invented rosters and
 * catalogues (test/fixtures/rosters/), shaped as the real files are; none copies catalogue data.
 */

const ROS = 'test/fixtures/rosters/ashen-pilgrims.ros';

describe('profiles --allow-unmodelled', () => {
  it('is accepted, and shows the stopping token as left out, as commands given the flag use it', async () => {
    const plain = await cliInProcess('profiles', '--roster', ROS);
    const line = 'weapon "Bell Hammer", weapon "Bell Golem with Bell Hammer": "Quake 2\\"" (keywords: not a keyword of the rule table';
    expect(plain.stdout).toContain(`${line}); stops a command that uses it unless --allow-unmodelled`);
    const allowed = await cliInProcess('profiles', '--roster', ROS, '--allow-unmodelled');
    expect([allowed.code, allowed.stderr]).toEqual([0, '']);
    expect(allowed.stdout).toContain(`${line}; left out (--allow-unmodelled))`);
    expect(allowed.stdout).not.toContain('stops a command');
  });
});

describe('a target\'s "-N INJURY DICE" written as a keyword', () => {
  it('is the targetInjuryDice field: --target-keywords="-1 INJURY DICE" answers as --target-injury-dice -1', async () => {
    const json = async (...args: string[]) => {
      const r = await cliInProcess('exact', '--kind', 'attack', '--armour', 'standard', '--format', 'json', ...args);
      expect([r.code, r.stderr]).toEqual([0, '']);
      return JSON.parse(r.stdout) as { outcomes: { exact: string }[]; scenario: { targetInjuryDice: number } };
    };
    const keyword = await json('--target-keywords=-1 INJURY DICE');
    const field = await json('--target-injury-dice', '-1');
    expect(keyword.scenario.targetInjuryDice).toBe(-1);
    expect(keyword.outcomes.map((o) => o.exact)).toEqual(field.outcomes.map((o) => o.exact));
    // And it moves the answer: without it, Out of Action is likelier.
    const none = await json();
    expect(none.outcomes.at(-1)!.exact).not.toBe(field.outcomes.at(-1)!.exact);
  });
});

/** A roster file of our own, written to a fresh folder: the shapes of NewRecruit's export, our names. */
function rosterFile(name: string, selections: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'injury-lab-real-'));
  const path = join(dir, name);
  writeFileSync(
    path,
    `<?xml version="1.0" encoding="UTF-8"?><roster name="Invented" gameSystemName="Trench Crusade" xmlns="http://www.battlescribe.net/schema/rosterSchema"><costs><cost name="Ducats" value="0"/></costs><forces><force name="Warband"><selections>${selections}</selections></force></forces></roster>`,
  );
  return path;
}

/** A weapon selection as NewRecruit writes one: a Weapon profile (Type, Range, Keywords, Rules), its rule links, its cost. */
function weaponSelection(name: string, range: string, keywords: string, rulesText: string, ruleLinks: readonly string[]): string {
  const rules = ruleLinks.map((r, i) => `<rule id="r${i}" name="${r}" hidden="false"><description>Invented.</description></rule>`).join('');
  return `<selection name="${name}" number="1" type="upgrade"><profiles><profile name="${name}" typeName="Weapon" hidden="false"><characteristics><characteristic name="Type">2-Handed</characteristic><characteristic name="Range">${range}</characteristic><characteristic name="Keywords">${keywords}</characteristic><characteristic name="Rules">${rulesText}</characteristic></characteristics></profile></profiles><rules>${rules}</rules><costs><cost name="Ducats" value="20"/></costs></selection>`;
}

describe('a rule link is not a keyword; conditional rules text is read as its condition or listed', () => {
  // Invented weapons of the real catalogue's shapes: a rifle linking the Ignore Armour rule while its text
  // gives IGNORE ARMOUR on a critical only, and a blade whose text gives it against a Down target only.
  const roster = rosterFile(
    'conditional.ros',
    weaponSelection('Hawk Rifle', '36&quot;', 'CRITICAL, HEAVY', 'Keen Sight: If the Success Roll for a Ranged Attack made with the Hawk Rifle is a Critical Success then the Injury Roll for the attack has the IGNORE ARMOUR Keyword.', ['Critical', 'Ignore Armour', 'Heavy']) +
      weaponSelection('Mercy Blade', 'Melee', '-', 'This weapon has the IGNORE ARMOUR Keyword if the target is Down.', ['Ignore Armour']),
  );

  it('the rifle gets IGNORE ARMOUR ON CRITICAL, the blade nothing; both links are listed, never read as IGNORE ARMOUR', async () => {
    const r = await cliInProcess('profiles', '--roster', roster, '--format', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const weapons = (JSON.parse(r.stdout) as { weapons: Record<string, { keywords?: string[]; description?: string }> }).weapons;
    expect(weapons['Hawk Rifle']!.keywords).toEqual(['CRITICAL', 'HEAVY', 'IGNORE ARMOUR ON CRITICAL']);
    expect(weapons['Mercy Blade']!.keywords).toBeUndefined();
    expect(weapons['Hawk Rifle']!.description).toContain('"Ignore Armour" (rule: a linked rule, not in the weapon\'s Keywords');
    expect(weapons['Hawk Rifle']!.description).toContain('read as IGNORE ARMOUR ON CRITICAL');
    expect(weapons['Mercy Blade']!.description).toContain('"Ignore Armour" (rule: a linked rule');
    expect(weapons['Mercy Blade']!.description).toContain('(rules text: injury-lab does not read rules text)');
  });

  it('its answers are those of ignoreArmourOnCritical, not of IGNORE ARMOUR', async () => {
    const outcomes = async (...args: string[]) => {
      const r = await cliInProcess('exact', '--kind', 'attack', '--armour', 'reinforced', '--format', 'json', ...args);
      expect([r.code, r.stderr]).toEqual([0, '']);
      return (JSON.parse(r.stdout) as { outcomes: { exact: string }[] }).outcomes.map((o) => o.exact);
    };
    const imported = await outcomes('--roster', roster, '--weapon', 'Hawk Rifle');
    expect(imported).toEqual(await outcomes('--attack-type', 'ranged', '--weapon-keywords', 'CRITICAL, HEAVY', '--ignore-armour-on-critical'));
    expect(imported).not.toEqual(await outcomes('--attack-type', 'ranged', '--weapon-keywords', 'CRITICAL, HEAVY, IGNORE ARMOUR'));
  });
});

/** A model selection as NewRecruit writes one: a Unit profile and what it carries. */
function modelSelection(name: string, ranged: string, melee: string, armour: string, carried: string): string {
  return `<selection name="${name}" number="1" type="model"><profiles><profile name="${name}" typeName="Unit" hidden="false"><characteristics><characteristic name="Movement">6&quot;</characteristic><characteristic name="Ranged">${ranged}</characteristic><characteristic name="Melee">${melee}</characteristic><characteristic name="Armour">${armour}</characteristic><characteristic name="Base">32mm</characteristic></characteristics></profile></profiles><selections>${carried}</selections><costs><cost name="Ducats" value="40"/></costs></selection>`;
}

describe('keywords the real catalogue writes, and a model that cannot shoot', () => {
  const roster = rosterFile(
    'keywords.ros',
    weaponSelection('Fire Pot', '8&quot;', 'BLAST 3&quot;, SCATTER, IGNORE COVER, IGNORE LONG RANGE, CONSUMABLE, FIRE', '-', []) +
      weaponSelection('Bone Saw', 'Melee', 'BLOCK, INFECTION MARKERS, +1 INJURY DICE', '-', []) +
      weaponSelection('Old Pick', 'Melee', 'ARMOUR-PIERCING', '-', []) +
      modelSelection('Grave Hound', 'N/A', '+1 Dice', '0', weaponSelection('Jaws', 'Melee', '-', '-', []) + weaponSelection('Spit', '6&quot;', '-', '-', [])),
  );

  it('situational keywords are known with no effect, say so, and stop nothing; a bare ARMOUR PIERCING is listed and stops', async () => {
    const r = await cliInProcess('profiles', '--roster', roster);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('Known keywords of no effect here');
    for (const k of ['BLAST: weapon "Fire Pot"', 'SCATTER: weapon "Fire Pot"', 'IGNORE COVER', 'IGNORE LONG RANGE', 'CONSUMABLE', 'BLOCK: weapon "Bone Saw"', 'INFECTION MARKERS: weapon "Bone Saw"']) expect(r.stdout).toContain(k);
    expect(r.stdout).toContain('weapon "Old Pick": "ARMOUR-PIERCING" (keywords: ARMOUR PIERCING needs its number); stops a command that uses it unless --allow-unmodelled');
    // The Fire Pot answers as FIRE alone does: its other keywords change nothing.
    const exact = async (...args: string[]) => {
      const x = await cliInProcess('exact', '--kind', 'attack', '--armour', 'standard', '--format', 'json', ...args);
      expect([x.code, x.stderr]).toEqual([0, '']);
      return (JSON.parse(x.stdout) as { outcomes: { exact: string }[] }).outcomes.map((o) => o.exact);
    };
    expect(await exact('--roster', roster, '--weapon', 'Fire Pot')).toEqual(await exact('--attack-type', 'ranged', '--weapon-keywords', 'FIRE'));
    expect(await exact('--roster', roster, '--weapon', 'Bone Saw')).toEqual(await exact('--attack-type', 'melee', '--injury-dice', '1'));
  });

  it('a model whose Ranged is N/A attacks in melee without --allow-unmodelled; its ranged weapon still stops', async () => {
    const melee = await cliInProcess('exact', '--kind', 'attack', '--roster', roster, '--weapon', 'Grave Hound with Jaws');
    expect([melee.code, melee.stderr]).toEqual([0, '']);
    const ranged = await cliInProcess('exact', '--kind', 'attack', '--roster', roster, '--weapon', 'Grave Hound with Spit');
    expect(ranged.code).toBe(2);
    expect(ranged.stderr).toMatch(/"Ranged N\/A" is not modelled \(not a number of dice, such as \+1 DICE\)/);
  });
});
