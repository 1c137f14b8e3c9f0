import { type Fraction, fraction, gcd, lcm } from './fraction.js';

export type Outcome = number | string;

/**
 * An immutable discrete distribution: outcome -> whole-number weight. The probability of an outcome is
 * its weight over the total weight (the common denominator), so nothing is ever rounded.
 * Modelled on icepool's Die: every operation returns a new distribution.
 */
export class Dist<T extends Outcome = number> {
  readonly weights: ReadonlyMap<T, bigint>;
  readonly total: bigint;

  constructor(weights: Iterable<readonly [T, bigint]>) {
    const m = new Map<T, bigint>();
    let total = 0n;
    for (const [k, w] of weights) {
      if (w < 0n) throw new RangeError('negative weight');
      if (w === 0n) continue;
      m.set(k, (m.get(k) ?? 0n) + w);
      total += w;
    }
    if (total === 0n) throw new RangeError('empty distribution');
    this.weights = m;
    this.total = total;
  }

  /** One outcome with certainty. */
  static constant<T extends Outcome>(value: T): Dist<T> {
    return new Dist([[value, 1n]]);
  }

  /** A fair die with faces 1..sides. */
  static die(sides: number): Dist<number> {
    const entries: [number, bigint][] = [];
    for (let f = 1; f <= sides; f++) entries.push([f, 1n]);
    return new Dist(entries);
  }

  /**
   * Weighted mixture: pick a branch with probability weight/sum(weights), then an outcome from its
   * distribution (e.g. "if the hit was critical use this injury roll, else that one"). Branches are
   * brought to a common denominator first, so the result stays exact.
   */
  static mixture<T extends Outcome>(branches: readonly { weight: bigint; dist: Dist<T> }[]): Dist<T> {
    let common = 1n;
    for (const b of branches) if (b.weight > 0n) common = lcm(common, b.dist.total);
    const out: [T, bigint][] = [];
    for (const b of branches) {
      if (b.weight === 0n) continue;
      const scale = b.weight * (common / b.dist.total);
      for (const [k, w] of b.dist.weights) out.push([k, w * scale]);
    }
    return new Dist(out).reduced();
  }

  /** Divide every weight by their common factor; probabilities are unchanged. */
  reduced(): Dist<T> {
    let g = 0n;
    for (const w of this.weights.values()) g = gcd(g, w);
    if (g <= 1n) return this;
    const out: [T, bigint][] = [];
    for (const [k, w] of this.weights) out.push([k, w / g]);
    return new Dist(out);
  }

  weight(outcome: T): bigint {
    return this.weights.get(outcome) ?? 0n;
  }

  probability(outcome: T): Fraction {
    return fraction(this.weight(outcome), this.total);
  }

  /** Probability that the outcome satisfies the predicate. */
  probabilityWhere(pred: (outcome: T) => boolean): Fraction {
    let w = 0n;
    for (const [k, v] of this.weights) if (pred(k)) w += v;
    return fraction(w, this.total);
  }

  /** Relabel outcomes; outcomes that map to the same label merge. */
  map<U extends Outcome>(f: (outcome: T) => U): Dist<U> {
    const out: [U, bigint][] = [];
    for (const [k, w] of this.weights) out.push([f(k), w]);
    return new Dist(out);
  }

  /** Replace each outcome by a distribution that depends on it (a two-stage experiment). */
  flatMap<U extends Outcome>(f: (outcome: T) => Dist<U>): Dist<U> {
    const branches: { weight: bigint; dist: Dist<U> }[] = [];
    for (const [k, w] of this.weights) branches.push({ weight: w, dist: f(k) });
    return Dist.mixture(branches);
  }

  /** Distribution of the sum of independent draws from this and other. */
  plus(this: Dist<number>, other: Dist<number>): Dist<number> {
    const out = new Map<number, bigint>();
    for (const [a, wa] of this.weights)
      for (const [b, wb] of other.weights) out.set(a + b, (out.get(a + b) ?? 0n) + wa * wb);
    return new Dist(out);
  }

  /** Add a constant to every outcome. */
  shift(this: Dist<number>, by: number): Dist<number> {
    return this.map((k) => k + by);
  }

  /** Expected value of a numeric function of the outcome, exactly. */
  expectation(f: (outcome: T) => bigint | number): Fraction {
    let s = 0n;
    for (const [k, w] of this.weights) s += BigInt(f(k)) * w;
    return fraction(s, this.total);
  }
}
