import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseProfiles } from '../src/input/profiles-file.js';
import { parseScenario, readScenarioFile, resolveInputs, scenarioJsonSchema, validateScenario } from '../src/input/scenario.js';
import { Ajv } from 'ajv';

/** Each bad input gets one line naming the field, the value and what is allowed. */
const cases: [string, Record<string, unknown>, RegExp][] = [
  ['unknown system', { system: 'warhammer' }, /^system: "warhammer" is not a known system; allowed: trench-crusade/],
  ['unknown edition', { edition: 'beta' }, /^edition: "beta" is not an edition of trench-crusade; allowed: playtest, comprehensive, core$/],
  ['unknown kind', { kind: 'shoot' }, /^kind: "shoot" is not a kind of trench-crusade; allowed: injury, attack, fall/],
  ['unknown field', { kind: 'injury', armor: 'standard' }, /^armor: not a field of trench-crusade; allowed: .*armour/],
  ['field of another kind', { kind: 'injury', heightInches: 6 }, /^heightInches: 6 is not read by kind "injury"; it is a field of kind fall$/],
  ['number out of range', { injuryDice: 11 }, /^injuryDice: 11 is not allowed; allowed: a whole number from -10 to 10$/],
  ['not an integer', { injuryDice: 1.5 }, /^injuryDice: 1.5 is not allowed; allowed: a whole number from -10 to 10$/],
  ['wrong type', { injuryDice: 'two' }, /^injuryDice: "two" is not allowed; allowed: a whole number from -10 to 10$/],
  ['unknown armour', { armour: 'plate' }, /^armour: "plate" is not allowed; allowed: none, standard, reinforced, machine$/],
  ['negative markers', { bloodMarkersSpent: -1 }, /^bloodMarkersSpent: -1 is not allowed; allowed: a whole number from 0 to 20$/],
  ['boolean as string', { shield: 'yes' }, /^shield: "yes" is not allowed; allowed: true or false$/],
  ['negative fall height', { kind: 'fall', heightInches: -3 }, /^heightInches: -3 is not allowed; allowed: a number from 0 to 120$/],
  ['machine armour with shield (core)', { armour: 'machine', shield: true }, /^shield: true cannot be combined with armour "machine" in the core edition/],
  ['bloodbath in comprehensive', { edition: 'comprehensive', bloodbath: true }, /^bloodbath: true is not a rule of the comprehensive edition/],
  ['fall in playtest', { edition: 'playtest', kind: 'fall' }, /^kind: "fall" is not a rule of the playtest edition/],
  ['unknown bloodbathDie', { edition: 'playtest', bloodbathDie: 'extra' }, /^bloodbathDie: "extra" is not allowed; allowed: pooled, separate$/],
  ['separate Bloodbath die in core', { bloodbathDie: 'separate' }, /^bloodbathDie: "separate" is not allowed in the core edition .*; allowed: pooled \(separate: playtest only\)$/],
  ['deadlyBloodbathKeep out of range', { deadlyBloodbathKeep: 2 }, /^deadlyBloodbathKeep: 2 is not allowed; allowed: a whole number from 3 to 4$/],
  ['deadlyBloodbathKeep 3 outside core', { edition: 'comprehensive', deadlyBloodbathKeep: 3 }, /^deadlyBloodbathKeep: 3 is not allowed in the comprehensive edition .*; allowed: 4$/],
  ['toughUsed without tough', { toughUsed: true }, /^toughUsed: true needs tough: true/],
  ['not an object', [] as unknown as Record<string, unknown>, /^a scenario must be a JSON object/],
];

