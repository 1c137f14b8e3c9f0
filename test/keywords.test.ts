import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { parseKeyword } from '../src/model/keywords.js';
import { ruleListing } from '../src/model/rule-table.js';
import { diskScenarioFiles, parseScenario } from '../src/input/scenario.js';
import { parseScenarioWith } from '../src/input/scenario-core.js';
import { parseVariant } from '../src/input/variant.js';
import { rulesPresenter } from '../src/present/tables/rules.js';
import { findSystem } from '../src/rules/registry.js';
import { refusal } from './helpers/refusal.js';

/** Keywords on profiles, looked up in the scenario's rule table (ruling T20). */

const dir = mkdtempSync(join(tmpdir(), 'injury-lab-keywords-'));
const profiles = join(dir, 'profiles.json');
writeFileSync(
  profiles,
  JSON.stringify({
    models: { Brute: { armour: 'machine', keywords: ['TOUGH'], cost: 100 }, Knight: { armour: 'reinforced', shield: true }, Salamander: { keywords: ['NEGATE FIRE'] }, Troll: { keywords: ['regenerate 2', 'TOUGH'] }, Warded: { armour: 'standard', keywords: ['-1 injury dice unless FIRE/gas'] }, Misward: { keywords: ['-1 INJURY DICE UNLESS FIER'] }, Salted: { targetInjuryDice: -1, injuryDiceUnless: [{ dice: -1, unless: ['FIRE'] }] }, Misdata: { injuryDiceUnless: [{ dice: -1, unless: ['FIER'] }] }, Ghoul: { keywords: ['BLACK GRAIL'] }, Cultist: { armour: 'standard', keywords: ['HERETIC'] } },
    weapons: {
      Lance: { keywords: ['IGNORE ARMOUR'] },
      Pick: { keywords: ['armour  piercing 2'] },
      Cleaver: { keywords: ['CRITICAL'], criticalInjuryDice: 3 },
      Axe: { keywords: ['CRITICAL'] },
      Musket: { keywords: ['HEAVY', 'RELOAD'], attackType: 'ranged' },
      Typo: { keywords: ['IGNORE ARMOR'] },
      Bare: { keywords: ['ARMOUR PIERCING'] },
      Odd: { keywords: ['CRITICAL 2'] },
      Wrong: { keywords: ['TOUGH'] },
      Sawn: { keywords: ['SAWN-OFF'] },
      Torch: { keywords: ['FIRE', 'GAS'] },
      Autogun: { keywords: ['AUTOMATIC 3', 'RISKY'], attackType: 'ranged' },
      Drill: { keywords: ['ARMOUR PIERCING 9'] },
      Hooked: { keywords: ['BARBED', 'ARMOUR PIERCING 1', 'SERRATED'] },
      Flask: { keywords: ['+1 INJURY DICE VS BLACK GRAIL/DEMONIC'] },
      Gavel: { keywords: ['+1 BLOOD MARKERS VS HERETIC'], extraBloodMarkers: 1 },
      Misflask: { keywords: ['+1 INJURY DICE VS BLACK GRIL'] },
    },
  }),
);
const scenario = (fields: Record<string, unknown>) => parseScenario({ kind: 'attack', profiles, ...fields });
const outcomes = (fields: Record<string, unknown>) => evaluateExact(scenario(fields)).outcomes.map((o) => o.exact);
const refused = (fields: Record<string, unknown>): string => refusal(() => scenario(fields));

