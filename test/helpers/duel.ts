import { parseScenario } from '../../src/input/scenario.js';
import type { DuelObjective, DuelPolicy } from '../../src/rules/trench-crusade/duel/fields.js';
import type { DuelPlan } from '../../src/rules/trench-crusade/duel/plan.js';
import type { SequenceScenario } from '../../src/rules/trench-crusade/sequence/model.js';

/** A duel side in a few plain fields, for the duel tests (core edition). */
export interface Side {
  /** As an attacker. */
  readonly attackDice?: number;
  readonly injuryDice?: number;
  readonly injuryModifier?: number;
  /** Its weapon's rules against a Down target. */
  readonly ignoreArmourIfDown?: boolean;
  readonly injuryDiceIfDown?: number;
  /** Its weapon's own blood markers after every roll. */
  readonly extraBloodMarkers?: number;
  /** Its weapon's IGNORE ARMOUR. */
  readonly ignoreArmour?: boolean;
  /** Its weapon's Minor Hit is a Down (minorAsDown). */
  readonly minorAsDown?: boolean;
  /** Its weapon's injury die put aside as a 6 against armour or a shield (sixAgainstArmoured). */
  readonly sixAgainstArmoured?: boolean;
  /** Its weapon's result markers multiplied (bloodMarkersMultiplier), its own critical total (criticalThreshold), a failed success roll re-rolled (rerollFailedSuccess). */
  readonly bloodMarkersMultiplier?: number;
  readonly criticalThreshold?: number;
  readonly rerollFailedSuccess?: boolean;
  /**
   * Its attacks ranged, and its weapon's rules for the Ranged Attack Modifiers. The CLI's duels are
   * melee (issue 24); the duel engines take any sequence, so a test may still play a shoot-out.
   */
  readonly ranged?: boolean;
  readonly coverAndLongRangeDice?: number;
  readonly injuryDiceInCover?: number;
  /** As a target. */
  readonly armour?: 'none' | 'standard' | 'reinforced';
  readonly tough?: boolean;
  readonly bloodMarkers?: number;
  readonly down?: boolean;
  readonly policy?: DuelPolicy;
  readonly attacks?: number;
  /** The drop of the ledge it fights by (0: none). */
  readonly ledge?: number;
  /** Its armour's STANDFAST (a Down result is a Minor Hit). */
  readonly standfast?: boolean;
  /** Its first Out of Action is a No Effect (firstOutOfActionNoEffect). */
  readonly noEffectSave?: boolean;
  /** The modifier its armour still gives when ignored (armourWhenIgnored). */
  readonly armourWhenIgnored?: number;
  /** Shots at it are at a target in cover (its own Cover modifier, coverDice), or at long range. */
  readonly inCover?: boolean;
  readonly coverDice?: number;
  readonly longRange?: boolean;
}

/** "x attacking y" as a sequence scenario: x's weapon against y's body, in the core edition. */
function attacking(x: Side, y: Side): SequenceScenario {
  return parseScenario({
    kind: 'sequence',
    attackDice: x.attackDice ?? 0,
    injuryDice: x.injuryDice ?? 0,
    injuryModifier: x.injuryModifier ?? 0,
    ignoreArmourIfDown: x.ignoreArmourIfDown ?? false,
    injuryDiceIfDown: x.injuryDiceIfDown ?? 0,
    extraBloodMarkers: x.extraBloodMarkers ?? 0,
    ignoreArmour: x.ignoreArmour ?? false,
    minorAsDown: x.minorAsDown ?? false,
    sixAgainstArmoured: x.sixAgainstArmoured ?? false,
    bloodMarkersMultiplier: x.bloodMarkersMultiplier ?? 1,
    criticalThreshold: x.criticalThreshold ?? 12,
    rerollFailedSuccess: x.rerollFailedSuccess ?? false,
    armour: y.armour ?? 'none',
    tough: y.tough ?? false,
    bloodMarkers: y.bloodMarkers ?? 0,
    targetDown: y.down ?? false,
    downBecomesMinor: y.standfast ?? false,
    firstOutOfActionNoEffect: y.noEffectSave ?? false,
    armourWhenIgnored: y.armourWhenIgnored ?? 0,
    attackType: x.ranged === true ? 'ranged' : 'melee',
    coverAndLongRangeDice: x.coverAndLongRangeDice ?? 'usual',
    injuryDiceInCover: x.injuryDiceInCover ?? 0,
    targetInCover: y.inCover ?? false,
    coverDice: y.coverDice ?? -1,
    longRange: y.longRange ?? false,
  }) as SequenceScenario;
}

export function duelPlan(a: Side, b: Side, first: 'a' | 'b', rounds: number, objective: DuelObjective = 'margin'): DuelPlan {
  return {
    a: { attacking: attacking(a, b), policy: a.policy ?? 'none', attacksPerActivation: a.attacks ?? 1, ledgeInches: a.ledge ?? 0 },
    b: { attacking: attacking(b, a), policy: b.policy ?? 'none', attacksPerActivation: b.attacks ?? 1, ledgeInches: b.ledge ?? 0 },
    first,
    rounds,
    objective,
  };
}
