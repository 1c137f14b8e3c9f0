import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { fraction, sub, formatFraction } from '../src/exact/fraction.js';
import { parseDimension } from '../src/analysis/dimensions.js';
import { cellDifference, neighbourDifferences, runSweep } from '../src/analysis/sweep.js';
import { findSystem } from '../src/rules/registry.js';
import { closePool } from '../src/pool/simulate.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * `cli` starts the built CLI in a process of its own (run `npm run build` first); `cliInProcess` runs the
 * same src/cli/main.ts inside this process (the same output and exit code, simulations on the same pool
 * of worker threads, closed after each run) at a fraction of the CPU. One refused input stays a real
 * process, end to end.
 */

const tc = findSystem('trench-crusade')!;

afterAll(() => closePool());

describe('--vary and report vary items', () => {
  it('reads lists, ranges with steps, and fields varied together', () => {
    expect(parseDimension('armour=none,standard', tc, 'injury').values.map((v) => v.values)).toEqual([['none'], ['standard']]);
    const dice = parseDimension('injuryDice=-1..3', tc, 'injury');
    expect(dice.values.map((v) => v.label)).toEqual(['-1', '0', '+1', '+2', '+3']);
    expect(dice.numeric).toBe(true);
    expect(parseDimension('heightInches=0..18:6', tc, 'fall').values.map((v) => v.values[0])).toEqual([0, 6, 12, 18]);
    const both = parseDimension('armour,shield=none/false,standard/true', tc, 'injury');
    expect(both.id).toBe('armour+shield');
    expect(both.values.map((v) => v.label)).toEqual(['none', 'standard + shield']);
    expect(parseDimension({ field: 'heightInches', from: 0, to: 1, step: 0.5 }, tc, 'fall').values.map((v) => v.values[0])).toEqual([0, 0.5, 1]);
    expect(parseDimension('edition=playtest,core', tc, 'injury').values.map((v) => v.values[0])).toEqual(['playtest', 'core']);
  });

  it('rejects unknown fields, empty lists, backwards ranges and repeats with one clear line', () => {
    expect(() => parseDimension('armor=none', tc, 'injury')).toThrow(/vary: "armor" is not a field of trench-crusade kind "injury" \(did you mean armour\?\); allowed: edition, rules, weapon, target, weaponKeywords, targetKeywords, injuryDice/);
    expect(() => parseDimension('armour=', tc, 'injury')).toThrow(/vary: armour: no values given/);
    expect(() => parseDimension('injuryDice=3..-1', tc, 'injury')).toThrow(/runs backwards/);
    expect(() => parseDimension('armour=none,none', tc, 'injury')).toThrow(/listed twice/);
    expect(() => parseDimension('heightInches=0..3', tc, 'injury')).toThrow(/not a field of trench-crusade kind "injury"/);
    expect(() => parseDimension('kind=injury,attack', tc, 'injury')).toThrow(/cannot be varied/);
  });
});

describe('sweep', () => {
  it('evaluates every cell exactly, with each edition filling its own defaults', async () => {
    const s = await runSweep({ base: { kind: 'injury', armour: 'reinforced', shield: true, targetInjuryModifier: -1 }, vary: ['edition=playtest,core'] });
    // The -3 cap: core caps -4 at -3, the playtest text has none (its default modifierCap is "none").
    expect(s.cells.map((c) => c.scenario.modifierCap)).toEqual(['none', 'negative']);
    for (const c of s.cells) expect(c.outcomes.map((o) => o.exact)).toEqual(evaluateExact(c.scenario).outcomes.map((o) => o.exact));
  });

  it('names the cell a bad combination comes from, when strict', async () => {
    await expect(runSweep({ base: { kind: 'injury', shield: true }, vary: ['armour=standard,machine'], strict: true })).rejects.toThrow(
      /cell armour="machine": shield: true cannot be combined with armour "machine"/,
    );
  });

  it('gives exact differences between neighbouring cells', async () => {
    const s = await runSweep({ base: { kind: 'injury' }, vary: ['armour=none,standard'] });
    const [d] = neighbourDifferences(s);
    const ooa = d!.outcomes.find((o) => o.outcome === 'out-of-action')!;
    // 2D6: out of action is 9+ (10/36) with no armour and 10+ (6/36) with -1: 4/36 fewer.
    expect(ooa.exact).toBe(formatFraction(sub(fraction(6, 36), fraction(10, 36))));
  });

  /**
   * Common random numbers: with the same seeds, neighbouring armour cells roll the same dice trial by
   * trial (armour changes only the modifier, not how many dice are drawn), so their difference is much
   * less noisy. The interval of the difference comes from 100 paired batches either way; with
   * independent seeds it must be the wider one. Per trial, out of action differs only on a total of 9
   * under common numbers (variance 4/36 * 32/36 = 0.099) against the sum of the two variances without
   * (10/36 * 26/36 + 6/36 * 30/36 = 0.340): a width ratio of about 1.85. A minor hit differs on totals
   * 2 and 7 (variance 7/36 - (5/36)^2 = 0.175 against 0.490): about 1.67. With 99 degrees of freedom
   * each width is within about +-7% of its expectation (one standard deviation), so 1.3 is more than
   * three standard deviations below both. (Down differs on totals 7 and 9, a ratio of only about 1.2,
   * too close to 1 to test this way.) The seeds are fixed, so the test is deterministic.
   *
   * The +-7% comes from the number of batches, not from the trials in each: the spread of a sample
   * standard deviation over 100 batch means is about 1/sqrt(2 * 99) of it when the batch means are close
   * to normal, and a batch of 2,000 trials is (the excess kurtosis of a batch mean is that of one trial,
   * under 1/p = 9 here, divided by 2,000: under 0.005, against the 2 that the 7% stands for). So 200,000
   * trials per cell test this as well as a million did, for a fifth of the work. (Measured with these
   * settings over 40 well-separated seeds: minor hit 1.68 on average and never below 1.36, out of action
   * 1.92 and never below 1.59.)
   */
  it('common random numbers make the interval of a difference narrower than independent seeds', async () => {
    const plan = { trials: 200_000, seed: 11, batches: 100 };
    const crn = await runSweep({ base: { kind: 'injury' }, vary: ['armour=none,standard'], sim: plan });
    const ind = await runSweep({ base: { kind: 'injury' }, vary: ['armour=none,standard'], sim: { ...plan, independentSeeds: true } });
    const width = (s: typeof crn, outcome: string) => {
      const d = cellDifference(s.cells[0]!, s.cells[1]!).find((o) => o.outcome === outcome)!;
      expect(d.estimate!.paired).toBe(true);
      // Both intervals cover the exact difference.
      expect(d.estimate!.ciLow).toBeLessThanOrEqual(d.value!);
      expect(d.estimate!.ciHigh).toBeGreaterThanOrEqual(d.value!);
      return d.estimate!.ciHigh - d.estimate!.ciLow;
    };
    for (const outcome of ['minor-hit', 'out-of-action']) {
      expect(width(ind, outcome) / width(crn, outcome)).toBeGreaterThan(1.3);
    }
    expect(crn.manifest.simulation!.commonRandomNumbers).toBe(true);
    expect(ind.manifest.simulation!.commonRandomNumbers).toBe(false);
  }, 60_000);
});

