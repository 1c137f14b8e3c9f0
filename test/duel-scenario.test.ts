import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { givenLines } from '../src/analysis/asked.js';
import { parseScenario } from '../src/input/scenario.js';
import { closePool, simulate } from '../src/pool/simulate.js';
import { duelAnswer } from '../src/rules/trench-crusade/duel/exact.js';
import { crossCheck } from '../src/stats/cross-check.js';
import { chartSpec } from '../src/present/chart/charts.js';
import { parseReportDef } from '../src/present/report/definition.js';
import { runReport } from '../src/present/report/run.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { duelPlan } from './helpers/duel.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 24: the `duel` kind as a user writes it, a scenario file's `a` and `b` or the flags --a and --b,
 * read into the plan both engines take. The plan the scenario makes is checked against one built by hand
 * from the same two sides (test/helpers/duel.ts), so a side's field that lands on the wrong side or the
 * wrong direction of attack fails here.
 */

afterAll(() => closePool());

const dir = mkdtempSync(join(tmpdir(), 'injury-lab-duel-'));
const profiles = join(dir, 'profiles.json');
writeFileSync(
  profiles,
  JSON.stringify({
    models: { Warded: { armour: 'standard', keywords: ['-1 INJURY DICE UNLESS FIRE'] }, Brute: { armour: 'machine', keywords: ['TOUGH'] } },
    weapons: { Torch: { keywords: ['FIRE'] }, Maul: { injuryDice: 1 } },
  }),
);

const duel = (fields: Record<string, unknown>) => parseScenario({ kind: 'duel', ...fields });
const exactOf = (fields: Record<string, unknown>) => evaluateExact(duel(fields)).outcomes.map((o) => o.exact);
const byHand = (...args: Parameters<typeof duelPlan>) => duelAnswer(duelPlan(...args)).outcomes.map((f) => `${f.num}/${f.den}`.replace(/\/1$/, ''));

