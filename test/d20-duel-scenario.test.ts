import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { parseScenario } from '../src/input/scenario.js';
import { systems } from '../src/rules/registry.js';
import { closePool, simulate } from '../src/pool/simulate.js';
import { d20DuelAnswer } from '../src/rules/d20-warband/duel/exact.js';
import { crossCheck } from '../src/stats/cross-check.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { d20DuelPlan } from './helpers/d20-duel.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 24: the d20 warband `duel` kind as a user writes it, a scenario file's `a` and `b` or the flags
 * --a and --b, read into the plan both engines take. The plan the scenario makes is checked against one
 * built by hand from the same two units (test/helpers/d20-duel.ts, through the `attack` kind's parser),
 * so a side's field that lands on the wrong unit or the wrong direction of attack fails here.
 */

afterAll(() => closePool());

const dir = mkdtempSync(join(tmpdir(), 'injury-lab-d20-duel-'));
const profiles = join(dir, 'profiles.json');
writeFileSync(
  profiles,
  JSON.stringify({
    system: 'd20-warband',
    models: { Knight: { defence: 8, wounds: 3 } },
    // A weapon profile is the attacker's side: named "MODEL with WEAPON" it carries the unit's Melee stat and Attacks.
    weapons: { Halberd: { injury: 2, pierce: 1 }, Bow: { attackType: 'ranged' }, 'Knight with Halberd': { stat: 7, attacks: 2, injury: 2, pierce: 1 } },
  }),
);

const duel = (fields: Record<string, unknown>) => parseScenario({ system: 'd20-warband', kind: 'duel', ...fields });
const exactOf = (fields: Record<string, unknown>) => evaluateExact(duel(fields)).outcomes.map((o) => o.exact);
const byHand = (...args: Parameters<typeof d20DuelPlan>) => d20DuelAnswer(d20DuelPlan(...args)).outcomes.map((f) => `${f.num}/${f.den}`.replace(/\/1$/, ''));

describe('the d20 duel kind, read from a scenario', () => {
  it("puts each unit's attack fields on its own attacks and its Defence and wounds under the other's", () => {
    const a = { stat: 8, attacks: 2, injury: 2, wounds: 2, defence: 12, state: 'staggered', ledgeInches: 3, agility: 11 } as const;
    const b = { stat: 11, pierce: 1, defenceModifier: 1, wounds: 1, modifier: 1, explode: false } as const;
    expect(exactOf({ first: 'b', rounds: 3, a, b })).toEqual(byHand(a, b, 'b', 3));
  });

  it('fills every side field with its default, and reads the duel fields', () => {
    const s = duel({ a: {}, b: { wounds: 3 } }) as unknown as Record<string, Record<string, unknown>>;
    expect(s).toMatchObject({ first: 'a', rounds: 10, injuryTiming: 'next-attack', staggerPersists: true, attackModifierToInjury: false });
    expect(s.a).toMatchObject({ stat: 10, attacks: 1, injury: 0, pierce: 0, explode: true, defence: 10, defenceModifier: 0, wounds: 1, state: 'none', agility: 10, ledgeInches: 0 });
    expect(s.b).toMatchObject({ wounds: 3 });
    expect(Object.keys(s.a!)).not.toContain('stunnedDefends');
  });

  it('takes a model and a weapon from a profiles file per side', () => {
    const s = duel({ profiles, a: { model: 'Knight', weapon: 'Halberd' }, b: {} }) as unknown as Record<string, Record<string, unknown>>;
    expect(s.a).toMatchObject({ model: 'Knight', weapon: 'Halberd', defence: 8, wounds: 3, injury: 2, pierce: 1 });
    expect(exactOf({ profiles, a: { model: 'Knight', weapon: 'Halberd' }, b: {}, rounds: 2 })).toEqual(byHand({ defence: 8, wounds: 3, injury: 2, pierce: 1 }, {}, 'a', 2));
  });

  it('takes a unit\'s Melee stat and Attacks from a "MODEL with WEAPON" profile, its Defence and Wounds from the model', () => {
    const s = duel({ profiles, a: { profile: 'Knight with Halberd' }, b: {} }) as unknown as Record<string, Record<string, unknown>>;
    expect(s.a).toMatchObject({ model: 'Knight', weapon: 'Knight with Halberd', stat: 7, attacks: 2, defence: 8, wounds: 3, injury: 2, pierce: 1 });
    const unit = { stat: 7, attacks: 2, defence: 8, wounds: 3, injury: 2, pierce: 1 } as const;
    expect(exactOf({ profiles, a: { profile: 'Knight with Halberd' }, b: {}, rounds: 2 })).toEqual(byHand(unit, {}, 'a', 2));
    // Explicit side fields win over the profile's.
    expect(exactOf({ profiles, a: { profile: 'Knight with Halberd', stat: 9 }, b: {}, rounds: 2 })).toEqual(byHand({ ...unit, stat: 9 }, {}, 'a', 2));
  });

  it('--help-fields lists its side fields with a d20 example, and no keywords (the d20 rule table has none)', async () => {
    const r = await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'duel', '--help-fields');
    expect(r.code).toBe(0);
    // Wrapping changes no test.
    const reference = r.stdout.replace(/\s+/g, ' ');
    expect(reference).toContain('d20-warband side fields (duel: --a FIELD=VALUE,..., --b FIELD=VALUE,... (--a "stat=8,attacks=2,wounds=3")');
    const sides = systems.find((s) => s.id === 'd20-warband')!.kinds.find((k) => k.id === 'duel')!.sides!;
    for (const f of sides.fields) expect(reference).toContain(` ${f.name} ${f.description.replace(/\s+/g, ' ')} Allowed: `);
    expect(reference).toMatch(/--a-profile .*--b-profile/);
    expect(r.stdout).not.toMatch(/keywords|armour=machine/i);
    // Trench Crusade's reference still has them.
    expect((await cliInProcess('exact', '--kind', 'duel', '--help-fields')).stdout).toMatch(/weaponKeywords[\s\S]*--weapon-keywords/);
  });

  it('refuses what a duel cannot be, in one line naming the side and field', () => {
    // A side left out is the side by default (issue 51), as {} says.
    expect(duel({ a: {} })).toEqual(duel({ a: {}, b: {} }));
    expect(refusal(() => duel({ a: 8, b: {} }))).toBe("a: 8 is not allowed; allowed: an object of the side's fields");
    expect(refusal(() => duel({ a: { melee: 8 }, b: {} }))).toMatch(/^a\.melee: not a field of a side; allowed: stat, modifier, /);
    expect(refusal(() => duel({ a: {}, b: { armour: 'standard' } }))).toMatch(/^b\.armour: not a field of a side/);
    expect(refusal(() => duel({ a: {}, b: { stunnedDefends: false } }))).toMatch(/^b\.stunnedDefends: not a field of a side/);
    expect(refusal(() => duel({ a: { wounds: 11 }, b: {} }))).toBe('a.wounds: 11 is not allowed; allowed: a whole number from 0 to 10');
    expect(refusal(() => duel({ a: {}, b: { stat: 21 } }))).toBe('b.stat: 21 is not allowed; allowed: a whole number from 1 to 20, or "-"');
    expect(refusal(() => duel({ a: {}, b: { state: 'incapacitated' } }))).toBe('b.state: "incapacitated" is not allowed; allowed: none, staggered, dazed, stunned');
    expect(refusal(() => duel({ a: { agility: 0 }, b: {} }))).toBe('a.agility: 0 is not allowed; allowed: a whole number from 1 to 20');
    expect(refusal(() => duel({ rounds: 0, a: {}, b: {} }))).toBe('rounds: 0 is not allowed; allowed: a whole number from 1 to 50');
    expect(refusal(() => duel({ rounds: 51, a: {}, b: {} }))).toBe('rounds: 51 is not allowed; allowed: a whole number from 1 to 50');
    expect(refusal(() => duel({ first: 'c', a: {}, b: {} }))).toBe('first: "c" is not allowed; allowed: a, b');
    expect(refusal(() => duel({ stat: 8, a: {}, b: {} }))).toMatch(/^stat: 8 is not read by kind "duel"; it is a field of kind check, attack, turns/);
    expect(refusal(() => duel({ stunnedDefends: false, a: {}, b: {} }))).toMatch(/^stunnedDefends: false is not read by kind "duel"/);
    expect(refusal(() => duel({ a: {}, b: { stat: '-' } }))).toMatch(/^b\.stat: "-" cannot make a melee attack \(.*\); allowed: a whole number from 1 to 20$/);
    expect(refusal(() => duel({ a: { attackType: 'ranged' }, b: {} }))).toMatch(/^a\.attackType: "ranged" is not allowed in a duel .*; allowed: melee$/);
    expect(refusal(() => duel({ profiles, a: {}, b: { weapon: 'Bow' } }))).toMatch(/^b\.attackType: "ranged" is not allowed in a duel/);
    expect(refusal(() => duel({ a: { ledgeInches: 1.5 }, b: {} }))).toMatch(/^a\.ledgeInches: 1\.5 is not a ledge to Fall from .*; allowed: 0 \(no ledge\), or a number from 2 to 100$/);
    expect(refusal(() => duel({ profiles, a: { model: 'Knigth' }, b: {} }))).toMatch(/^a\.model: "Knigth" is not a model of profiles file .* \(did you mean "Knight"\?\)/);
  });

  it('the top-level readings act on both units: end-of-action timing changes the answer', () => {
    const sides = { a: { attacks: 3, stat: 6 }, b: { attacks: 3, stat: 6, wounds: 0 } };
    expect(exactOf({ ...sides, injuryTiming: 'end-of-action', rounds: 2 })).not.toEqual(exactOf({ ...sides, rounds: 2 }));
  });
});