describe('injury-lab sweep', () => {
  it('prints a table with every cell', async () => {
    const r = await cliInProcess('sweep', '--kind', 'injury', '--vary', 'armour=none,standard,reinforced,machine', '--vary', 'injuryDice=-1..3');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/20 cells \(armour x4, injuryDice x5\)/);
    // Heading, "exact", a blank line, the table's header and rule, 20 cells; then a blank line and its one mean in words.
    expect(r.stdout.trim().split('\n')).toHaveLength(5 + 20 + 2);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('expectedBloodMarkers: blood markers placed');
    // Two decimals by default (DEFAULT_DIGITS.fewest), more only where two different exact cells would read alike.
    expect(r.stdout).toMatch(/machine\s+\+3\s+0\.48%\s+34\.36%\s+45\.54%\s+19\.62%/);
  });

  it('prints one JSON document with cells, simulation and the common-random-numbers manifest', async () => {
    const r = await cliInProcess('sweep', '--kind', 'injury', '--vary', 'armour=none,standard', '--trials', '1e5', '--seed', '3', '--format', 'json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.cells).toHaveLength(2);
    expect(doc.cells[0].simulation).toMatchObject({ trials: 100000, seed: 3, batches: 10 });
    expect(doc.cells[0].check.passed).toBe(true);
    expect(doc.manifest.simulation.commonRandomNumbers).toBe(true);
    expect(doc.neighbours[0].outcomes[3].estimate.paired).toBe(true);
  });

  it('shows "this or worse" with --cumulative', async () => {
    const r = await cliInProcess('sweep', '--kind', 'injury', '--vary', 'injuryDice=0..1', '--cumulative');
    expect(r.stdout).toMatch(/down or worse/);
    // 2D6, no armour: minor hit or worse 100% (a total of 2 is already a minor hit), down or worse 7+ = 21/36, out of action 9+ = 10/36.
    expect(r.stdout).toMatch(/^0\s+100\.00%\s+58\.33%\s+27\.78%/m);
  });

  it('writes --out whole and prints nothing on stdout', async () => {
    // A folder of its own: a file named by the process id alone outlived its run, and a later run that
    // drew the same id was refused for replacing it (exit 2, "already exists").
    const out = join(mkdtempSync(join(tmpdir(), 'injury-lab-sweep-')), 'sweep.csv');
    // Nothing is written to stdout, and the note goes to stderr (cliInProcess catches every write to either).
    const r = await cliInProcess('sweep', '--kind', 'injury', '--vary', 'armour=none,standard', '--format', 'csv', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/wrote/);
  });

  const bad: [string, string[], RegExp][] = [
    ['no --vary', ['sweep', '--kind', 'injury'], /Missing required argument: vary/],
    ['unknown field', ['sweep', '--vary', 'armor=none'], /vary: "armor" is not a field/],
    ['bad value', ['sweep', '--vary', 'armour=plate'], /cell armour="plate": armour: "plate" is not allowed; allowed: none, standard, reinforced, machine/],
    ['bad trials', ['sweep', '--vary', 'armour=none', '--trials', 'lots'], /--trials: "lots" is not allowed/],
    ['bad batches', ['sweep', '--vary', 'armour=none', '--trials', '1000', '--batches', '0'], /--batches: "0" is not allowed/],
  ];
  for (const [what, args, message] of bad) {
    it(`bad input, ${what}: one line, exit 2`, async () => {
      // The first runs in a real process, end to end (exit 2 of a process); the rest only differ in wording.
      const r = args === bad[0]![1] ? cli(...args) : await cliInProcess(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  }
});