describe('keywords', () => {
  it('read a name and its number whatever the case and spacing', () => {
    expect(parseKeyword(' armour  piercing 2 ')).toEqual({ name: 'ARMOUR PIERCING', n: 2 });
    expect(parseKeyword('Ignore Armour')).toEqual({ name: 'IGNORE ARMOUR' });
  });

  it('give the fields the table maps them to; a profile\'s own fields win', () => {
    // IGNORE ARMOUR against reinforced armour and a shield: a plain attack.
    expect(outcomes({ weapon: 'Lance', target: 'Knight' })).toEqual(outcomes({ target: 'Knight', ignoreArmour: true }));
    expect(outcomes({ weapon: 'Lance', target: 'Knight' })).toEqual(evaluateExact(parseScenario({ kind: 'attack' })).outcomes.map((o) => o.exact));
    expect(scenario({ weapon: 'Pick' })).toMatchObject({ armourPiercing: 2 });
    expect(scenario({ weapon: 'Cleaver' })).toMatchObject({ criticalInjuryDice: 3 });
    expect(scenario({ weapon: 'Musket' })).toMatchObject({ attackType: 'ranged', ignoreArmour: false });
    expect(scenario({ target: 'Brute' })).toMatchObject({ tough: true, armour: 'machine' });
  });

  it('give a value out of its field\'s range: refused naming the profile the value came from', () => {
    expect(refused({ weapon: 'Drill' })).toBe('weapon "Drill" (its keywords): armourPiercing: 9 is not allowed; allowed: a whole number from 0 to 3');
    expect(refused({ weaponKeywords: 'ARMOUR PIERCING 9' })).toBe('weaponKeywords: armourPiercing: 9 is not allowed; allowed: a whole number from 0 to 3');
  });

  it('refuse an unknown name with a suggestion, a missing or extra number, and a keyword of the other side', () => {
    expect(refused({ weapon: 'Typo' })).toMatch(/^weapon "Typo": keywords: "IGNORE ARMOR" is not a keyword of the rule table \(did you mean "IGNORE ARMOUR"/);
    expect(refused({ weapon: 'Bare' })).toBe('weapon "Bare": keywords: "ARMOUR PIERCING" needs its number, e.g. "ARMOUR PIERCING 1"');
    expect(refused({ weapon: 'Odd' })).toBe('weapon "Odd": keywords: "CRITICAL 2": CRITICAL takes no number; allowed: "CRITICAL"');
    expect(refused({ weapon: 'Wrong' })).toMatch(/^weapon "Wrong": keywords: "TOUGH" gives tough, which is not a weapon field/);
  });

  it('are what the rule table says: a variant changes one or adds its own', () => {
    expect(scenario({ weapon: 'Axe' })).toMatchObject({ criticalInjuryDice: 2 });
    expect(scenario({ weapon: 'Axe', rules: { keywords: { CRITICAL: { criticalInjuryDice: 3 } } } })).toMatchObject({ criticalInjuryDice: 3 });
    expect(refused({ weapon: 'Sawn' })).toMatch(/"SAWN-OFF" is not a keyword of the rule table/);
    const sawn = scenario({ weapon: 'Sawn', rules: { keywords: { 'SAWN-OFF': { injuryDice: 1, attackModifier: -1 } } } });
    expect(sawn).toMatchObject({ injuryDice: 1, attackModifier: -1 });
    expect(refused({ rules: { keywords: { 'SAWN-OFF': { armor: 'none' } } } })).toMatch(/^rules\.keywords\.SAWN-OFF\.armor: not a field a keyword may give \(did you mean armour\?\); allowed: injuryDice, /);
    expect(refused({ rules: { keywords: { CRITICAL: { criticalInjuryDice: 9 } } } })).toBe(
      'rules.keywords.CRITICAL.criticalInjuryDice: 9 is not allowed; allowed: a whole number from 0 to 3, or "N" (the keyword\'s number)',
    );
  });
});

describe('FIRE, GAS, SHRAPNEL and NEGATE: markers after every injury roll', () => {
  const outWithin = (fields: Record<string, unknown>) =>
    evaluateExact(parseScenario({ kind: 'sequence', attacks: 3, policy: 'all', profiles, ...fields })).outcomes.find((o) => o.outcome === 'out-of-action')!.exact;

  it('FIRE and GAS give a marker each, NEGATE FIRE takes FIRE\'s away, and a variant can make FIRE leave two', () => {
    expect(outWithin({ weapon: 'Torch' })).toBe(outWithin({ fireMarkers: 1, gasMarkers: 1 }));
    expect(outWithin({ weapon: 'Torch', target: 'Salamander' })).toBe(outWithin({ gasMarkers: 1 }));
    expect(outWithin({ weapon: 'Torch', rules: { keywords: { FIRE: { fireMarkers: 2 } } } })).toBe(outWithin({ fireMarkers: 2, gasMarkers: 1 }));
    expect(outWithin({ weapon: 'Torch' })).not.toBe(outWithin({}));
  });
});

describe('a variant\'s keywords', () => {
  it('replace an edition keyword whole ("FIRE": {} has no effect) and are refused where profiles could not use them', () => {
    expect(parseScenario({ kind: 'sequence', weaponKeywords: 'FIRE', rules: { keywords: { FIRE: {} } } })).toMatchObject({ fireMarkers: 0 });
    expect(parseScenario({ kind: 'sequence', weaponKeywords: 'FIRE', rules: { keywords: { FIRE: { gasMarkers: 1 } } } })).toMatchObject({ fireMarkers: 0, gasMarkers: 1 });
    const refusedKeywords = (keywords: Record<string, unknown>) => refused({ rules: { keywords } });
    expect(refusedKeywords({ fire: { fireMarkers: 2 } })).toBe(
      'rules.keywords."fire": not a keyword name profiles can write; allowed: capitals and single spaces, no number (the keyword\'s number is written where it is used) and no comma, e.g. "FIRE"',
    );
    expect(refusedKeywords({ 'A, B': {} })).toMatch(/^rules\.keywords\."A, B": not a keyword name profiles can write/);
    expect(refusedKeywords({ 'SPIKES 2': { injuryDice: 2 } })).toMatch(/^rules\.keywords\."SPIKES 2": not a keyword name profiles can write/);
    expect(refusedKeywords({ '-1 INJURY DICE UNLESS FIRE': { targetInjuryDice: -2 } })).toMatch(/^rules\.keywords\."-1 INJURY DICE UNLESS FIRE": is written as a model's ability/);
    expect(refusedKeywords({ ODD: { tough: true, fireMarkers: 1 } })).toBe('rules.keywords."ODD": gives both weapon and model fields (tough, fireMarkers); allowed: the fields of one side, a weapon\'s or a model\'s');
    expect(refusedKeywords({ POKE: { ignoreArmour: 'N' } })).toBe('rules.keywords."POKE".ignoreArmour: "N" is not allowed (the field is not a whole number); allowed: true or false');
  });
});

describe('docs/keywords.md', () => {
  it('describes every keyword of every Trench Crusade edition under its own heading', async () => {
    const { readFileSync } = await import('node:fs');
    const { editionTable } = await import('../src/model/edition-table.js');
    const headings = readFileSync('docs/keywords.md', 'utf8').split('\n').filter((l) => l.startsWith('### ')).join('\n');
    const system = findSystem('trench-crusade')!;
    for (const edition of system.editions) {
      for (const name of Object.keys(editionTable(system, edition.id).keywords as Record<string, unknown>)) {
        expect(headings, name).toMatch(new RegExp(`(### |, )${name}( N)?(,|$)`, 'm'));
      }
    }
  });
});

describe('a model ability "-N INJURY DICE UNLESS K"', () => {
  it('gives injury rolls against it the dice, except from a weapon with a keyword named', () => {
    expect(outcomes({ weapon: 'Lance', target: 'Warded' })).toEqual(outcomes({ weapon: 'Lance', armour: 'standard', targetInjuryDice: -1 }));
    expect(parseScenario({ kind: 'sequence', profiles, weapon: 'Torch', target: 'Warded' })).toMatchObject({ targetInjuryDice: 0 });
    // With no weapon profile there are no weapon keywords: the ability acts.
    expect(scenario({ target: 'Warded' })).toMatchObject({ targetInjuryDice: -1 });
    expect(refused({ target: 'Misward' })).toMatch(/^target "Misward": keywords: "-1 INJURY DICE UNLESS FIER": "FIER" is not a keyword of the rule table \(did you mean "FIRE"\?\)/);
  });

  it('as data in a profiles file (injuryDiceUnless), adds to the dice the model\'s fields give and holds only without the keyword', () => {
    // Salted: targetInjuryDice -1 always, and -1 more unless the attack has FIRE. Net -2 against a Lance, -1 against a Torch.
    expect(scenario({ weapon: 'Lance', target: 'Salted' })).toMatchObject({ targetInjuryDice: -2 });
    expect(scenario({ weapon: 'Torch', target: 'Salted' })).toMatchObject({ targetInjuryDice: -1 });
    expect(refused({ target: 'Misdata' })).toMatch(/^target "Misdata": injuryDiceUnless: "-1 INJURY DICE UNLESS FIER": "FIER" is not a keyword of the rule table \(did you mean "FIRE"\?\)/);
  });

  it('in a profiles file is refused with the field and what is allowed when malformed', () => {
    const bad = join(dir, 'bad-unless.json');
    writeFileSync(bad, JSON.stringify({ models: { Odd: { injuryDiceUnless: [{ dice: -1, unless: 'FIRE' }] } } }));
    expect(refusal(() => parseScenario({ kind: 'attack', profiles: bad, target: 'Odd' }))).toMatch(/models\."Odd"\.injuryDiceUnless: .* is not allowed; allowed: a list of \{ "dice": -3\.\.3, "unless": keyword names in capitals, and "onlyIf" keyword names where the dice hold only against them \}/);
  });

  it('is kept as the condition it is when a roster gives it to a model, and read when the model is used', async () => {
    const { readToken } = await import('../src/import/weapon-keywords.js');
    const { editionTable } = await import('../src/model/edition-table.js');
    const system = findSystem('trench-crusade')!;
    expect(readToken('-1 Injury Dice unless Fire', editionTable(system, 'core'), system, 'model')).toMatchObject({ kind: 'injuryDiceUnless', condition: { dice: -1, unless: ['FIRE'] } });
    expect(readToken('-1 INJURY DICE UNLESS MAGIC', editionTable(system, 'core'), system, 'model')).toMatchObject({ kind: 'unknown' });
  });
});

describe('a weapon\'s bonus against keywords "+N INJURY DICE VS K" (ruling T35)', () => {
  it('holds against a target model with one of the keywords, from its profile or the scenario\'s targetKeywords, and not otherwise', () => {
    expect(scenario({ weapon: 'Flask', target: 'Ghoul' })).toMatchObject({ injuryDice: 1 });
    expect(scenario({ weapon: 'Flask', target: 'Cultist' })).toMatchObject({ injuryDice: 0 });
    expect(scenario({ weapon: 'Flask', targetKeywords: 'DEMONIC' })).toMatchObject({ injuryDice: 1 });
    expect(scenario({ weapon: 'Flask' })).toMatchObject({ injuryDice: 0 });
    // The answer is the plain +1 INJURY DICE one, against the Ghoul (no armour).
    expect(outcomes({ weapon: 'Flask', target: 'Ghoul' })).toEqual(outcomes({ injuryDice: 1 }));
  });

  it('adds blood markers the same way: the Gavel places 2 extra markers on a HERETIC, 1 on anyone else', () => {
    expect(scenario({ weapon: 'Gavel', target: 'Cultist' })).toMatchObject({ extraBloodMarkers: 2 });
    expect(scenario({ weapon: 'Gavel', target: 'Ghoul' })).toMatchObject({ extraBloodMarkers: 1 });
  });

  it('reads the other side\'s model in a duel', () => {
    const duel = parseScenario({ kind: 'duel', profiles, a: { weapon: 'Flask', model: 'Cultist' }, b: { weapon: 'Flask', model: 'Ghoul' } });
    expect(duel).toMatchObject({ a: { injuryDice: 1 }, b: { injuryDice: 0 } });
  });

  it('refuses a name after VS that is no keyword of the table, with a suggestion', () => {
    expect(refused({ weapon: 'Misflask', target: 'Ghoul' })).toMatch(/^weapon "Misflask": keywords: "\+1 INJURY DICE VS BLACK GRIL": "BLACK GRIL" is not a keyword of the rule table \(did you mean "BLACK GRAIL"\?\); allowed after VS: /);
  });

  it('says on the command line, with no target model or keywords, that it was taken not to hold', async () => {
    const { cliInProcess } = await import('./helpers/cli-in-process.js');
    const plain = await cliInProcess('exact', '--kind', 'attack', '--profiles', profiles, '--weapon', 'Flask');
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('injury-lab: warning: weapon "Flask": "+1 INJURY DICE VS BLACK GRAIL/DEMONIC" taken not to hold: the target has none of these keywords (give --target-keywords, or a target model, to say it has one)\n');
    const named = await cliInProcess('exact', '--kind', 'attack', '--profiles', profiles, '--weapon', 'Flask', '--target', 'Cultist');
    expect([named.code, named.stderr]).toEqual([0, '']);
  });
});

describe('reports/keyword-value.json', () => {
  it('prices every keyword of the core table that changes the odds, each alone in a profile of examples/keyword-profiles.json', async () => {
    const { readFileSync } = await import('node:fs');
    const { editionTable } = await import('../src/model/edition-table.js');
    const file = JSON.parse(readFileSync('examples/keyword-profiles.json', 'utf8')) as { weapons: Record<string, { keywords?: string[] }>; models: Record<string, { keywords?: string[] }> };
    const report = readFileSync('reports/keyword-value.json', 'utf8');
    const table = editionTable(findSystem('trench-crusade')!, 'core').keywords as Record<string, Record<string, unknown>>;
    const profiled = [...Object.values(file.weapons), ...Object.values(file.models)].flatMap((p) => p.keywords ?? []).map((k) => parseKeyword(k).name);
    for (const [name, effects] of Object.entries(table)) {
      if (Object.keys(effects).length === 0) continue;
      // TOUGH is a dimension of every analysis; the others each have a profile that the report varies.
      if (name === 'TOUGH') continue;
      // INFECTION MARKERS changes no odds of one attack, and the kinds where models fight on refuse it (ruling T41).
      if (name === 'INFECTION MARKERS') continue;
      expect(profiled, name).toContain(name);
      const profileName = Object.entries({ ...file.weapons, ...file.models }).find(([, p]) => (p.keywords ?? []).some((k) => parseKeyword(k).name === name))![0];
      expect(report, `${name}: profile ${profileName}`).toContain(JSON.stringify(profileName));
    }
  });
});

describe('two keywords giving one field', () => {
  it('add up for dice, modifiers and markers; for the rest the later one wins', () => {
    const keywords = { BARBED: { injuryDice: 1, armourPiercing: 2 }, SERRATED: { injuryDice: 1, injuryModifier: 1 } };
    expect(scenario({ weapon: 'Hooked', rules: { keywords } })).toMatchObject({ injuryDice: 2, injuryModifier: 1, armourPiercing: 1 });
    // The same keyword listed twice is one keyword.
    expect(parseScenario({ kind: 'sequence', weaponKeywords: 'FIRE, fire , GAS' })).toMatchObject({ fireMarkers: 1, gasMarkers: 1 });
  });
});

describe('AUTOMATIC N and RISKY', () => {
  it('give the attacks per action and the RISKY string; the activation is the string unless the scenario says otherwise', () => {
    expect(parseScenario({ kind: 'sequence', profiles, weapon: 'Autogun' })).toMatchObject({ attacksPerAction: 3, risky: true, attacksPerActivation: 3 });
    expect(parseScenario({ kind: 'sequence', profiles, weapon: 'Autogun', rules: { keywords: { AUTOMATIC: { attacksPerAction: 'N', attackModifier: -1 } } } })).toMatchObject({ attacksPerAction: 3, attackModifier: -1 });
    expect(parseScenario({ kind: 'sequence', profiles, target: 'Troll' })).toMatchObject({ regenerate: 2, tough: true });
    // The attack kind is one roll: the string's fields are not read.
    expect(scenario({ weapon: 'Autogun' })).not.toHaveProperty('attacksPerAction');
  });
});

describe('rules --rules lists the keywords a variant adds', () => {
  it('after the declared ones, marked as not a keyword of the edition', () => {
    const tc = findSystem('trench-crusade')!;
    const variant = parseVariant({ name: 'sawn', rules: { keywords: { 'SAWN-OFF': { injuryDice: 1 } } } }, 'v', 'v');
    const listing = ruleListing(tc, tc.editions.find((e) => e.id === 'core')!, variant);
    expect(listing.entries.at(-1)).toMatchObject({ rule: 'keywords.SAWN-OFF', value: { injuryDice: 1 }, editionValue: null });
    expect(rulesPresenter.table(listing)).toMatch(/^keywords\.SAWN-OFF\s+\{"injuryDice":1\}  \* \(core: not a keyword\)$/m);
    // The declared keywords the variant leaves alone are not marked changed.
    expect(listing.entries.filter((e) => e.editionValue !== undefined).map((e) => e.rule)).toEqual(['keywords.SAWN-OFF']);
  });
});

describe('INFECTION MARKERS (ruling T41)', () => {
  it('one attack and one injury roll count its markers as the blood markers they work as; a sequence or a duel, where an infected model would gain one more at each activation, refuses it in one line naming the field', () => {
    const infected = parseScenario({ kind: 'attack', weaponKeywords: 'INFECTION MARKERS' });
    expect(infected).toMatchObject({ infectionMarkers: true });
    const plain = evaluateExact(parseScenario({ kind: 'attack' }));
    const withIt = evaluateExact(infected);
    expect(withIt.outcomes.map((o) => o.exact)).toEqual(plain.outcomes.map((o) => o.exact));
    expect(withIt.means).toEqual(plain.means);
    expect(refusal(() => parseScenario({ kind: 'sequence', weaponKeywords: 'INFECTION MARKERS' }))).toBe(
      'infectionMarkers: true is not modelled in a sequence: a model with infection markers gains one more at each of its activations, which is not modelled (ruling T41); give --allow-unmodelled to answer without it (said), or leave it out',
    );
    expect(refusal(() => parseScenario({ kind: 'duel', a: {}, b: { weaponKeywords: 'INFECTION MARKERS' } }))).toMatch(/^b\.infectionMarkers: true is not modelled in a duel: /);
    expect(refusal(() => parseScenario({ kind: 'duel', a: {}, b: {} }))).toBe('accepted');
    // Allowed: answered without it, as the same duel without the keyword, and said.
    const said: string[] = [];
    const allowed = parseScenarioWith({ kind: 'duel', allowUnmodelled: true, a: {}, b: { weaponKeywords: 'INFECTION MARKERS' } }, { ...diskScenarioFiles, notice: (line: string) => said.push(line) });
    expect(evaluateExact(allowed).outcomes.map((o) => o.exact)).toEqual(evaluateExact(parseScenario({ kind: 'duel', a: {}, b: {} })).outcomes.map((o) => o.exact));
    expect(said).toEqual(['weaponKeywords: infectionMarkers: true left out, not modelled in a duel: a model with infection markers gains one more at each of its activations, which is not modelled (ruling T41)']);
  });
});