describe('the d20 duel kind on the command line', () => {
  it("--a 'stat=8,wounds=2' gives the side field by field, as a file does", async () => {
    const file = join(dir, 'duel.json');
    writeFileSync(file, JSON.stringify({ system: 'd20-warband', kind: 'duel', rounds: 4, a: { stat: 8, wounds: 2 }, b: { attacks: 2, 'ledgeInches': 3 } }));
    const fromFile = await cliInProcess('exact', file, '--format', 'json');
    const fromFlags = await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'duel', '--rounds', '4', '--a', 'stat=8,wounds=2', '--b', 'attacks=2,ledge-inches=3', '--format', 'json');
    expect(fromFile.code).toBe(0);
    expect(fromFlags.code).toBe(0);
    const outcomes = (r: { stdout: string }) => (JSON.parse(r.stdout) as { outcomes: unknown }).outcomes;
    expect(outcomes(fromFlags)).toEqual(outcomes(fromFile));
    const json = JSON.parse(fromFile.stdout) as { decidedWithin: { round: number }[]; expectedActivations: { value: number } };
    expect(json.decidedWithin.map((d) => d.round)).toEqual([1, 2, 3, 4]);
    expect(json.expectedActivations.value).toBeGreaterThan(1);
    // A flag over the file's side changes that field only.
    const over = await cliInProcess('exact', file, '--a', 'wounds=1', '--format', 'json');
    const plain = await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'duel', '--rounds', '4', '--a', 'stat=8', '--b', 'attacks=2,ledgeInches=3', '--format', 'json');
    expect(outcomes(over)).toEqual(outcomes(plain));
  });

  it('refuses a side field the side has not, naming the flag, exit 2', async () => {
    const r = await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'duel', '--a', 'melee=8', '--b', '');
    expect(r.stderr).toMatch(/^injury-lab: a\.melee: not a field of a side; allowed: stat, /);
    expect(r.code).toBe(2);
    const attack = await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'attack', '--a', 'stat=8');
    expect(attack.stderr).toBe('injury-lab: --a: not a side of d20-warband kind "attack"; sides are given to kind duel\n');
  });
});

describe('the d20 duel kind simulated', () => {
  it('the pool simulates it with the counts the exact answer expects, whatever the number of workers', async () => {
    const s = duel({ rounds: 6, staggerPersists: false, injuryTiming: 'end-of-action', a: { stat: 8, attacks: 2, state: 'staggered' }, b: { wounds: 2, ledgeInches: 4, injury: 1 } });
    const one = await simulate(s, { trials: 60_000, seed: 11, workers: 1 });
    const two = await simulate(s, { trials: 60_000, seed: 11, workers: 2 });
    expect([...two.tally]).toEqual([...one.tally]);
    // The check `check` makes, at its family error (1e-6 for a correct simulator with this fixed seed).
    expect(crossCheck(evaluateExact(s).answer, one).failures).toEqual([]);
  });
});