describe('scenario validation messages', () => {
  for (const [name, raw, message] of cases) {
    it(name, () => {
      expect(() => parseScenario(raw)).toThrow(message);
    });
  }

  it('messages name the file they come from', () => {
    expect(() => parseScenario({ injuryDice: 99 }, 'my.json')).toThrow(/^my\.json: injuryDice: 99/);
  });

  it('missing, malformed and non-object scenario files', () => {
    expect(() => readScenarioFile('test/fixtures/nope.json')).toThrow(/^scenario file "test\/fixtures\/nope.json": no such file$/);
    expect(() => readScenarioFile('test/fixtures/malformed.json')).toThrow(/^scenario file "test\/fixtures\/malformed.json": not valid JSON/);
    expect(() => readScenarioFile('test/fixtures/array.json')).toThrow(/must hold one JSON object of scenario fields, got an array/);
  });

  it('a choice with other capitals is the value it plainly means, in the scenario and in a side; a misspelling is still refused', () => {
    expect(parseScenario({ kind: 'attack', armour: 'Machine', attackType: 'RANGED' })).toMatchObject({ armour: 'machine', attackType: 'ranged' });
    expect(parseScenario({ kind: 'duel', a: { armour: 'STANDARD', policy: 'Optimal' }, b: {}, rounds: 1 })).toMatchObject({ a: { armour: 'standard', policy: 'optimal' } });
    expect(() => parseScenario({ armour: 'Machin' })).toThrow(/^armour: "Machin" is not allowed \(did you mean "machine"\?\); allowed: none, standard, reinforced, machine$/);
  });

  it('defaults are filled as a player would assume', () => {
    const s = parseScenario({});
    expect(s).toMatchObject({ system: 'trench-crusade', edition: 'core', kind: 'injury', armour: 'none', injuryDice: 0, attackType: 'melee', modifierCap: 'negative' });
    expect(parseScenario({ edition: 'playtest' })).toMatchObject({ modifierCap: 'none', downBonus: 'any', criticalInjuryDice: 0, bloodbathDie: 'pooled', deadlyBloodbathKeep: 4 });
    expect(parseScenario({ edition: 'playtest', kind: 'attack' })).toMatchObject({ criticalInjuryDice: 0 });
  });
});

describe('published JSON Schema', () => {
  const ajv = new Ajv({ strict: false });
  const validate = ajv.compile(scenarioJsonSchema());
  it('accepts valid scenario files and rejects unknown fields and bad values', () => {
    expect(validate({ kind: 'attack', armour: 'standard', injuryDice: 1 })).toBe(true);
    expect(validate({ system: 'trench-crusade', kind: 'fall', heightInches: 7 })).toBe(true);
    expect(validate({ kind: 'attack', armor: 'standard' })).toBe(false);
    expect(validate({ armour: 'plate' })).toBe(false);
    expect(validate({ system: 'nope' })).toBe(false);
  });

  it('the committed scenario.schema.json is the generated one', async () => {
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync('scenario.schema.json', 'utf8'))).toEqual(scenarioJsonSchema());
  });
});

describe('reading files, then validating (issue 23)', () => {
  it('validateScenario reads no file: profiles a caller read its own way (a page, a worker) give the same scenario', () => {
    const file = 'examples/profiles.json';
    const raw = { kind: 'attack', profiles: file, weapon: 'Great Hammer', target: 'Shield Bearer' };
    const fromFiles = parseScenario(raw);
    // The same profiles, parsed from text the caller holds: no path is read by the validation.
    const text = readFileSync(file, 'utf8');
    const profiles = parseProfiles(JSON.parse(text), 'profiles from memory', 'in-memory.json');
    const { profiles: _path, ...fields } = raw;
    expect(validateScenario({ input: { ...fields, system: profiles.system.id }, profiles })).toEqual(fromFiles);
    // And resolveInputs is what reads: its profiles are the file's.
    expect([...resolveInputs(raw).profiles!.weapons.keys()]).toEqual([...profiles.weapons.keys()]);
  });
});


describe('a designer\'s slip, answered in one try (issue 51)', () => {
  it('a misspelt value gets a "did you mean", on the command line and in a side, as a misspelt flag does', async () => {
    const { cliInProcess } = await import('./helpers/cli-in-process.js');
    const flag = await cliInProcess('exact', '--armour', 'standrd');
    expect([flag.code, flag.stdout, flag.stderr]).toEqual([2, '', 'injury-lab: armour: "standrd" is not allowed (did you mean "standard"?); allowed: none, standard, reinforced, machine\n']);
    const side = await cliInProcess('exact', '--kind', 'duel', '--a', 'armour=reinfrced');
    expect(side.stderr).toBe('injury-lab: a.armour: "reinfrced" is not allowed (did you mean "reinforced"?); allowed: none, standard, reinforced, machine\n');
    // A letter or two is not guessed at: "c" is a and b by one edit each.
    expect(() => parseScenario({ kind: 'duel', first: 'c' })).toThrow(/^first: "c" is not allowed; allowed: /);
  });

  it('a duel side not given is the side by default: --b alone answers as --a "" --b', async () => {
    const { cliInProcess } = await import('./helpers/cli-in-process.js');
    const alone = await cliInProcess('exact', '--kind', 'duel', '--b', 'armour=machine', '--format', 'json');
    const both = await cliInProcess('exact', '--kind', 'duel', '--a', '', '--b', 'armour=machine', '--format', 'json');
    expect(alone.code, alone.stderr).toBe(0);
    expect(JSON.parse(alone.stdout).outcomes).toEqual(JSON.parse(both.stdout).outcomes);
  });
});
