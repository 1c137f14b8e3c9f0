/** The duel's exact answer over its layout (./layout.ts), from the chain (./chain.ts). */
import { type Fraction, ONE, ZERO, formatFraction, sub, toNumber } from '../../../exact/fraction.js';
import type { ExactAnswer } from '../../../model/types.js';
import { duelExact } from './chain.js';
import { solveOptimalDuel } from './optimal.js';
import type { DuelPlan } from './plan.js';

/** The exact answer; `heading` (the duel described, ./sides.ts) goes first in its notes. */
export function duelAnswer(plan: DuelPlan, heading?: string): ExactAnswer {
  const optimal = plan.a.policy === 'optimal' || plan.b.policy === 'optimal' ? solveOptimalDuel(plan) : undefined;
  const r = duelExact(plan, optimal?.decisions);
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
    extra: {
      decidedWithin: r.decidedWithin.map((d) => ({ round: d.round, aWins: shown(d.aWins), bWins: shown(d.bWins) })),
      markersSpent: { a: { injury: shown(r.spent.a.injury), hinder: shown(r.spent.a.hinder) }, b: { injury: shown(r.spent.b.injury), hinder: shown(r.spent.b.hinder) } },
    },
    notes: [
      ...(heading ? [heading] : []),
      ...(optimal
        ? [
            `Optimal spending (${[plan.a.policy === 'optimal' ? 'a' : '', plan.b.policy === 'optimal' ? 'b' : ''].filter(Boolean).join(' and ')}): P(a wins) - P(b wins) = ${(toNumber(sub(r.aWins, r.bWins)) * 100).toFixed(4)} points exactly under the decisions found (the search's doubles: ${(optimal.value * 100).toFixed(4)})`,
            ...(['a', 'b'] as const).map(
              (k) =>
                `${k} (${plan[k].policy}) spends on average ${toNumber(r.spent[k].injury).toFixed(3)} markers on its injury rolls (Bloodbaths included) and ${toNumber(r.spent[k].hinder).toFixed(3)} hindering ${k === 'a' ? 'b' : 'a'}`,
            ),
          ]
        : []),
    ],
  };
}
