import { describe, expect, it } from 'vitest';
import { duelChancesOf, evaluateParsed, exactResultOf } from '../src/exact-result.js';
import { parseScenario } from '../src/input/scenario.js';
import { DUELS_JOB, DUELS_PER_JOB, duelsJob, encodeAnswer, encodeDuelChances, EXACT_JOB, exactJob, readDuelChances, readExactAnswer, refuseJob } from '../src/queue/shards.js';

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
    expect(refuseJob('mine', good)).toMatch(/runs only shard, exact and duels jobs/);
  });
});

describe("a batch of a price field's duels through the queue", () => {
  const duels = [
    parseScenario({ kind: 'duel', rounds: 2, first: 'a', a: { armour: 'machine', tough: true }, b: { injuryDice: 3 } }),
    parseScenario({ kind: 'duel', rounds: 2, first: 'b', a: { armour: 'machine', tough: true }, b: { injuryDice: 3 } }),
  ];

  it("comes back as each duel's chances the local solve gives, and nothing else", () => {
    const local = duels.map((d) => duelChancesOf(evaluateParsed(d)));
    const sent = trip(encodeDuelChances(local));
    expect(sent).toEqual(local.map((c) => [c.aWins, c.bWins, c.undecided].map((f) => `${f.num}${f.den === 1n ? '' : `/${f.den}`}`)));
    expect(readDuelChances(sent, 2)).toEqual(local);
    expect(readDuelChances(JSON.stringify(sent), 2)).toEqual(local);
  });

  it('refuses chances that are not a batch this version gives', () => {
    const good = trip(encodeDuelChances(duels.map((d) => duelChancesOf(evaluateParsed(d))))) as string[][];
    const [a, b, u] = good[0]!;
    const bad: unknown[] = [
      null,
      'not json',
      good.slice(1), // a duel short
      [...good, good[0]], // a duel too many
      [[a, b], good[1]], // a chance short
      [[a, b, u, '0'], good[1]],
      [[unreduced(a!), b, u], good[1]],
      [['1', b, u], good[1]], // does not sum to 1
      [['2', '-1', '0'], good[1]], // sums to 1, a chance above 1
      [[0.5, b, u], good[1]],
      [[`${a}/0`, b, u], good[1]],
    ];
    for (const x of bad) expect(readDuelChances(x, 2), JSON.stringify(x)).toBeUndefined();
    expect(readDuelChances(good, 2)).toBeDefined();
  });

  it("is checked by the worker as an exact cell is, every duel of it, naming the duel that fails", () => {
    const good = duelsJob('0f-3', duels);
    expect(refuseJob(DUELS_JOB, good)).toBeUndefined();
    expect(refuseJob(DUELS_JOB, { ...good, version: '0.0.1' })).toMatch(/run workers of the submitter's version/);
    expect(refuseJob(DUELS_JOB, { ...good, runId: 'x y' })).toMatch(/not a run id/);
    expect(refuseJob(DUELS_JOB, { ...good, scenarios: 'all' })).toMatch(/scenarios are not a list of 1 to 32 duels \("all"\)/);
    expect(refuseJob(DUELS_JOB, { ...good, scenarios: [] })).toMatch(/not a list of 1 to 32 duels \(0 of them\)/);
    expect(refuseJob(DUELS_JOB, { ...good, scenarios: Array.from({ length: DUELS_PER_JOB + 1 }, () => duels[0]) })).toMatch(/\(33 of them\)/);
    const second = (s: unknown) => refuseJob(DUELS_JOB, { ...good, scenarios: [duels[0], s] });
    expect(second(null)).toBe('duel 2 of the 2 in the batch: the scenario is not an object');
    expect(second({ ...duels[1]!, rounds: 1e9 })).toMatch(/^duel 2 of the 2 in the batch: the scenario does not pass this worker's checks: .*rounds/);
    expect(second({ ...duels[1]!, system: 'chess' })).toMatch(/^duel 2 of the 2 in the batch: .*not solved exactly by this worker/);
    // An exact cell of another kind: its answer has no chances of a duel to read.
    expect(second(scenarios[0])).toBe('duel 2 of the 2 in the batch: the scenario is of kind "attack", not a duel');
    expect(second({ ...duels[1]!, a: [1, 2] })).toBe('duel 2 of the 2 in the batch: the scenario is not a plain object of fields and rules');
  });
});
