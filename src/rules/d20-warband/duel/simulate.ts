/**
 * The d20 duel simulator: each trial is played as players would play it, turn by turn: the unit's
 * Upkeep, its attack action rolled die by die by the `attack` simulator's action (../simulate.ts,
 * attackActionOf: one per unit, and one more for it while Staggered), the ledge's Agility Check and Fall
 * rolled here, the end of its turn. It shares the rule table and the recovery rules (../sequence/rules.ts)
 * with the exact chain, and nothing else.
 */
import type { Dice, SimKernel } from '../../../model/types.js';
import { A_WINS, B_WINS, UNDECIDED, duelTallyCounter } from '../../duel-report.js';
import type { D20WarbandRules } from '../rule-spec.js';
import { type ActionTarget, type AttackAction, attackActionOf } from '../simulate.js';
import { DAZED, INCAPACITATED, STAGGERED, STATE_SEVERITY, STUNNED, type Severity } from '../tables.js';
import { endOfTurn, upkeep } from '../sequence/rules.js';
import type { D20DuelPlan, D20DuelSide, Ledge } from './plan.js';

/** A unit's ledge as the dice read it: does an Agility Check pass on this face, and which state a Fall's Injury Roll gives. */
interface LedgeDice {
  /** By face (1-20): 1 if the Agility Check passes. */
  readonly passes: Uint8Array;
  /** By face (1-20): the severity a Fall's Injury Roll of that face inflicts (0: no effect). */
  readonly fall: Uint8Array;
}

/** The ledge read into faces: a natural of naturalSuccessMin or more passes, one of naturalFailMax or less fails; a Fall adds +2 per full inch above 2". */
function ledgeDice(ledge: Ledge, rules: D20WarbandRules): LedgeDice {
  const passes = new Uint8Array(21);
  const fall = new Uint8Array(21);
  let add = 0;
  for (let inch = rules.fall.freeInches + 1; inch <= ledge.heightInches; inch++) add += rules.fall.modifierPerInch;
  const table = rules.injuryRollTable;
  for (let face = 1; face <= 20; face++) {
    passes[face] = face >= rules.naturalSuccessMin ? 1 : face <= rules.naturalFailMax ? 0 : face >= ledge.agility ? 1 : 0;
    const total = face + add;
    fall[face] = total >= table.incapacitated ? INCAPACITATED : total >= table.stunned ? STUNNED : total >= table.dazed ? DAZED : 0;
  }
  return { passes, fall };
}

/** One unit's attack actions on the other, fresh and Staggered, and the other's ledge. */
interface Striker {
  readonly action: AttackAction;
  readonly staggered: AttackAction;
  readonly staggerPersists: boolean;
  /** The other unit's ledge, if it has one. */
  readonly ledge: LedgeDice | undefined;
}

function strikerOf(side: D20DuelSide, other: D20DuelSide): Striker {
  return {
    action: attackActionOf(side.attacking),
    staggered: attackActionOf(side.attackingStaggered),
    staggerPersists: side.attacking.staggerPersists !== false,
    ledge: other.ledge ? ledgeDice(other.ledge, side.attacking.rules) : undefined,
  };
}

function d20(rng: Dice, disadvantage: boolean): number {
  const first = rng.d20();
  if (!disadvantage) return first;
  const second = rng.d20();
  return second < first ? second : first;
}

export function d20DuelSimulator(plan: D20DuelPlan): SimKernel {
  const count = duelTallyCounter(plan.rounds);
  const rounds = plan.rounds;
  const aFirst = plan.first === 'a';
  const aStrikes = strikerOf(plan.a, plan.b);
  const bStrikes = strikerOf(plan.b, plan.a);
  // Each unit at the start, as the other's attack scenario holds it.
  const aStartState = STATE_SEVERITY[plan.b.attacking.state];
  const aStartWounds = plan.b.attacking.wounds;
  const bStartState = STATE_SEVERITY[plan.a.attacking.state];
  const bStartWounds = plan.a.attacking.wounds;
  // The unit attacked, updated by an action (one object per kernel, never reallocated).
  const target: ActionTarget = { state: 0, wounds: 0, made: 0 };

  return {
    run(rng, trials, tally) {
      for (let t = 0; t < trials; t++) {
        let aState: Severity = aStartState;
        let aWounds = aStartWounds;
        let bState: Severity = bStartState;
        let bWounds = bStartWounds;
        let activations = 0;
        let winner = UNDECIDED;
        let round = 1;
        for (; round <= rounds && winner === UNDECIDED; round++) {
          for (let turn = 0; turn < 2 && winner === UNDECIDED; turn++) {
            const aActs = (turn === 0) === aFirst;
            activations++;
            // Upkeep: the unit whose turn it is recovers one step.
            const ready = upkeep(aActs ? aState : bState);
            if (ready !== DAZED && ready !== STUNNED) {
              // It attacks: Staggered, with disadvantage on its attack checks.
              const striker = aActs ? aStrikes : bStrikes;
              const before = aActs ? bState : aState;
              target.state = before;
              target.wounds = aActs ? bWounds : aWounds;
              target.made = 0;
              (ready === STAGGERED ? striker.staggered : striker.action)(rng, target);
              let after = target.state;
              // Left Dazed or Stunned by its ledge: an Agility Check, and a Fall on a failure.
              if (striker.ledge && after !== before && (after === DAZED || after === STUNNED)) {
                const face = d20(rng, striker.staggerPersists && before === STAGGERED);
                if (striker.ledge.passes[face] === 0) {
                  const fall = striker.ledge.fall[rng.d20()]! as Severity;
                  if (fall > after) after = fall;
                }
              }
              if (aActs) {
                bState = after;
                bWounds = target.wounds;
              } else {
                aState = after;
                aWounds = target.wounds;
              }
              if (after === INCAPACITATED) winner = aActs ? A_WINS : B_WINS;
            }
            // The end of its turn: Staggered clears.
            if (aActs) aState = endOfTurn(ready);
            else bState = endOfTurn(ready);
          }
        }
        // round has moved one past the round the duel was decided in.
        count(tally, winner, round - 1, activations);
      }
    },
  };
}
