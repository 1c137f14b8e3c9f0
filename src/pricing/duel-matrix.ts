import { parseScenario } from '../input/scenario.js';
import { evaluateParsed } from '../exact-result.js';
import { type Fraction, ONE, add, fraction, mul, sub, toNumber } from '../exact/fraction.js';
import { DEFAULT_ROUNDS, DUEL_KIND, DUEL_OUTCOMES } from '../rules/duel-report.js';
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
 * Every duel is evaluated exactly, in this thread (evaluateExact's path: parse, then the exact engine);
 * the fractions are kept for a caller to show, the doubles are what the fit takes. No I/O but what
 * parseScenario reads: the profiles (roster, catalogue) file a base scenario names.
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

/**
 * Evaluates every pair of the field both ways round and returns the win matrix. Each entry's side is
 * checked once first (a message names the entry), so no duel is evaluated for a field with a bad side.
 */
export function duelMatrix(entries: readonly DuelEntry[], options: DuelMatrixOptions = {}): DuelMatrix {
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

  // The boundary: the duel-level fields once, then each side once, against a default opponent.
  const checked = parseScenario({ ...duelBase, a: { policy: defaultPolicy }, b: { policy: defaultPolicy } }, 'duels');
  for (const entry of entries) parseScenario({ ...duelBase, a: sideOf(entry), b: { policy: defaultPolicy } }, `entry ${showValue(entry.name)}`);

  const n = entries.length;
  const total = n * (n - 1);
  let done = 0;
  const duel = (a: DuelEntry, b: DuelEntry, first: 'a' | 'b'): DuelOrderResult => {
    const scenario = parseScenario({ ...duelBase, first, a: sideOf(a), b: sideOf(b) }, `duel ${showValue(a.name)} against ${showValue(b.name)}`);
    const result = evaluateParsed(scenario);
    const at = (id: (typeof DUEL_OUTCOMES)[number]) => result.answer.outcomes[result.layout.outcomes.indexOf(id)]!;
    done += 1;
    options.onProgress?.(done, total);
    return { first, aWins: at('a-wins'), bWins: at('b-wins'), undecided: at('undecided') };
  };
  /** P(a wins) + P(undecided) / 2: a's share of one duel. */
  const shareOfA = (d: DuelOrderResult) => add(d.aWins, mul(d.undecided, HALF));

  const wins: (number | undefined)[][] = entries.map(() => entries.map(() => undefined));
  const pairs: PairDuels[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const aFirst = duel(entries[i]!, entries[j]!, 'a');
      const bFirst = duel(entries[i]!, entries[j]!, 'b');
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
    scenario: { ...duelBase, system: checked.system, edition: checked.edition, first: ['a', 'b'] },
    defaultPolicy,
  };
}