describe('the duel kind, read from a scenario', () => {
  it("puts each side's weapon on its own attacks and its body under the other's", () => {
    const a = { armour: 'standard', injuryDice: 1, bloodMarkers: 2, policy: 'injury' } as const;
    const b = { attackDice: 1, tough: true, policy: 'hinder' } as const;
    expect(exactOf({ first: 'b', rounds: 3, a, b: { ...b, attacksPerActivation: 2 } })).toEqual(byHand(a, { ...b, attacks: 2 }, 'b', 3));
    // A side's ledge is its own: b by a 7-inch drop falls under a's attacks, not a.
    expect(exactOf({ rounds: 3, a, b: { ...b, ledgeInches: 7 } })).toEqual(byHand(a, { ...b, ledge: 7 }, 'a', 3));
    expect(exactOf({ rounds: 3, a, b: { ...b, ledgeInches: 7 } })).not.toEqual(byHand({ ...a, ledge: 7 }, b, 'a', 3));
  });

  it('fills every side field with its default, and reads the duel fields', () => {
    const s = duel({ a: {}, b: { armour: 'machine' } }) as unknown as Record<string, Record<string, unknown>>;
    expect(s).toMatchObject({ first: 'a', rounds: 10 });
    expect(s.a).toMatchObject({ armour: 'none', tough: false, policy: 'none', down: false, attacksPerActivation: 1, bloodMarkers: 0 });
    expect(s.b).toMatchObject({ armour: 'machine' });
  });

  it('takes a model and a weapon from a profiles file per side, each model reading the other side\'s weapon', () => {
    // a: Warded (-1 injury dice unless FIRE) with a Maul; b: Brute (machine armour, TOUGH) with a Torch (FIRE).
    const s = duel({ profiles, a: { model: 'Warded', weapon: 'Maul' }, b: { model: 'Brute', weapon: 'Torch' } }) as unknown as Record<string, Record<string, unknown>>;
    expect(s.a).toMatchObject({ model: 'Warded', weapon: 'Maul', armour: 'standard', injuryDice: 1, targetInjuryDice: 0 });
    expect(s.b).toMatchObject({ armour: 'machine', tough: true, fireMarkers: 1 });
    // Against a weapon without FIRE, Warded's -1 injury dice acts.
    const plain = duel({ profiles, a: { model: 'Warded' }, b: { weapon: 'Maul' } }) as unknown as Record<string, Record<string, unknown>>;
    expect(plain.a).toMatchObject({ targetInjuryDice: -1 });
  });

  it('heads its answer with the duel: who goes first, and each side as the fields it changes, in every command', async () => {
    const plain = duel({ first: 'b', rounds: 3, a: { armour: 'standard', tough: true }, b: {} });
    expect(evaluateExact(plain).notes[0]).toBe('3 rounds, b first');
    expect(givenLines(plain)).toEqual(['  Given: first b, rounds 3; a: armour standard, tough; b: as by default']);
    const named = duel({ profiles, a: { model: 'Warded', weapon: 'Maul', policy: 'injury' }, b: { model: 'Brute' } });
    expect(givenLines(named)).toEqual(['  Given: a: Warded with Maul: injuryDice 1, targetInjuryDice -1, armour standard, policy injury; b: Brute: armour machine, tough']);
    // simulate and check say who fought as exact does (they once named neither side); the d20 duel too.
    const flags = ['--kind', 'duel', '--rounds', '2', '--a', 'armour=standard,tough=true', '--b', 'armour=machine', '--trials', '1000'];
    for (const command of ['simulate', 'check']) {
      const r = await cliInProcess(command, ...flags);
      expect(r.stdout.split('\n')[1]).toBe('  Given: rounds 2; a: armour standard, tough; b: armour machine');
    }
    const d20 = await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'duel', '--a', 'stat=8,wounds=2', '--b', 'attacks=2');
    expect(d20.stdout.split('\n')[1]).toBe('  Given: a: stat 8, wounds 2; b: attacks 2');
  });

  it('says what an optimal side plays for where the answer is printed, and plays for the win with --objective win', async () => {
    const flags = ['--kind', 'duel', '--rounds', '2', '--a', 'tough=true,bloodMarkers=2,policy=optimal', '--b', 'tough=true,bloodMarkers=1,policy=injury'];
    const margin = await cliInProcess('exact', ...flags);
    expect(margin.stdout).toMatch(/Optimal spending \(a\), playing for the margin P\(win\) - P\(loss\), an undecided duel worth half a win \(objective margin, the default; objective win plays for the chance of winning alone\)/);
    const win = await cliInProcess('exact', ...flags, '--objective', 'win', '--format', 'json');
    const out = JSON.parse(win.stdout) as { scenario: { objective: string }; outcomes: { outcome: string; exact: string }[]; notes: string[] };
    expect(out.scenario.objective).toBe('win');
    expect(out.notes.join('\n')).toMatch(/playing for its own chance of winning alone, an undecided duel worth no more than a loss \(objective win\)/);
    // The same duel written out with objective win in the file: the flag is the field.
    const byFile = evaluateExact(duel({ rounds: 2, objective: 'win', a: { tough: true, bloodMarkers: 2, policy: 'optimal' }, b: { tough: true, bloodMarkers: 1, policy: 'injury' } }));
    expect(out.outcomes.map((o) => o.exact)).toEqual(byFile.outcomes.map((o) => o.exact));
    expect((await cliInProcess('exact', ...flags, '--objective', 'wins')).stderr).toMatch(/^injury-lab: objective: "wins" is not allowed \(did you mean "win"\?\); allowed: margin, win$/m);
  });

  it('takes a side\'s model and weapon in one name from a roster: "MODEL with WEAPON", or a model', async () => {
    const roster = 'examples/roster-example.ros';
    const s = duel({ roster, a: { profile: 'Cinder Brute with Cinder Maul' }, b: { profile: 'Thorn Sentinel' } }) as unknown as Record<string, Record<string, unknown>>;
    // As the two profiles named apart: the Cinder Brute model and the weapon entry that carries its dice.
    const apart = duel({ roster, a: { model: 'Cinder Brute', weapon: 'Cinder Brute with Cinder Maul' }, b: { model: 'Thorn Sentinel' } }) as unknown as Record<string, Record<string, unknown>>;
    expect({ ...s.a, profile: undefined }).toEqual({ ...apart.a, profile: undefined });
    expect(s.b).toMatchObject({ profile: 'Thorn Sentinel', model: 'Thorn Sentinel', armour: 'standard', shield: true });
    expect(givenLines(s as never)[0]).toMatch(/^  Given: a: Cinder Brute with Cinder Maul: /);
    expect(refusal(() => duel({ roster, a: { profile: 'Cinder Brut' }, b: {} }))).toMatch(/^a\.profile: "Cinder Brut" is not a model or a "MODEL with WEAPON" of roster file .* \(did you mean "Cinder Brute"\?\)/);
    const flags = await cliInProcess('exact', '--kind', 'duel', '--roster', roster, '--a-profile', 'Cinder Brute with Cinder Maul', '--b-profile', 'Thorn Sentinel', '--format', 'json');
    const file = join(dir, 'roster-duel.json');
    writeFileSync(file, JSON.stringify({ kind: 'duel', roster: join(process.cwd(), roster), a: { profile: 'Cinder Brute with Cinder Maul' }, b: { profile: 'Thorn Sentinel' } }));
    const outcomes = (r: { stdout: string }) => (JSON.parse(r.stdout) as { outcomes: unknown }).outcomes;
    expect(outcomes(flags)).toEqual(outcomes(await cliInProcess('exact', file, '--format', 'json')));
  });

  it('refuses what a duel cannot be, in one line naming the side and field', () => {
    // A side left out is the side by default (issue 51), as {} says.
    expect(duel({ a: {} })).toEqual(duel({ a: {}, b: {} }));
    expect(refusal(() => duel({ a: 'Brute', b: {} }))).toBe('a: "Brute" is not allowed; allowed: an object of the side\'s fields');
    expect(refusal(() => duel({ a: { armor: 'machine' }, b: {} }))).toMatch(/^a\.armor: not a field of a side; allowed: injuryDice, /);
    expect(refusal(() => duel({ a: {}, b: { policy: 'all' } }))).toBe('b.policy: "all" is not allowed; allowed: none, injury, hinder, optimal');
    expect(refusal(() => duel({ rounds: 50, a: { policy: 'optimal', attacksPerActivation: 4 }, b: { attacksPerActivation: 4 } }))).toMatch(
      /^a\.policy: "optimal" needs [\d,]+ states x attacks here, more than the 4,000,000 it is allowed; allowed: fewer rounds/,
    );
    expect(refusal(() => duel({ a: { attacksPerActivation: 5 }, b: {} }))).toBe('a.attacksPerActivation: 5 is not allowed; allowed: a whole number from 1 to 4');
    expect(refusal(() => duel({ rounds: 51, a: {}, b: {} }))).toBe('rounds: 51 is not allowed; allowed: a whole number from 1 to 50');
    expect(refusal(() => duel({ armour: 'machine', a: {}, b: {} }))).toMatch(/^armour: "machine" is not read by kind "duel"/);
    expect(refusal(() => duel({ a: {}, b: { attackType: 'ranged' } }))).toMatch(/^b\.attackType: "ranged" is not allowed in a duel/);
    expect(refusal(() => duel({ a: { armour: 'machine', shield: true }, b: {} }))).toMatch(/^a\.shield: true cannot be combined with armour "machine"/);
    expect(refusal(() => duel({ a: {}, b: { toughUsed: true } }))).toMatch(/^b\.toughUsed: true needs tough: true/);
    expect(refusal(() => duel({ profiles, a: { model: 'Brutte' }, b: {} }))).toMatch(/^a\.model: "Brutte" is not a model of profiles file .* \(did you mean "Brute"\?\)/);
    expect(refusal(() => duel({ a: {}, b: { policy: 'hinder' }, rules: { markers: { onOwnRolls: false } } }))).toMatch(/^b\.policy: "hinder" is not allowed with these rules/);
    // A weapon alone is no side (the "a side that is a weapon only").
    expect(refusal(() => duel({ profiles, a: { profile: 'Maul' }, b: {} }))).toMatch(
      /^a\.profile: "Maul" is a weapon of profiles file .*, not a side \(a model with its weapon\); allowed: "MODEL with WEAPON" \("Warded with Maul"\), a model, or "model" and "weapon" given apart$/,
    );
    expect(refusal(() => duel({ edition: 'playtest', a: { ledgeInches: 6 }, b: {} }))).toBe(
      'a.ledgeInches: 6 is not allowed with these rules (rule fall.available is false: no model falls from a ledge); allowed: 0',
    );
    expect(refusal(() => duel({ a: {}, b: { ledgeInches: -1 } }))).toMatch(/^b\.ledgeInches: -1 is not allowed; allowed: a number from 0 to 120/);
  });
});

