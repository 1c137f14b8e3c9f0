import { type ScenarioFiles, diskScenarioFiles, parseScenarioWith } from '../input/scenario.js';
import { type DuelChances, type ExactSolver, duelChancesOf, evaluateParsed, threadSolver } from '../exact-result.js';
import type { Scenario } from '../model/types.js';
import { type Fraction, ONE, add, fraction, mul, sub, toNumber } from '../exact/fraction.js';
import { DEFAULT_ROUNDS, DUEL_KIND } from '../rules/duel-report.js';
import { notAllowed, refusal } from '../messages.js';
import { showValue } from '../errors.js';
import type { WinMatrix } from './bradley-terry.js';

/**
 * The pairwise matrix of exact duels a field is rated by (issue 40, part 2): every entry of the field
 * meets every other in the duel kind (docs/rules.md D1-D8), and w_ij, i's share of its duel against
 * j, is what src/pricing/bradley-terry.ts fits.
 *
 * Assumptions, each stated where the numbers are read:
 * - One on one: a pair's duel is the duel kind with i as side `a` and j as side `b`, nothing else on
 *   the table; a side is a duel side's fields as a scenario's `a` or `b` takes them.
 * - Who goes first is no entry's merit: each pair is evaluated exactly twice, once with `first: 'a'`
 *   and once with `first: 'b'`, and the two are averaged (each order equally likely).
 * - An undecided duel (both still standing after `rounds`) counts half to each side, so
 *   w_ij = mean over the two orders of [P(i wins) + P(undecided) / 2] and w_ji = 1 - w_ij exactly.
 *
 * Every duel is parsed here (evaluateExact's path: parse, then the exact engine) and solved exactly,
 * either in this thread (duelMatrix) or by an ExactSolver (solveDuelMatrix: the CLI's exact threads or
 * a queue's hosts, as sweeps solve their cells). Both share one plan of the duels and one assembly of
 * their answers, so the matrix is the same fractions whoever solves it. The fractions are kept for a
 * caller to show, the doubles are what the fit takes. No I/O but what parseScenario reads: the
 * profiles (roster, catalogue) file a base scenario names.
 */

/** One entry of the field: a duel side with a name and, where known, its price. */
export interface DuelEntry {
  readonly name: string;
  /**
   * The side's fields as a duel's `a` or `b` takes them: `{ armour: 'machine', tough: true }`, or with
   * a profiles file in the base scenario `{ model: 'Shield Bearer', weapon: 'Great Hammer' }`.
   */
  readonly side: Readonly<Record<string, unknown>>;
  /** The current price (ducats, points); undefined for an entry not priced yet. */
  readonly price?: number;
}

