import { describe, expect, it } from 'vitest';
import { evaluateParsed, exactResultOf } from '../src/exact-result.js';
import { parseScenario } from '../src/input/scenario.js';
import { encodeAnswer, EXACT_JOB, exactJob, readExactAnswer, refuseJob } from '../src/queue/shards.js';

/**
 * An exact cell through the queue (issue #27): a worker solves it and sends back only the fractions,
 * which the submitter checks and turns into the result as the local solve would. No Redis here: the
 * job's checks and the answer's trip as JSON.
 */
const scenarios = [
  parseScenario({ kind: 'attack', armour: 'reinforced', injuryDice: 1 }),
  parseScenario({ kind: 'sequence' }),
  parseScenario({ system: 'd20-warband', kind: 'turns' }),
  parseScenario({ kind: 'fall', heightInches: 7 }),
];

/** "p/q" as "2p/2q": the same value, in a form no worker writes. */
function unreduced(text: string): string {
  const [p, q = '1'] = text.split('/');
  return `${2n * BigInt(p!)}/${2n * BigInt(q)}`;
}

/** What travels: the worker's encoded answer as the JSON text BullMQ keeps. */
const trip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('an exact cell through the queue', () => {
  it('comes back as the very result the local solve gives, notes, extra fields and histograms included', () => {
    for (const s of scenarios) {
      const local = evaluateParsed(s);
      const answer = readExactAnswer(trip(encodeAnswer(local.answer)), local.layout);
      expect(answer).toBeDefined();
      expect(exactResultOf(s, local.layout, answer!)).toEqual(local);
    }
    // The cases cover what an answer may carry besides its outcomes.
    const answers = scenarios.map((s) => evaluateParsed(s).answer);
    expect(answers.some((a) => a.histograms.length > 0)).toBe(true);
    expect(answers.some((a) => (a.notes ?? []).length > 0 && Object.keys(a.extra ?? {}).length > 0)).toBe(true);
  });

  it('refuses an answer that is not one this version gives', () => {
    const local = evaluateParsed(scenarios[0]!);
    const good = trip(encodeAnswer(local.answer)) as { outcomes: string[]; means: string[] };
    const o = good.outcomes;
    const bad: unknown[] = [
      null,
      'not json',
      [],
      { ...good, outcomes: o.slice(1) }, // an outcome short
      { ...good, means: [] },
      { ...good, histograms: [['1']] },
      { ...good, outcomes: o.map((x, i) => (i === 0 ? unreduced(x) : x)) }, // the same value, not reduced
      { ...good, outcomes: o.map((x, i) => (i === 0 ? '1' : x)) }, // does not sum to 1
      { ...good, outcomes: ['2', '-1', ...o.slice(2).map(() => '0')] }, // sums to 1, but a probability above 1
      { ...good, outcomes: o.map((x, i) => (i === 0 ? `${x}/0` : x)) },
      { ...good, outcomes: o.map((x, i) => (i === 0 ? 0.5 : x)) },
      { ...good, outcomes: o.map((x, i) => (i === 0 ? '1'.repeat(20_001) : x)) },
      { ...good, notes: [1] },
      { ...good, extra: [] },
    ];
    for (const b of bad) expect(readExactAnswer(b, local.layout), JSON.stringify(b)?.slice(0, 120)).toBeUndefined();
    expect(readExactAnswer(good, local.layout)).toBeDefined();
  });

  it("refuses a histogram whose bins do not sum to 1 and a mean below 0 (issue #36's fake worker)", () => {
    const s = scenarios.find((x) => evaluateParsed(x).answer.histograms.length > 0)!;
    const local = evaluateParsed(s);
    const good = trip(encodeAnswer(local.answer)) as { histograms: string[][]; means: string[] };
    expect(readExactAnswer(good, local.layout)).toBeDefined();
    // Every bin 0: each is a probability, but no trial falls in any.
    expect(readExactAnswer({ ...good, histograms: good.histograms.map((h, i) => (i === 0 ? h.map(() => '0') : h)) }, local.layout)).toBeUndefined();
    expect(readExactAnswer({ ...good, means: good.means.map((m, i) => (i === 0 ? '-1' : m)) }, local.layout)).toBeUndefined();
  });

  it('is checked by the worker as a shard is: version, run id and the scenario as the CLI checks it', () => {
    const good = exactJob('0f-3', scenarios[0]!);
    expect(refuseJob(EXACT_JOB, good)).toBeUndefined();
    expect(refuseJob(EXACT_JOB, { ...good, version: '0.0.1' })).toMatch(/run workers of the submitter's version/);
    expect(refuseJob(EXACT_JOB, { ...good, runId: 'x y' })).toMatch(/not a run id/);
    expect(refuseJob(EXACT_JOB, { ...good, scenario: { ...good.scenario, system: 'chess' } })).toMatch(/not solved exactly by this worker/);
    expect(refuseJob(EXACT_JOB, { ...good, scenario: { ...good.scenario, injuryDice: 1e9 } })).toMatch(/does not pass this worker's checks: injuryDice/);
    expect(refuseJob('mine', good)).toMatch(/runs only shard and exact jobs/);
  });
});