describe("a duel's outcomes are not ranked: no \"or worse\" anywhere", () => {
  it('exact JSON and the table give each outcome alone; a chart of stacked bars reads in the legend\'s order, a bar per duel', async () => {
    const json = await cliInProcess('exact', '--kind', 'duel', '--rounds', '2', '--a', '', '--b', 'ledgeInches=4', '--format', 'json');
    const outcomes = (JSON.parse(json.stdout) as { outcomes: Record<string, unknown>[] }).outcomes;
    expect(outcomes.map((o) => Object.keys(o))).toEqual(Array(3).fill(['outcome', 'probability', 'exact']));
    const table = await cliInProcess('exact', '--kind', 'duel', '--rounds', '2', '--a', '', '--b', '');
    expect(table.stdout).not.toMatch(/or worse/);
    // An analysis that names no chart of one side varied gets stacked bars (src/present/chart/defaults.ts).
    const def = parseReportDef(
      { title: 'Duels', analyses: [{ id: 'sides', title: 'Sides', scenario: { kind: 'duel', rounds: 2, b: {} }, vary: [{ field: 'a', values: [{ name: 'plain', value: {} }, { name: 'armoured', value: { armour: 'standard' } }] }] }] },
      join(dir, 'duels.json'),
    );
    const run = await runReport(def, { png: false });
    const analysis = run.analyses[0]!;
    const bars = analysis.def.charts.find((c) => c.type === 'stacked-bars')!;
    const spec = JSON.stringify(chartSpec(analysis.sweep, bars));
    expect(spec).toContain("Outcome of each duel, in the legend's order");
    expect(spec).toContain('Share of duels');
    expect(spec).not.toMatch(/mildest|Share of rolls/);
  });
});

