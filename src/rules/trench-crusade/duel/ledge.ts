/**
 * The exact side of a duel's ledges (ruling D9): "x attacking y" as a sequence model whose target, y,
 * fights by y's ledge. The model's transition (../sequence/model.ts) splits each Down of a standing
 * target into the ledge's success roll and the fall; this builds the rows it reads.
 */
import { injuryOutcomeDist, injuryRollInput, planInjuryRoll, successRollDist } from '../exact.js';
import { DOWN, type SequenceModel, buildModel, injuryRowOf } from '../sequence/model.js';
import { type DuelSide, ledgeFall } from './plan.js';

/** `attacker`'s attacks on `target`'s body, by the target's ledge if it has one. */
export function duelModel(attacker: DuelSide, target: DuelSide): SequenceModel {
  const model = buildModel(attacker.attacking);
  if (target.ledgeInches === 0) return model;
  const rules = model.rules;
  // "Take a Success Roll for the model": 2D6 with no dice or modifier of its own (ruling D9).
  const roll = successRollDist(0, 0, rules.successRoll);
  const fall = injuryRowOf(injuryOutcomeDist(planInjuryRoll(injuryRollInput(ledgeFall(attacker.attacking, target.ledgeInches)), false)));
  // One attack may now place the fall's markers and then a Down's on a model the fall took Down.
  const mostPlaced = Math.max(model.mostPlaced, Math.max(rules.markers.minorHit, rules.markers.down) + model.placed[1]![DOWN]);
  return {
    ...model,
    ledge: { pass: roll.total - roll.weight('miss'), fail: roll.weight('miss'), rollDen: roll.total, fall },
    mostPlaced,
    maxMarkers: Math.min(model.cap, model.startMarkers + mostPlaced * model.attacks),
  };
}
