/** The duel's exact answer over its layout (./layout.ts), from the chain (./chain.ts). */
import { type Fraction, ONE, ZERO, formatFraction, sub, toNumber } from '../../../exact/fraction.js';
import type { ExactAnswer } from '../../../model/types.js';
import { duelExact } from './chain.js';
import type { DuelPlan } from './plan.js';

export function duelAnswer(plan: DuelPlan): ExactAnswer {
  const r = duelExact(plan);
  // The round each side won in: the differences of the running sums, then "not won".
  const wonIn = (cumulative: readonly Fraction[], total: Fraction): Fraction[] => {
    const bins: Fraction[] = [];
    let before = ZERO;
    for (const c of cumulative) {
      bins.push(sub(c, before));
      before = c;
    }
    bins.push(sub(ONE, total));
    return bins;
  };
  const shown = (f: Fraction) => ({ probability: toNumber(f), exact: formatFraction(f) });
  return {
    outcomes: [r.aWins, r.bWins, r.undecided],
    means: [r.expectedActivations],
    histograms: [wonIn(r.decidedWithin.map((d) => d.aWins), r.aWins), wonIn(r.decidedWithin.map((d) => d.bWins), r.bWins)],
    extra: { decidedWithin: r.decidedWithin.map((d) => ({ round: d.round, aWins: shown(d.aWins), bWins: shown(d.bWins) })) },
  };
}