describe('the duel kind on the command line', () => {
  it('--a and --b give the sides field by field, as a file does', async () => {
    const file = join(dir, 'duel.json');
    writeFileSync(file, JSON.stringify({ kind: 'duel', rounds: 4, a: { armour: 'standard', tough: true }, b: { injuryDice: 1 } }));
    const fromFile = await cliInProcess('exact', file, '--format', 'json');
    const fromFlags = await cliInProcess('exact', '--kind', 'duel', '--rounds', '4', '--a', 'armour=standard,tough=true', '--b', 'injury-dice=1', '--format', 'json');
    expect(fromFile.code).toBe(0);
    const outcomes = (r: { stdout: string }) => (JSON.parse(r.stdout) as { outcomes: unknown }).outcomes;
    expect(outcomes(fromFlags)).toEqual(outcomes(fromFile));
    // A flag over the file's side changes that field only.
    const over = await cliInProcess('exact', file, '--b', 'injuryDice=0', '--format', 'json');
    expect(outcomes(over)).toEqual(outcomes(await cliInProcess('exact', '--kind', 'duel', '--rounds', '4', '--a', 'armour=standard,tough=true', '--b', '', '--format', 'json')));
    const json = JSON.parse(fromFile.stdout) as { decidedWithin: { round: number }[]; expectedActivations: { value: number } };
    expect(json.decidedWithin.map((d) => d.round)).toEqual([1, 2, 3, 4]);
    expect(json.expectedActivations.value).toBeGreaterThan(1);
  });

  it('refuses a side flag on a kind without sides, and a side flag given twice', async () => {
    const r = await cliInProcess('exact', '--kind', 'attack', '--a', 'armour=standard');
    expect(r.stderr).toBe('injury-lab: --a: not a side of trench-crusade kind "attack"; sides are given to kind duel, battle\n');
    expect(r.code).toBe(2);
    const twice = await cliInProcess('exact', '--kind', 'duel', '--a', 'tough=true', '--a', 'armour=standard', '--b', '');
    expect(twice.stderr).toMatch(/^injury-lab: --a: given more than once/);
    // A field given twice in one side: neither value is kept silently.
    const field = await cliInProcess('exact', '--kind', 'duel', '--a', 'armour=machine,armour=none', '--b', '');
    expect([field.code, field.stdout, field.stderr]).toEqual([2, '', 'injury-lab: --a armour: given twice in "armour=machine,armour=none"; give each field of a side once\n']);
    const spelled = await cliInProcess('simulate', '--kind', 'duel', '--b', 'attacks-per-activation=2,attacksPerActivation=1', '--a', '');
    expect(spelled.stderr).toMatch(/^injury-lab: --b attacksPerActivation: given twice/);
  });
});

describe('the duel kind simulated', () => {
  it('the pool simulates it with the counts the exact answer expects, whatever the number of workers', async () => {
    const s = duel({ rounds: 4, a: { armour: 'standard', policy: 'injury' }, b: { tough: true, policy: 'hinder', bloodMarkers: 1 } });
    const one = await simulate(s, { trials: 60_000, seed: 11, workers: 1 });
    const two = await simulate(s, { trials: 60_000, seed: 11, workers: 2 });
    expect([...two.tally]).toEqual([...one.tally]);
    // The check `check` makes, at its family error (1e-6 for a correct simulator with this fixed seed).
    expect(crossCheck(evaluateExact(s).answer, one).failures).toEqual([]);
  });
});
