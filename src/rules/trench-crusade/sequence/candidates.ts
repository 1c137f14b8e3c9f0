/**
 * The finite-horizon search's choice among the options of one decision: in doubles, which is fast, and
 * in exact arithmetic whenever the doubles cannot tell two options apart.
 *
 * Three facts keep the exact comparisons rare and cheap. Values never get worse with more markers on the
 * target (the attacker can always leave the extra ones unspent), so of two options with the same outcome
 * probabilities the one that spends fewer markers is at least as good. An option whose every outcome
 * leads where Out of Action is impossible (or certain) has survival exactly 1 (or 0), known without
 * arithmetic. And every probability is a count over a power of six, so exact values are num / 6^exp
 * (../../../exact/pow6.ts) and need no gcd. Exact ties go to the option that spends the fewest markers.
 */
import { type Pow6, p6Compare } from '../../../exact/pow6.js';
import { sameRow } from './injury-options.js';
import type { Row } from './model.js';

/**
 * Relative gap below which two doubles are settled exactly. A survival chance is a sum of products of
 * non-negative terms; each probability carries at most 3 roundings (toNumber), each stage adds at most
 * 14 more (four products and sums per injury roll, three per attack), so after 50 stages the relative
 * error is under 700 * 2^-53 < 8e-14, and two values 1e-12 apart are apart in exact arithmetic too.
 */
const REL = 1e-12;
/** Survival chances this small may have lost relative precision to underflow; settle them exactly. */
const TINY = 1e-250;

/**
 * Candidates of one decision, in typed arrays reused across the whole search (no allocation per
 * decision): the double value (survival chance) and the two facts known exactly about it.
 */
export class Candidates {
  w = new Float64Array(16);
  canOut = new Uint8Array(16);
  canSurvive = new Uint8Array(16);
  count = 0;
  private near: number[] = [];

  reset(size: number): void {
    if (this.w.length < size) {
      this.w = new Float64Array(size * 2);
      this.canOut = new Uint8Array(size * 2);
      this.canSurvive = new Uint8Array(size * 2);
    }
    this.count = 0;
  }

  push(w: number, canOut: boolean, canSurvive: boolean): void {
    const i = this.count++;
    this.w[i] = w;
    this.canOut[i] = canOut ? 1 : 0;
    this.canSurvive[i] = canSurvive ? 1 : 0;
  }

  /**
   * The candidate of least survival chance (candidates come cheapest first). Doubles decide unless two
   * are within REL of each other; then the exact facts, dominance and `exact` (survival as num / 6^exp)
   * decide, exact ties going to the cheapest.
   */
  pick(rowOf: (i: number) => Row, exact: (i: number) => Pow6): number {
    const n = this.count;
    // Survival impossible: exactly 0, the least there is.
    for (let i = 0; i < n; i++) if (this.canSurvive[i] === 0) return i;
    let best = Infinity;
    for (let i = 0; i < n; i++) if (this.w[i]! < best) best = this.w[i]!;
    const bound = best * (1 + REL) + TINY;
    let first = -1;
    let nearCount = 0;
    for (let i = 0; i < n; i++) if (this.w[i]! <= bound) (nearCount++, first < 0 && (first = i));
    if (nearCount === 1) return first;
    let near = this.near;
    near.length = 0;
    for (let i = 0; i < n; i++) if (this.w[i]! <= bound) near.push(i);
    // Out of Action impossible: survival exactly 1, worse than any candidate where it can happen.
    if (!near.some((i) => this.canOut[i] === 1)) return near[0]!;
    near = near.filter((i) => this.canOut[i] === 1);
    const kept: number[] = [];
    for (const i of near) if (!kept.some((k) => sameRow(rowOf(k), rowOf(i)))) kept.push(i);
    if (kept.length === 1) return kept[0]!;
    let chosen = kept[0]!;
    let bestExact = exact(chosen);
    for (let j = 1; j < kept.length; j++) {
      const v = exact(kept[j]!);
      if (p6Compare(v, bestExact) < 0) {
        bestExact = v;
        chosen = kept[j]!;
      }
    }
    return chosen;
  }
}
