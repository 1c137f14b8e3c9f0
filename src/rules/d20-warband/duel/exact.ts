/** The d20 duel's exact answer over the duel layout (../../duel-report.ts), from the chain (./chain.ts). */
import type { ExactAnswer } from '../../../model/types.js';
import { duelResultAnswer } from '../../duel-report.js';
import { d20DuelExact } from './chain.js';
import type { D20DuelPlan } from './plan.js';

export function d20DuelAnswer(plan: D20DuelPlan): ExactAnswer {
  const notes = [
    `${plan.rounds} round${plan.rounds === 1 ? '' : 's'}, ${plan.first} first; a turn: Upkeep (Stunned to Dazed, Dazed to Staggered), the attack action unless Dazed, end of turn (Staggered clears)`,
    'A Staggered unit attacks with disadvantage; wounds never come back; explosions summed exactly: error 0',
  ];
  for (const key of ['a', 'b'] as const) {
    const ledge = plan[key].ledge;
    if (ledge) notes.push(`${key} fights by a ledge of ${ledge.heightInches}": left Dazed or Stunned, it makes an Agility Check (${ledge.agility}+) or Falls`);
  }
  return duelResultAnswer(d20DuelExact(plan), notes);
}