export interface DuelMatrixOptions {
  /**
   * Duel-level fields every duel shares: `system`, `edition`, `profiles` (a file whose models and
   * weapons the sides may name), rule options. `kind`, `first`, `a` and `b` are set here.
   */
  readonly base?: Readonly<Record<string, unknown>>;
  /** Rounds of each duel; still on after them it is undecided. Default DEFAULT_ROUNDS (10), the duel kind's own default. */
  readonly rounds?: number;
  /** The edition; default the base's, else the system's default edition. */
  readonly edition?: string;
  /**
   * What both sides do with blood markers (none, injury, hinder, optimal). Default 'none': markers
   * are placed but not spent, as the duel kind's own default. A side's own `policy` field wins.
   */
  readonly policy?: string;
  /** What an `optimal` side plays for (margin, win); read only when a side's policy is optimal. Default: the duel kind's (margin). */
  readonly objective?: string;
  /** Called after each duel evaluated: `done` of `total` (two per pair, n(n-1) in all). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** One duel of a pair, exactly: side a is the earlier entry of the field. */
export interface DuelOrderResult {
  readonly first: 'a' | 'b';
  readonly aWins: Fraction;
  readonly bWins: Fraction;
  readonly undecided: Fraction;
}

/** A played pair i < j: both duels and the share they give. */
export interface PairDuels {
  readonly i: number;
  readonly j: number;
  /** The duel with a (entry i) first, and the one with b (entry j) first. */
  readonly aFirst: DuelOrderResult;
  readonly bFirst: DuelOrderResult;
  /** w_ij exactly: i's share, averaged over the two orders, undecided counting half. w_ji is 1 - share. */
  readonly share: Fraction;
}

export interface DuelMatrix {
  readonly names: readonly string[];
  readonly prices: readonly (number | undefined)[];
  /** For fitBradleyTerry: wins[i][j] = w_ij as a double; the diagonal undefined. */
  readonly wins: WinMatrix;
  /** Every pair i < j, in field order (i, then j). */
  readonly pairs: readonly PairDuels[];
  /**
   * The duel-level fields every duel was evaluated with (system and edition resolved, `first` both
   * ways), and the policy sides got when they named none: what the verdicts rest on.
   */
  readonly scenario: Readonly<Record<string, unknown>>;
  readonly defaultPolicy: string;
}

/** The field's default policy: markers placed but not spent, so a side is rated for its body and weapon alone. */
export const DEFAULT_FIELD_POLICY = 'none';

const HALF = fraction(1, 2);

/** The field's duels, checked and ready to solve, and what the matrix is assembled from. */
interface DuelPlan {
  readonly entries: readonly DuelEntry[];
  readonly duelBase: Readonly<Record<string, unknown>>;
  readonly defaultPolicy: string;
  /** The duel-level fields as checked: the system and edition every duel resolved to. */
  readonly checked: Scenario;
  /** Duels in all: two per pair, n(n-1). */
  readonly total: number;
  /**
   * Every duel, parsed as it is asked for (a field of a hundred entries has ten thousand): pair (i, j)
   * with i < j in field order, first the duel with a (entry i) first, then the one with b first.
   * Duel k belongs to pair k >> 1 of that order.
   */
  duels(): Generator<Scenario>;
}

/**
 * Checks the field and the duel-level fields, each entry's side once against a default opponent (a
 * message names the entry), so no duel is solved for a field with a bad side.
 */
function planDuels(entries: readonly DuelEntry[], options: DuelMatrixOptions): DuelPlan {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.name)) throw refusal('field', `${showValue(entry.name)} is named twice`, 'allowed: one entry per name');
    seen.add(entry.name);
    if (entry.price !== undefined && !(Number.isFinite(entry.price) && entry.price > 0)) {
      throw notAllowed(`entry ${showValue(entry.name)}: price`, entry.price, 'a number above 0, or none');
    }
  }
  const defaultPolicy = options.policy ?? DEFAULT_FIELD_POLICY;
  const duelBase: Record<string, unknown> = {
    ...options.base,
    kind: DUEL_KIND,
    rounds: options.rounds ?? DEFAULT_ROUNDS,
    ...(options.edition !== undefined ? { edition: options.edition } : {}),
    ...(options.objective !== undefined ? { objective: options.objective } : {}),
  };
  const sideOf = (entry: DuelEntry) => ({ policy: defaultPolicy, ...entry.side });
  // Every duel names the same profiles (or variant) file: read once for the field, not once per duel
  // (reading and checking it cost more than solving a duel), so every duel also sees the same contents.
  const files = filesReadOnce(diskScenarioFiles);
  const parseScenario = (raw: unknown, origin: string) => parseScenarioWith(raw, files, origin);

  // The boundary: the duel-level fields once, then each side once, against a default opponent.
  const checked = parseScenario({ ...duelBase, a: { policy: defaultPolicy }, b: { policy: defaultPolicy } }, 'duels');
  for (const entry of entries) parseScenario({ ...duelBase, a: sideOf(entry), b: { policy: defaultPolicy } }, `entry ${showValue(entry.name)}`);

  const n = entries.length;
  function* duels(): Generator<Scenario> {
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const a = entries[i]!;
        const b = entries[j]!;
        for (const first of ['a', 'b'] as const) {
          yield parseScenario({ ...duelBase, first, a: sideOf(a), b: sideOf(b) }, `duel ${showValue(a.name)} against ${showValue(b.name)}`);
        }
      }
    }
  }
  return { entries, duelBase, defaultPolicy, checked, total: n * (n - 1), duels };
}

/** `files`, with each profiles or variant file read on first use and kept (rosters and catalogues are already read once per process). */
function filesReadOnce(files: ScenarioFiles): ScenarioFiles {
  const once = <T>(read: (path: string) => T): ((path: string) => T) => {
    const kept = new Map<string, T>();
    return (path) => {
      if (!kept.has(path)) kept.set(path, read(path));
      return kept.get(path)!;
    };
  };
  return { ...files, profiles: once(files.profiles), variant: once(files.variant) };
}

/** P(a wins) + P(undecided) / 2: a's share of one duel. */
const shareOfA = (d: DuelOrderResult) => add(d.aWins, mul(d.undecided, HALF));

