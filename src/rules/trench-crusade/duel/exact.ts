/** The Trench Crusade duel's exact answer: the shared duel report (../../duel-report.ts) from the chain (./chain.ts). */
import { formatFraction, sub, toNumber, type Fraction } from '../../../exact/fraction.js';
import type { ExactAnswer } from '../../../model/types.js';
import { duelResultAnswer } from '../../duel-report.js';
import { duelExact } from './chain.js';
import { solveOptimalDuel } from './optimal.js';
import type { DuelPlan } from './plan.js';
import type { DuelObjective } from './fields.js';

/**
 * What an optimal side plays for, said where its answer is printed: playing for the margin it may win
 * less often than a side that spends every marker on injury, and lose less often still (ruling D8).
 */
const OBJECTIVE_SAID: Readonly<Record<DuelObjective, string>> = {
  margin: 'playing for the margin P(win) - P(loss), an undecided duel worth half a win (objective margin, the default; objective win plays for the chance of winning alone)',
  win: 'playing for its own chance of winning alone, an undecided duel worth no more than a loss (objective win)',
};

/** The exact answer; `heading` (the duel described, ./sides.ts) goes first in its notes. */
export function duelAnswer(plan: DuelPlan, heading?: string): ExactAnswer {
  const optimal = plan.a.policy === 'optimal' || plan.b.policy === 'optimal' ? solveOptimalDuel(plan) : undefined;
  const r = duelExact(plan, optimal?.decisions);
  const shown = (f: Fraction) => ({ probability: toNumber(f), exact: formatFraction(f) });
  const notes = [
    ...(heading ? [heading] : []),
    ...(optimal
      ? [
          `Optimal spending (${[plan.a.policy === 'optimal' ? 'a' : '', plan.b.policy === 'optimal' ? 'b' : ''].filter(Boolean).join(' and ')}), ${OBJECTIVE_SAID[plan.objective]}: P(a wins) - P(b wins) = ${(toNumber(sub(r.aWins, r.bWins)) * 100).toFixed(4)} points exactly under the decisions found (the search's doubles: ${(optimal.value * 100).toFixed(4)})`,
          ...(['a', 'b'] as const).map(
            (k) =>
              `${k} (${plan[k].policy}) spends on average ${toNumber(r.spent[k].injury).toFixed(3)} markers on its injury rolls (Bloodbaths included) and ${toNumber(r.spent[k].hinder).toFixed(3)} hindering ${k === 'a' ? 'b' : 'a'}`,
          ),
        ]
      : []),
  ];
  const answer = duelResultAnswer(r, notes);
  const markersSpent = { a: { injury: shown(r.spent.a.injury), hinder: shown(r.spent.a.hinder) }, b: { injury: shown(r.spent.b.injury), hinder: shown(r.spent.b.hinder) } };
  return { ...answer, extra: { ...answer.extra, markersSpent } };
}
