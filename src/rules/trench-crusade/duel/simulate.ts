/**
 * The duel simulator: each trial is played as players would play it, activation by activation, every
 * die rolled by the sequence simulator's attack roller (../sequence/attack-roller.ts), one roller per
 * direction of attack. It shares the rule table with the exact chain and nothing else.
 */
import type { SimKernel } from '../../../model/types.js';
import { AttackRoller } from '../sequence/attack-roller.js';
import { markerCapOf, riskyStrings } from '../sequence/rules.js';
import { A_WINS, B_WINS, UNDECIDED, duelTallyCounter } from '../../duel-report.js';
import { type DuelPlan, type DuelSide, hinders, ledgeFall } from './plan.js';
import { fallRoller } from '../simulate.js';
import { STAGE_ATTACKS } from './chain.js';
import { type OptimalDuel, solveOptimalDuel } from './optimal.js';
import { stateIndex } from '../sequence/model.js';

/**
 * The optimal decisions per plan, kept in the worker: a worker compiles the kernel once per task and
 * the search takes up to a second or two. Under `optimal` the simulator looks its decisions up there: a
 * policy (what to spend in which state), never a probability, so a mistake in the exact chain's
 * probabilities still shows in `check`.
 */
const optimalByPlan = new Map<string, OptimalDuel>();
function optimalOf(plan: DuelPlan): OptimalDuel {
  const key = JSON.stringify(plan);
  let o = optimalByPlan.get(key);
  if (!o) {
    o = solveOptimalDuel(plan);
    if (optimalByPlan.size >= 8) optimalByPlan.clear();
    optimalByPlan.set(key, o);
  }
  return o;
}

/**
 * The roller of one side's attacks: its weapon on the other's body, by the other's ledge if it has one;
 * `injury` spends every marker on each injury roll.
 */
function rollerOf(side: DuelSide, target: DuelSide): AttackRoller {
  const roller = new AttackRoller({ ...side.attacking, policy: side.policy === 'injury' ? 'all' : 'none' });
  return target.ledgeInches > 0 ? roller.byLedge(fallRoller(ledgeFall(side.attacking, target.ledgeInches))) : roller;
}

export function duelSimulator(plan: DuelPlan): SimKernel {
  const count = duelTallyCounter(plan.rounds);
  const rounds = plan.rounds;

  // aOnB rolls a's attacks and holds b's body; bOnA the other way round.
  const aOnB = rollerOf(plan.a, plan.b);
  const bOnA = rollerOf(plan.b, plan.a);
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
  const optimal = plan.a.policy === 'optimal' || plan.b.policy === 'optimal' ? optimalOf(plan) : undefined;
  const aDicePerMarker = plan.a.attacking.rules.markers.ownRollDicePerMarker;
  const bDicePerMarker = plan.b.attacking.rules.markers.ownRollDicePerMarker;

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
              let hindered = 0;
              let hitCode = -1;
              let critCode = -1;
              if (optimal) {
                // Both sides' decisions from the tables: the hindering after standing up, then the injury choices.
                const stage = (2 * (round - 1) + turn) * STAGE_ATTACKS + k;
                const h = optimal.hinderAt(stage, stateIndex(bOnA.m, bOnA.d, bOnA.tl, bOnA.bl), stateIndex(aOnB.m, aOnB.d, aOnB.tl, aOnB.bl));
                body.m -= h;
                hindered = h * (aActs ? aDicePerMarker : bDicePerMarker);
                const aIdx = stateIndex(bOnA.m, bOnA.d, bOnA.tl, bOnA.bl);
                const bIdx = stateIndex(aOnB.m, aOnB.d, aOnB.tl, aOnB.bl);
                hitCode = optimal.injuryAt(stage, aIdx, bIdx, 0);
                critCode = optimal.injuryAt(stage, aIdx, bIdx, 1);
              } else if (perMarker > 0 && body.m > 0) {
                // The opponent spends every marker on the attacker against its success roll.
                hindered = body.m * perMarker;
                body.m = 0;
              }
              if (attacker.attack(rng, cap, undefined, 0, hindered, hitCode, critCode)) {
                winner = aActs ? A_WINS : B_WINS;
                break;
              }
              // A RISKY string's miss ends the activation.
              if (risky && attacker.missed) break;
            }
          }
        }
        // round has moved one past the round the duel was decided in.
        count(tally, winner, round - 1, activations);
      }
    },
  };
}