/** The matrix from every duel's chances, in the plan's order (duels 2p and 2p + 1 are pair p's, a first then b first). */
function matrixOf(plan: DuelPlan, answers: readonly DuelChances[]): DuelMatrix {
  const { entries } = plan;
  const n = entries.length;
  const orderOf = (chances: DuelChances, first: 'a' | 'b'): DuelOrderResult => ({ first, ...chances });
  const wins: (number | undefined)[][] = entries.map(() => entries.map(() => undefined));
  const pairs: PairDuels[] = [];
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const aFirst = orderOf(answers[k]!, 'a');
      const bFirst = orderOf(answers[k + 1]!, 'b');
      k += 2;
      const share = mul(add(shareOfA(aFirst), shareOfA(bFirst)), HALF);
      pairs.push({ i, j, aFirst, bFirst, share });
      wins[i]![j] = toNumber(share);
      wins[j]![i] = toNumber(sub(ONE, share));
    }
  }
  return {
    names: entries.map((e) => e.name),
    prices: entries.map((e) => e.price),
    wins,
    pairs,
    scenario: { ...plan.duelBase, system: plan.checked.system, edition: plan.checked.edition, first: ['a', 'b'] },
    defaultPolicy: plan.defaultPolicy,
  };
}

/**
 * Evaluates every pair of the field both ways round, in this thread, and returns the win matrix. Each
 * entry's side is checked once first (a message names the entry), so no duel is evaluated for a field
 * with a bad side.
 */
export function duelMatrix(entries: readonly DuelEntry[], options: DuelMatrixOptions = {}): DuelMatrix {
  const plan = planDuels(entries, options);
  const answers: DuelChances[] = [];
  for (const scenario of plan.duels()) {
    answers.push(duelChancesOf(evaluateParsed(scenario)));
    options.onProgress?.(answers.length, plan.total);
  }
  return matrixOf(plan, answers);
}

export interface SolveDuelMatrixOptions extends DuelMatrixOptions {
  /**
   * What solves the duels: the CLI's exact threads (src/pool/exact.ts), a queue's hosts; default this
   * thread (threadSolver). A solver with duelBatches is handed them that many at a time, others one by one.
   */
  readonly solver?: ExactSolver;
  /** Stops the run: no further duel is handed over, and the solver abandons those it holds. */
  readonly signal?: AbortSignal;
  /**
   * At most this many duels with the solver at a time (default DUELS_AT_ONCE), rounded up to whole
   * batches for a solver that takes them so. The exact threads solve as many as they have threads: a
   * limit of k keeps k of them busy.
   */
  readonly atOnce?: number;
}

/**
 * Duels with a solver at once by default: enough to keep a queue's many hosts busy, few enough that
 * this thread parses the next duels between answers (a Ctrl-C is heard within a few hundred duels'
 * parsing, not after a whole field's) and holds only so many parsed scenarios.
 */
export const DUELS_AT_ONCE = 256;

/**
 * The same matrix as duelMatrix, every duel solved by `solver`, side by side (progress counts duels as
 * they are solved, in any order). The first failure stops the handing over of duels and is what
 * rejects; an abort of `signal` rejects with its reason.
 */
export async function solveDuelMatrix(entries: readonly DuelEntry[], options: SolveDuelMatrixOptions = {}): Promise<DuelMatrix> {
  const plan = planDuels(entries, options);
  const solver = options.solver ?? threadSolver;
  const { signal } = options;
  const atOnce = options.atOnce ?? DUELS_AT_ONCE;
  if (!(Number.isInteger(atOnce) && atOnce >= 1)) throw notAllowed('atOnce', atOnce, 'a whole number from 1');
  const batches = solver.duelBatches;
  const perBatch = batches?.perBatch ?? 1;
  const solveBatch = batches
    ? (duels: readonly Scenario[]) => batches.solve(duels, signal)
    : async (duels: readonly Scenario[]) => [duelChancesOf(await solver.solve(duels[0]!, signal))];
  const answers: DuelChances[] = new Array(plan.total);
  const duels = plan.duels();
  let next = 0;
  let solved = 0;
  let failed = false;
  // Each lane takes the next batch when its last is solved: the order of the answers is the plan's
  // whatever order they are solved in.
  const lane = async (): Promise<void> => {
    try {
      while (!failed) {
        signal?.throwIfAborted();
        const batch: Scenario[] = [];
        while (batch.length < perBatch) {
          const duel = duels.next();
          if (duel.done) break;
          batch.push(duel.value);
        }
        if (batch.length === 0) return;
        const first = next;
        next += batch.length;
        const chances = await solveBatch(batch);
        for (let i = 0; i < batch.length; i++) answers[first + i] = chances[i]!;
        solved += batch.length;
        options.onProgress?.(solved, plan.total);
      }
    } catch (err) {
      failed = true;
      throw err;
    }
  };
  const lanes = Math.min(Math.ceil(atOnce / perBatch), Math.ceil(plan.total / perBatch));
  await Promise.all(Array.from({ length: lanes }, lane));
  return matrixOf(plan, answers);
}
