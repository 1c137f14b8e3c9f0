/**
 * The duel simulator: each trial is played as players would play it, activation by activation, every
 * die rolled by the sequence simulator's attack roller (../sequence/attack-roller.ts), one roller per
 * direction of attack. It shares the rule table with the exact chain and nothing else.
 */
import type { SimKernel } from '../../../model/types.js';
import { histogramOffset, meanOffset, tallyOffsets } from '../../../model/tally.js';
import { AttackRoller } from '../sequence/attack-roller.js';
import { markerCapOf, riskyStrings } from '../sequence/rules.js';
import { A_WINS, A_WON_IN, B_WINS, B_WON_IN, UNDECIDED, activationsMean, duelLayout } from './layout.js';
import { type DuelPlan, type DuelSide, hinders } from './plan.js';

/** The roller of one side's attacks: its weapon on the other's body; `injury` spends every marker on each injury roll. */
const rollerOf = (side: DuelSide) => new AttackRoller({ ...side.attacking, policy: side.policy === 'injury' ? 'all' : 'none' });

export function duelSimulator(plan: DuelPlan): SimKernel {
  const layout = duelLayout(plan.rounds);
  const outcomesAt = tallyOffsets(layout).outcomes;
  const activationsAt = meanOffset(layout, activationsMean.id);
  const aWonAt = histogramOffset(layout, A_WON_IN);
  const bWonAt = histogramOffset(layout, B_WON_IN);
  const rounds = plan.rounds;

  // aOnB rolls a's attacks and holds b's body; bOnA the other way round.
  const aOnB = rollerOf(plan.a);
  const bOnA = rollerOf(plan.b);
  const aFirst = plan.first === 'a';
  const aPer = plan.a.attacksPerActivation;
  const bPer = plan.b.attacksPerActivation;
  const aRisky = riskyStrings(plan.a.attacking);
  const bRisky = riskyStrings(plan.b.attacking);
  // Each roller's target carries at most its own cap.
  const aCap = markerCapOf(plan.a.attacking.markerCap);
  const bCap = markerCapOf(plan.b.attacking.markerCap);
  // Dice per marker the opponent spends against a side's success roll, 0 when it does not hinder.
  const aHindered = hinders(plan.b, plan.a) ? plan.a.attacking.rules.markers.ownRollDicePerMarker : 0;
  const bHindered = hinders(plan.a, plan.b) ? plan.b.attacking.rules.markers.ownRollDicePerMarker : 0;
  const aStart = plan.b.attacking.bloodMarkers;
  const bStart = plan.a.attacking.bloodMarkers;

  return {
    run(rng, trials, tally) {
      for (let t = 0; t < trials; t++) {
        bOnA.reset(aStart);
        aOnB.reset(bStart);
        let activations = 0;
        let winner = UNDECIDED;
        let round = 1;
        for (; round <= rounds && winner === UNDECIDED; round++) {
          for (let turn = 0; turn < 2 && winner === UNDECIDED; turn++) {
            const aActs = (turn === 0) === aFirst;
            // The attacker's roller, and the opponent's roller, which holds the attacker's body.
            const attacker = aActs ? aOnB : bOnA;
            const body = aActs ? bOnA : aOnB;
            const per = aActs ? aPer : bPer;
            const risky = aActs ? aRisky : bRisky;
            const cap = aActs ? aCap : bCap;
            const perMarker = aActs ? aHindered : bHindered;
            activations++;
            // It stands up (and REGENERATEs) at the start of its activation.
            body.newActivation();
            for (let k = 0; k < per; k++) {
              // The opponent spends every marker on the attacker against its success roll.
              let hindered = 0;
              if (perMarker > 0 && body.m > 0) {
                hindered = body.m * perMarker;
                body.m = 0;
              }
              if (attacker.attack(rng, cap, undefined, 0, hindered)) {
                winner = aActs ? A_WINS : B_WINS;
                break;
              }
              // A RISKY string's miss ends the activation.
              if (risky && attacker.missed) break;
            }
          }
        }
        tally[outcomesAt + winner]! += 1;
        tally[activationsAt]! += activations;
        tally[activationsAt + 1]! += activations * activations;
        // round has moved one past the round the duel was decided in.
        tally[aWonAt + (winner === A_WINS ? round - 2 : rounds)]! += 1;
        tally[bWonAt + (winner === B_WINS ? round - 2 : rounds)]! += 1;
      }
    },
  };
}
