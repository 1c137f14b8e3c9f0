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

  it('the rifle gets IGNORE ARMOUR ON CRITICAL, the blade IGNORE ARMOUR against a Down target only; both links are listed, never read as IGNORE ARMOUR', async () => {
    const r = await cliInProcess('profiles', '--roster', roster, '--format', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const weapons = (JSON.parse(r.stdout) as { weapons: Record<string, { keywords?: string[]; description?: string }> }).weapons;
    expect(weapons['Hawk Rifle']!.keywords).toEqual(['CRITICAL', 'HEAVY', 'IGNORE ARMOUR ON CRITICAL']);
    expect(weapons['Mercy Blade']!.keywords).toBeUndefined();
    expect(weapons['Hawk Rifle']!.description).toContain('"Ignore Armour" (rule: a linked rule, not in the weapon\'s Keywords');
    expect(weapons['Hawk Rifle']!.description).toContain('read as IGNORE ARMOUR ON CRITICAL');
    expect(weapons['Mercy Blade']!.description).toContain('"Ignore Armour" (rule: a linked rule');
    // Its sentence is read with its condition (issue 48, ruling T26): IGNORE ARMOUR against a Down target only.
    expect((JSON.parse(r.stdout) as { weapons: Record<string, { ignoreArmourIfDown?: boolean }> }).weapons['Mercy Blade']!.ignoreArmourIfDown).toBe(true);
    expect(weapons['Mercy Blade']!.description).toContain('read as ignoreArmourIfDown true');
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

describe('a modifier of the Keywords that the rules text gives only under a condition', () => {
  // Invented, in the shape of the real catalogue's Heavy Shotgun: "+1 INJURY DICE" in its Keywords, and its
  // rules text "Add +1 INJURY DICE ... at Short Range". A plain "+1 DICE" beside it is not restated.
  const roster = rosterFile(
    'short-range.ros',
    weaponSelection('Boar Gun', '12&quot;', '+1 DICE, +1 INJURY DICE, HEAVY', 'Slug Load: Add +1 INJURY DICE to rolls for Ranged Attacks made by this Weapon at Short Range.', []) +
      weaponSelection('Long Maul', 'Melee', '+1 INJURY DICE', 'Crushing: Add +1 INJURY DICE to Injury Rolls made with this weapon.', []) +
      weaponSelection('Chain Whip', 'Melee', '+1 DICE', 'Clumsy: The +1 DICE Keyword does not apply when this Weapon is used as an Off-Hand Weapon.', []),
  );

  it('makes two profiles: the weapon without it, and "NAME (CONDITION)" with it; never the bonus on every attack', async () => {
    const r = await cliInProcess('profiles', '--roster', roster, '--format', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const weapons = (JSON.parse(r.stdout) as { weapons: Record<string, Record<string, unknown> & { description?: string }> }).weapons;
    expect(weapons['Boar Gun']).toMatchObject({ attackType: 'ranged', attackDice: 1, cost: 20 });
    expect(weapons['Boar Gun']!.injuryDice).toBeUndefined();
    expect(weapons['Boar Gun']!.description).toContain('"+1 INJURY DICE" (keywords: the rules text gives it only at Short Range: read into "Boar Gun (at Short Range)")');
    expect(weapons['Boar Gun (at Short Range)']).toMatchObject({ attackType: 'ranged', attackDice: 1, injuryDice: 1, cost: 20 });
    // Restated with no condition: the keyword stands, one profile.
    expect(weapons['Long Maul']).toMatchObject({ injuryDice: 1 });
    expect(Object.keys(weapons).filter((n) => n.startsWith('Long Maul'))).toEqual(['Long Maul']);
    // Taken away under a condition: the weapon keeps it, and "NAME (CONDITION)" is without it.
    expect(weapons['Chain Whip']).toMatchObject({ attackType: 'melee', attackDice: 1 });
    expect(weapons['Chain Whip (when this Weapon is used as an Off-Hand Weapon)']).toMatchObject({ attackType: 'melee' });
    expect(weapons['Chain Whip (when this Weapon is used as an Off-Hand Weapon)']!.attackDice).toBeUndefined();
  });
});

describe("the catalogue's shorthand in a weapon's Keywords", () => {
  // Invented weapons written the way the community catalogue writes some of its own.
  const roster = rosterFile(
    'shorthand.ros',
    weaponSelection('Rust Maul', 'Melee', '+1D to Injure, +1 to Injury Rolls', '-', []) +
      weaponSelection('Spore Gun', '18&quot;', '+1D to hit, -1D Injury, AUTOMATIC 2 GAS, SCATTER SHRAPNEL, ignore armour.', '-', []) +
      weaponSelection('Saint Bomb', '8&quot;', '+1D Injury*', 'Adds +1 DICE to injury rolls against targets with the Keyword DEMONIC.', []) +
      weaponSelection('Bent Lance', 'Melee', 'CRITCAL', '-', []),
  );

  it('a misspelt keyword stops, and says which keyword it may mean; it is never read as that keyword', async () => {
    const r = await cliInProcess('profiles', '--roster', roster, '--format', 'json');
    const lance = (JSON.parse(r.stdout) as { weapons: Record<string, { keywords?: string[]; description?: string }> }).weapons['Bent Lance']!;
    expect(lance.keywords).toBeUndefined();
    expect(lance.description).toContain('"CRITCAL" (keywords: not a keyword of the rule table (did you mean CRITICAL?))');
  });

  it('reads "+1D" as +1 DICE, "to Injure" and "to Injury Rolls" as injury rolls, keywords a comma is missing between, and a final full stop', async () => {
    const r = await cliInProcess('profiles', '--roster', roster, '--format', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const weapons = (JSON.parse(r.stdout) as { weapons: Record<string, Record<string, unknown> & { keywords?: string[]; description?: string }> }).weapons;
    // +1D to Injure is +1 injury dice; +1 to Injury Rolls is +1 on the roll (its rules say a 7 becomes an 8).
    expect(weapons['Rust Maul']).toMatchObject({ attackType: 'melee', injuryDice: 1, injuryModifier: 1 });
    expect(weapons['Spore Gun']).toMatchObject({ attackType: 'ranged', attackDice: 1, injuryDice: -1, keywords: ['AUTOMATIC 2', 'GAS', 'SCATTER', 'SHRAPNEL', 'IGNORE ARMOUR'] });
  });

  it('a token marked with * is qualified by the rules text: listed and stopping, never read as on every attack', async () => {
    const r = await cliInProcess('profiles', '--roster', roster, '--format', 'json');
    const bomb = (JSON.parse(r.stdout) as { weapons: Record<string, Record<string, unknown> & { description?: string }> }).weapons['Saint Bomb']!;
    expect(bomb.injuryDice).toBeUndefined();
    expect(bomb.description).toContain(`"+1D Injury*" (keywords: marked with *: the weapon's rules text qualifies it, so it is not read)`);
    const used = await cliInProcess('exact', '--kind', 'attack', '--roster', roster, '--weapon', 'Saint Bomb');
    expect(used.code).toBe(2);
    expect(used.stderr).toMatch(/"Saint Bomb".*\+1D Injury\*.*--allow-unmodelled/);
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

  it('situational keywords are known with no effect, say so, and stop nothing; IGNORE COVER and IGNORE LONG RANGE act; a bare ARMOUR PIERCING is ARMOUR PIERCING 1', async () => {
    const r = await cliInProcess('profiles', '--roster', roster);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('Known keywords of no effect here');
    for (const k of ['BLAST: weapon "Fire Pot"', 'SCATTER: weapon "Fire Pot"', 'CONSUMABLE', 'BLOCK: weapon "Bone Saw"']) expect(r.stdout).toContain(k);
    // INFECTION MARKERS acts since ruling T41 (infectionMarkers): no longer listed as of no effect.
    expect(r.stdout).not.toContain('INFECTION MARKERS: weapon "Bone Saw"');
    // IGNORE COVER and IGNORE LONG RANGE act since ruling T30: no longer listed as of no effect.
    expect(r.stdout).not.toContain('IGNORE COVER: weapon "Fire Pot"');
    expect(r.stdout).not.toContain('IGNORE LONG RANGE: weapon "Fire Pot"');
    // The game system file's own Armour Piercing rule reduces the modifier "by 1": a bare ARMOUR-PIERCING is 1.
    expect(r.stdout).not.toContain('"ARMOUR-PIERCING"');
    // The Fire Pot answers as FIRE alone does in the open: its other keywords change nothing there.
    const exact = async (...args: string[]) => {
      const x = await cliInProcess('exact', '--kind', 'attack', '--armour', 'standard', '--format', 'json', ...args);
      expect([x.code, x.stderr]).toEqual([0, '']);
      return (JSON.parse(x.stdout) as { outcomes: { exact: string }[] }).outcomes.map((o) => o.exact);
    };
    expect(await exact('--roster', roster, '--weapon', 'Fire Pot')).toEqual(await exact('--attack-type', 'ranged', '--weapon-keywords', 'FIRE'));
    // Its IGNORE COVER and IGNORE LONG RANGE: a shot at a target in cover at long range is the open shot.
    expect(await exact('--roster', roster, '--weapon', 'Fire Pot', '--target-in-cover', '--long-range')).toEqual(await exact('--attack-type', 'ranged', '--weapon-keywords', 'FIRE'));
    // One attack counts its infection markers as the blood markers they work as (ruling T41): the answer without the keyword.
    expect(await exact('--roster', roster, '--weapon', 'Bone Saw')).toEqual(await exact('--attack-type', 'melee', '--injury-dice', '1'));
    expect(await exact('--roster', roster, '--weapon', 'Old Pick')).toEqual(await exact('--attack-type', 'melee', '--armour-piercing', '1'));
    expect(await exact('--roster', roster, '--weapon', 'Old Pick')).not.toEqual(await exact('--attack-type', 'melee'));
  });

  it('a model whose Ranged is N/A attacks in melee without --allow-unmodelled; its ranged weapon still stops', async () => {
    const melee = await cliInProcess('exact', '--kind', 'attack', '--roster', roster, '--weapon', 'Grave Hound with Jaws');
    expect([melee.code, melee.stderr]).toEqual([0, '']);
    const ranged = await cliInProcess('exact', '--kind', 'attack', '--roster', roster, '--weapon', 'Grave Hound with Spit');
    expect(ranged.code).toBe(2);
    expect(ranged.stderr).toMatch(/"Ranged N\/A" is not modelled \(not a number of dice, such as \+1 DICE\)/);
  });
});

/** An item selection (armour, a shield, equipment): a profile of `typeName` with a Type, Keywords and Rules. */
function itemSelection(name: string, type: string, keywords: string, rulesText: string, inner = ''): string {
  return `<selection name="${name}" number="1" type="upgrade"><profiles><profile name="${name}" typeName="Battlekit" hidden="false"><characteristics><characteristic name="Type">${type}</characteristic><characteristic name="Keywords">${keywords}</characteristic><characteristic name="Rules">${rulesText}</characteristic></characteristics></profile></profiles><selections>${inner}</selections></selection>`;
}

/** An ability profile with its text, as the real catalogue writes one. */
function ability(name: string, text: string): string {
  return `<profile name="${name}" typeName="Ability" hidden="false"><characteristics><characteristic name="Description">${text}</characteristic></characteristics></profile>`;
}

describe("a model's armour, shield and abilities, wherever they sit", () => {
  const lancerWeapon = `<selection name="Lance and Buckler" number="1" type="upgrade"><profiles><profile name="Lance" typeName="Weapon" hidden="false"><characteristics><characteristic name="Range">Melee</characteristic><characteristic name="Keywords">-</characteristic></characteristics></profile><profile name="Buckler" typeName="Battlekit" hidden="false"><characteristics><characteristic name="Type">Shield</characteristic><characteristic name="Keywords">-1 INJURY MODIFIER</characteristic></characteristics></profile></profiles></selection>`;
  const withAbilities = (name: string, armour: string, abilities: string, carried: string) =>
    modelSelection(name, '+0 Dice', '+1 Dice', armour, carried).replace('</profile></profiles>', `</profile>${abilities}</profiles>`);
  const thrall = `<selection name="Chained Thrall" number="1" type="model"><profiles><profile name="Thrall Claws" typeName="Weapon" hidden="false"><characteristics><characteristic name="Range">Melee</characteristic><characteristic name="Keywords">-</characteristic></characteristics></profile>${ability('Mindless', 'Invented text.')}</profiles><selections>${modelSelection('Winged', 'N/A', '+0 Dice', '0', '').replace('type="model"', 'type="upgrade"')}</selections><costs><cost name="Ducats" value="15"/></costs></selection>`;
  const roster = rosterFile(
    'models.ros',
    modelSelection('Desert Lancer', '+0 Dice', '+1 Dice', '-3', lancerWeapon) +
      withAbilities('Brass Warden', '-3', ability('Clockwork Heart', 'Add -1 INJURY DICE to Injury Rolls against this model.') + ability('Hazy Form', 'Add -1 DICE to the Success Roll for attacks that target this model.'),
        itemSelection('Machine Warplate', 'Armour', '-3 INJURY MODIFIER', '* Standfast: When this model would suffer a Down result, it is treated as a Minor Wound result instead.')) +
      withAbilities('Ash Walker', '0', ability('Ash Skin', 'Non-FIRE injuries against this model are rolled with -1 DICE.'), itemSelection('Spade', 'Equipment', '-', '-', weaponSelection('Include Weapon Profile?', 'Melee', '-', '-', []).replace('name="Include Weapon Profile?" typeName', 'name="Spade Strike" typeName'))) +
      thrall,
  );

  it('a shield inside a weapon selection: -3 is Reinforced Armour and a shield, not Machine Armour', async () => {
    const models = await profilesOf(roster);
    expect(models['Desert Lancer']).toMatchObject({ armour: 'reinforced', shield: true });
  });

  it('an armour item names the armour; abilities and item rules give -1 INJURY DICE, UNLESS FIRE, -1 DICE to hit and STANDFAST', async () => {
    const models = await profilesOf(roster);
    expect(models['Brass Warden']).toMatchObject({ armour: 'machine', targetAttackDice: -1, targetInjuryDice: -1 });
    expect(models['Brass Warden']!.keywords).toEqual(['STANDFAST']);
    expect(models['Ash Walker']!.injuryDiceUnless).toEqual([{ dice: -1, unless: ['FIRE'] }]);
    // As a target, the Warden's -1 INJURY DICE is the field (and STANDFAST its armour's).
    const r = await cliInProcess('exact', '--kind', 'attack', '--roster', roster, '--target', 'Brass Warden', '--format', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout).scenario).toMatchObject({ targetInjuryDice: -1, targetAttackDice: -1, downBecomesMinor: true, armour: 'machine' });
  });

  it('"Include Weapon Profile?" is named by its weapon profile; a thrall whose Unit profile is on its option is one model', async () => {
    const r = await cliInProcess('profiles', '--roster', roster, '--format', 'json');
    const doc = JSON.parse(r.stdout) as { models: Record<string, unknown>; weapons: Record<string, unknown> };
    expect(Object.keys(doc.weapons)).toContain('Spade Strike');
    expect(Object.keys(doc.weapons)).not.toContain('Include Weapon Profile?');
    expect(Object.keys(doc.models)).toContain('Chained Thrall');
    expect(Object.keys(doc.models)).not.toContain('Winged');
    expect(Object.keys(doc.weapons)).toContain('Chained Thrall with Thrall Claws');
  });
});

async function profilesOf(roster: string): Promise<Record<string, Record<string, unknown> & { keywords?: string[] }>> {
  const r = await cliInProcess('profiles', '--roster', roster, '--format', 'json');
  expect([r.code, r.stderr]).toEqual([0, '']);
  return (JSON.parse(r.stdout) as { models: Record<string, Record<string, unknown> & { keywords?: string[] }> }).models;
}

describe('a catalogue: hidden entries that a modifier shows, prices set by modifiers, a Unit profile on an option', () => {
  /** Our own invented faction, in the real catalogue's shapes (docs/import.md, "Catalogues"). */
  const shownTo = (catalogueId: string) =>
    `<modifiers><modifier type="set" value="false" field="hidden"><conditions><condition type="instanceOf" value="1" field="selections" scope="primary-catalogue" childId="${catalogueId}" shared="true"/></conditions></modifier></modifiers>`;
  const weaponEntry = (id: string, name: string, hidden: boolean, inner: string, ducats: number) =>
    `<selectionEntry id="${id}" name="${name}" type="upgrade" hidden="${hidden}">${inner}<profiles><profile id="${id}-p" name="${name}" typeName="Weapon" hidden="false"><characteristics><characteristic name="Range">Melee</characteristic><characteristic name="Keywords">-</characteristic></characteristics></profile></profiles><costs><cost name="Ducats" typeId="pg-ducats" value="${ducats}"/></costs></selectionEntry>`;
  const unit = (id: string, name: string, armour: string) =>
    `<profile id="${id}" name="${name}" typeName="Unit" hidden="false"><characteristics><characteristic name="Ranged">+0 DICE</characteristic><characteristic name="Melee">+1 DICE</characteristic><characteristic name="Armour">${armour}</characteristic></characteristics></profile>`;
  const catalogue = `<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="iv-cat" name="Invented Host" gameSystemId="pg-sys" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <catalogueLinks><catalogueLink type="catalogue" name="Hired Swords" id="iv-cl-hired" targetId="iv-hired" importRootEntries="true"/></catalogueLinks>
  <entryLinks>
    <entryLink id="iv-l-cannon" name="Sealed Cannon" targetId="iv-cannon" type="selectionEntry" hidden="false"/>
    <entryLink id="iv-l-duelist" name="Hired Duelist" targetId="iv-hired-duelist" type="selectionEntry" hidden="false"/>
    <entryLink id="iv-l-hound" name="Mire Hound" targetId="iv-hound" type="selectionEntry" hidden="true">
      <modifierGroups><modifierGroup type="and"><modifiers><modifier type="set" value="33" field="pg-ducats"/></modifiers></modifierGroup></modifierGroups>
      <modifiers><modifier type="set" value="false" field="hidden"><conditionGroups><conditionGroup type="or"><conditions><condition type="atLeast" value="1" field="selections" scope="roster" childId="iv-variant" shared="true"/></conditions></conditionGroup></conditionGroups></modifier></modifiers>
    </entryLink>
    <entryLink id="iv-l-bog" name="Mire Hound" targetId="iv-hound" type="selectionEntry" hidden="false">
      <modifierGroups><modifierGroup type="and"><modifiers>
        <modifier type="set" value="Bog Captain" field="name" affects="profiles.Unit"/><modifier type="set" value="Bog Captain" field="name"/><modifier type="set" value="45" field="pg-ducats"/>
        <modifier type="set" value="Swamp Lord" field="name"><conditions><condition type="atLeast" value="1" field="selections" scope="roster" childId="iv-variant" shared="true"/></conditions></modifier>
      </modifiers></modifierGroup></modifierGroups>
    </entryLink>
  </entryLinks>
  <sharedSelectionEntries>
    ${weaponEntry('iv-veiled', 'Veiled Blade', true, shownTo('iv-cat').replace('</modifiers>', '<modifier type="set" value="20" field="pg-ducats"><conditions><condition type="atLeast" value="1" field="selections" scope="roster" childId="iv-variant" shared="true"/></conditions></modifier></modifiers>'), 10)}
    ${weaponEntry('iv-relic', 'Lost Relic Gun', true, '', 25)}
    ${weaponEntry('iv-cannon', 'Sealed Cannon', true, '', 40)}
    ${weaponEntry('iv-musket', 'Ember Musket', false, '', 8).replace('</profiles>', `<profile id="iv-musket-k" name="Kindled Ember Musket" typeName="Weapon" hidden="true"><characteristics><characteristic name="Range">24"</characteristic><characteristic name="Keywords">FIRE</characteristic></characteristics><modifiers><modifier type="set" value="false" field="hidden"><conditions><condition type="atLeast" value="1" field="selections" scope="parent" childId="iv-kindling" shared="true"/></conditions></modifier></modifiers></profile></profiles>`)}
    <selectionEntry id="iv-hound" name="Mire Hound" type="model" hidden="false"><profiles>${unit('iv-hound-p', 'Mire Hound', '0')}</profiles><costs><cost name="Ducats" typeId="pg-ducats" value="50"/></costs></selectionEntry>
    <selectionEntry id="iv-golem" name="Clay Warden" type="model" hidden="false"><profiles>${unit('iv-golem-p', 'Clay Warden', '-1')}
      <profile id="iv-golem-b" name="Fired Clay" typeId="pg-battlekit" typeName="Battlekit" hidden="false"><characteristics><characteristic name="Description" typeId="pg-battlekit-rules">Baked hard in the kilns of the host. All injury rolls against the Warden are made with -1 DICE.</characteristic><characteristic name="Keywords" typeId="pg-battlekit-keywords"/></characteristics></profile>
    </profiles><costs><cost name="Ducats" typeId="pg-ducats" value="0"/><cost name="Glory Points" typeId="pg-glory" value="3"/></costs></selectionEntry>
    <selectionEntry id="iv-thrall" name="Bone Thrall" type="model" hidden="false">
      <profiles><profile id="iv-thrall-w" name="Bone Fists" typeName="Weapon" hidden="false"><characteristics><characteristic name="Range">Melee</characteristic><characteristic name="Keywords">-</characteristic></characteristics></profile></profiles>
      <selectionEntryGroups><selectionEntryGroup id="iv-thrall-g" name="Thrall Type" hidden="false"><selectionEntries>
        <selectionEntry id="iv-crawl" name="Crawling" type="upgrade" hidden="false"><profiles>${unit('iv-crawl-p', 'Crawling', '-1')}</profiles></selectionEntry>
        <selectionEntry id="iv-glide" name="Gliding" type="upgrade" hidden="false"><profiles>${unit('iv-glide-p', 'Gliding Thrall', '0')}</profiles><costs><cost name="Ducats" typeId="pg-ducats" value="5"/></costs></selectionEntry>
      </selectionEntries></selectionEntryGroup></selectionEntryGroups>
      <costs><cost name="Ducats" typeId="pg-ducats" value="30"/></costs>
    </selectionEntry>
  </sharedSelectionEntries>
</catalogue>`;
  const dir = mkdtempSync(join(tmpdir(), 'injury-lab-cat-'));
  const cat = join(dir, 'invented-host.cat');
  writeFileSync(cat, catalogue);
  const args = ['--catalogue', 'test/fixtures/rosters/pilgrim-system.gst', cat];

  it('imports what a modifier shows, at the price a modifier sets with no condition; lists what nothing shows', async () => {
    const r = await cliInProcess('profiles', ...args, '--format', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const doc = JSON.parse(r.stdout) as { description: string; models: Record<string, { cost: number; armour?: string }>; weapons: Record<string, { cost: number }> };
    // Hidden, and shown to this catalogue: read, at its own price (the conditional 20 is not read).
    expect(doc.weapons['Veiled Blade']!.cost).toBe(10);
    // Reached only through a hidden link that a variant shows; the link's unconditional price is 33.
    expect(doc.models['Mire Hound']!.cost).toBe(33);
    // Hidden with nothing to show it: listed, not read.
    expect(doc.weapons['Lost Relic Gun']).toBeUndefined();
    expect(doc.description).toContain('"Lost Relic Gun" (entry of Invented Host: hidden for every faction: no modifier shows it, so it is not read)');
    // The thrall is one model, its armour from the option that carries its Unit profile; its fists are its weapon.
    expect(doc.models['Bone Thrall']).toMatchObject({ cost: 30, armour: 'standard' });
    expect(doc.models['Crawling']).toBeUndefined();
    // Its other option is the same model with that option's profile, at the model's price and the option's.
    expect(doc.models['Bone Thrall (Gliding)']).toMatchObject({ cost: 35, armour: 'none' });
    expect(doc.models['Gliding']).toBeUndefined();
    expect(doc.weapons['Bone Thrall with Bone Fists']).toBeDefined();
  });

  it('a link renames the entry by a modifier with no condition; a conditional name and a profile\'s name are not read', async () => {
    const r = await cliInProcess('profiles', ...args, '--format', 'json');
    const doc = JSON.parse(r.stdout) as { models: Record<string, { cost?: number }> };
    expect(doc.models['Bog Captain']!.cost).toBe(45);
    expect(doc.models['Swamp Lord']).toBeUndefined();
    // The other link to the same hound keeps the hound's name.
    expect(doc.models['Mire Hound']!.cost).toBe(33);
  });

  it('a shown link offers an entry hidden with nothing to show it; links to a catalogue not given, and a missing .gst, are listed', async () => {
    const r = await cliInProcess('profiles', ...args, '--format', 'json');
    const doc = JSON.parse(r.stdout) as { description: string; weapons: Record<string, { cost?: number }> };
    expect(doc.weapons['Sealed Cannon']!.cost).toBe(40);
    // An alternative weapon profile that only a chosen option shows: listed, not read, and the weapon is its visible profile.
    expect(doc.weapons['Ember Musket']!.cost).toBe(8);
    expect(doc.weapons['Kindled Ember Musket']).toBeUndefined();
    expect(doc.description).toContain('"Kindled Ember Musket" (weapon profile of Ember Musket: shown only when an option is chosen');
    expect(doc.description).toContain('"1 link to entries of no file given (Hired Duelist)" (catalogue Invented Host: not read: it links the catalogue "Hired Swords", which was not given; give its file too)');
    expect(doc.description).not.toContain('no game system file');
    // The .cat alone: the game system is missing, and said so.
    const alone = await cliInProcess('profiles', '--catalogue', cat, '--format', 'json');
    expect([alone.code, alone.stderr]).toEqual([0, '']);
    expect((JSON.parse(alone.stdout) as { description: string }).description).toContain('"no game system file (.gst)" (catalogue Invented Host: the shared weapons, armour and rules a game system holds are not read; give its .gst too)');
  });

  it('a library catalogue\'s entry has no price (never 0), and one named as another is named after its catalogue', async () => {
    const library = join(dir, 'invented-armoury.cat');
    writeFileSync(
      library,
      `<?xml version="1.0" encoding="UTF-8"?>
<catalogue library="true" id="iv-armoury" name="Invented Armoury" gameSystemId="pg-sys" xmlns="http://www.battlescribe.net/schema/catalogueSchema"><sharedSelectionEntries>
  ${weaponEntry('iv-a-veiled', 'Veiled Blade', false, '', 0).replace(/<costs>.*<\/costs>/, '').replace('<characteristic name="Keywords">-</characteristic>', '<characteristic name="Keywords">CRITICAL</characteristic>')}
</sharedSelectionEntries></catalogue>`,
    );
    const r = await cliInProcess('profiles', ...args, library, '--format', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const weapons = (JSON.parse(r.stdout) as { weapons: Record<string, Record<string, unknown>> }).weapons;
    expect(weapons['Veiled Blade']).toMatchObject({ cost: 10 });
    expect(weapons['Veiled Blade (Invented Armoury)']).toMatchObject({ keywords: ['CRITICAL'] });
    expect(weapons['Veiled Blade (Invented Armoury)']!.cost).toBeUndefined();
  });

  it('a Battlekit item\'s "Description" is its rules text: -1 DICE to injury rolls against the model is read', async () => {
    const r = await cliInProcess('profiles', ...args, '--format', 'json');
    const doc = JSON.parse(r.stdout) as { models: Record<string, { keywords?: string[]; targetInjuryDice?: number }> };
    expect(doc.models['Clay Warden']!.targetInjuryDice).toBe(-1);
    expect(doc.models['Clay Warden']!.keywords).toBeUndefined();
  });

  it('a model priced only in Glory Points has no cost in Ducats (never a cost of 0) and shows its Glory Points', async () => {
    const json = await cliInProcess('profiles', ...args, '--format', 'json');
    const warden = (JSON.parse(json.stdout) as { models: Record<string, Record<string, unknown>> }).models['Clay Warden']!;
    expect(warden.cost).toBeUndefined();
    expect(warden.otherCosts).toEqual({ 'Glory Points': 3 });
    const table = await cliInProcess('profiles', ...args);
    expect(table.stdout).toMatch(/Clay Warden\s+3 Glory Points\s+targetInjuryDice -1, armour standard/);
    // The JSON is a profiles file: it reads back with the same Glory Points.
    const file = join(dir, 'host-profiles.json');
    writeFileSync(file, json.stdout);
    const back = await cliInProcess('profiles', file, '--format', 'json');
    expect([back.code, back.stderr]).toEqual([0, '']);
    expect((JSON.parse(back.stdout) as { models: Record<string, Record<string, unknown>> }).models['Clay Warden']!.otherCosts).toEqual({ 'Glory Points': 3 });
  });
});

describe('ability text about the model\'s own attacks, or a condition, is never read as a penalty against it', () => {
  it('"+1 INJURY DICE" on its own attacks and "-1 INJURY DICE ... if the target is Down" give nothing', async () => {
    const withAbility = (name: string, text: string) => modelSelection(name, '+0 Dice', '+1 Dice', '0', '').replace('</profile></profiles>', `</profile>${ability(`${name} Gift`, text)}</profiles>`);
    const roster = rosterFile(
      'own-attacks.ros',
      withAbility('Mercy Sister', 'Add +1 INJURY DICE to Injury Rolls for attacks this model makes against a Down target.') +
        withAbility('Grim Hound', 'Models within 3 inches suffer -1 INJURY DICE to Injury Rolls.') +
        withAbility('Iron Body', 'Add -1 INJURY DICE to Injury Rolls for this model.'),
    );
    const models = await profilesOf(roster);
    expect(models['Mercy Sister']!.keywords).toBeUndefined();
    expect(models['Grim Hound']!.keywords).toBeUndefined();
    expect(models['Iron Body']).toMatchObject({ targetInjuryDice: -1 });
  });
});
