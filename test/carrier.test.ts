import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { formatFraction } from '../src/exact/fraction.js';
import { readCatalogueProfilesOnce } from '../src/input/read-once.js';
import { diskScenarioFiles, parseScenario, parseScenarioWith } from '../src/input/scenario.js';
import type { Profile, Profiles } from '../src/model/profiles.js';
import { cli } from './helpers/cli.js';

/**
 * A duel's side is a model carrying its weapon. A weapon read apart from the model (a catalogue's
 * loadout, a hand-written file) must take what a roster's "MODEL with WEAPON" folds in: the model's Melee
 * dice, its FEAR as the attacker's, and its unread text about its own attacks. Without it, `price` rated
 * every catalogue model as if its Melee characteristic were +0 DICE (a War Prophet's +2 lost).
 *
 * test/fixtures/rosters/bell-wardens.cat: the Bell Ringer has Melee "+1 DICE" and armour 0; the Grave
 * Knight Melee "+1 DICE", armour -2 (reinforced) and Tough; both may carry the Censer Maul (no keywords).
 */
const CATALOGUE = ['test/fixtures/rosters/pilgrim-system.gst', 'test/fixtures/rosters/bell-wardens.cat'];
const ROSTER = 'test/fixtures/rosters/ashen-pilgrims.ros';

const duel = (extra: Record<string, unknown>) => ({ system: 'trench-crusade', kind: 'duel', ...extra });
const outcomes = (scenario: Record<string, unknown>) => evaluateExact(scenario).answer.outcomes.map(formatFraction);

describe("a duel side's model carries its weapon", () => {
  it("a catalogue model's Melee dice go with a weapon of its loadout: the same duel as the fields written out", () => {
    const fromCatalogue = outcomes(duel({ catalogue: CATALOGUE, a: { model: 'Bell Ringer', weapon: 'Censer Maul' }, b: { model: 'Grave Knight', weapon: 'Censer Maul' } }));
    const byHand = outcomes(duel({ a: { attackDice: 1 }, b: { armour: 'reinforced', tough: true, attackDice: 1 } }));
    const withoutDice = outcomes(duel({ a: {}, b: { armour: 'reinforced', tough: true } }));
    expect(fromCatalogue).toEqual(byHand);
    expect(fromCatalogue).not.toEqual(withoutDice);
  });

  it("a roster's MODEL with WEAPON counts the model's dice once; the model with the bare weapon reads the same", () => {
    // The roster's Lantern Warden: Melee +2 DICE and FEAR; its Thornpike is read as "Lantern Warden with Thornpike".
    const own = parseScenario(duel({ roster: ROSTER, a: { profile: 'Lantern Warden with Thornpike' }, b: {} })) as unknown as { a: Record<string, unknown> };
    const bare = parseScenario(duel({ roster: ROSTER, a: { model: 'Lantern Warden', weapon: 'Thornpike' }, b: {} })) as unknown as { a: Record<string, unknown> };
    expect(own.a.attackDice).toBe(2);
    expect(own.a.attackerFear).toBe(true);
    expect(bare.a.attackDice).toBe(2);
    expect(bare.a.attackerFear).toBe(true);
  });

  it('the export writes the model dice, and a duel read from it is the same', () => {
    const r = cli('profiles', '--catalogue', ...CATALOGUE, '--format', 'json');
    expect(r.code).toBe(0);
    const exported = JSON.parse(r.stdout) as { models: Record<string, { characteristicDice?: Record<string, number> }> };
    expect(exported.models['Bell Ringer']!.characteristicDice).toEqual({ melee: 1 });
    const file = join(mkdtempSync(join(tmpdir(), 'carrier-')), 'wardens.json');
    writeFileSync(file, r.stdout);
    const sides = { a: { model: 'Bell Ringer', weapon: 'Censer Maul' }, b: { model: 'Grave Knight', weapon: 'Censer Maul' } };
    expect(outcomes(duel({ profiles: file, ...sides }))).toEqual(outcomes(duel({ catalogue: CATALOGUE, ...sides })));
  });

  it('a profiles file refuses model dice of an unknown attack type, in one line naming the field and what is allowed', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'carrier-')), 'bad.json');
    writeFileSync(file, JSON.stringify({ system: 'trench-crusade', models: { Brute: { characteristicDice: { thrown: 1 } } }, weapons: {} }));
    const r = cli('profiles', file);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('models."Brute".characteristicDice: {"thrown":1} is not allowed; allowed: dice (');
    expect(r.stderr).toMatch(/by attack type \(.*melee.*ranged.*\)/);
  });

  it("the model's unread text about its own attacks stops the side; an unreadable Ranged stops no melee attack", () => {
    const read = readCatalogueProfilesOnce(CATALOGUE);
    const ringer = read.models.get('Bell Ringer')!;
    const profiles = (stops: Profile['ownAttackText']): Profiles => ({
      ...read,
      models: new Map([...read.models, ['Bell Ringer', { ...ringer, ownAttackText: stops }]]),
    });
    const files = (p: Profiles) => ({ ...diskScenarioFiles, catalogue: diskScenarioFiles.catalogue, profiles: () => p, notice: () => {} });
    const sides = { profiles: 'in-memory', a: { model: 'Bell Ringer', weapon: 'Censer Maul' }, b: {} };
    const charge = { text: 'Add +1 DICE to its melee attacks when it charges', from: 'ability Zeal', why: 'a sentence about the odds that injury-lab does not read whole', stops: true };
    expect(() => parseScenarioWith(duel(sides), files(profiles([charge])))).toThrow(/a\.model: "Bell Ringer": "Add \+1 DICE to its melee attacks when it charges" is not modelled .*--allow-unmodelled/);
    expect(() => parseScenarioWith(duel({ ...sides, allowUnmodelled: true }), files(profiles([charge])))).not.toThrow();
    const noRanged = { text: 'Ranged N/A', from: 'characteristic', why: 'not a number of dice, such as +1 DICE', stops: true, attackType: 'ranged' };
    expect(() => parseScenarioWith(duel(sides), files(profiles([noRanged])))).not.toThrow();
    // As a target (the attack kind) the model's own-attack text stops nothing.
    expect(() => parseScenarioWith({ system: 'trench-crusade', kind: 'attack', profiles: 'in-memory', target: 'Bell Ringer' }, files(profiles([charge])))).not.toThrow();
  });
});
