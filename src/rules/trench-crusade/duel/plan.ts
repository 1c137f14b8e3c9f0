/**
 * A Trench Crusade duel as both engines read it: each side's attacks on the other as a sequence
 * scenario ("a attacking b": a's weapon and b's body, b's markers, Down and Tough at the start), what
 * each side does with the markers on its opponent, who goes first, and how many rounds. The exact chain
 * (./chain.ts) and the simulator (./simulate.ts) each build what they need from it, independently.
 */
import type { TrenchCrusadeScenario } from '../fields.js';
import type { SequenceScenario } from '../sequence/model.js';
import type { DuelObjective, DuelPolicy } from './fields.js';


export interface DuelSide {
  /** This side attacking the other: its weapon against the other's body. */
  readonly attacking: SequenceScenario;
  readonly policy: DuelPolicy;
  /** Melee attacks in each of its activations. */
  readonly attacksPerActivation: number;
  /** The drop of the ledge this side fights by, in inches; 0 for none (ruling D9). */
  readonly ledgeInches: number;
}

export interface DuelPlan {
  readonly a: DuelSide;
  readonly b: DuelSide;
  readonly first: 'a' | 'b';
  /** A round is one activation of each side, the first side's first. */
  readonly rounds: number;
  /** What an optimal side plays for (ruling D8). */
  readonly objective: DuelObjective;
}

/** Does `opponent` spend the markers on `attacker` against its success rolls (-1 dice each, rule markers.onOwnRolls)? */
export function hinders(opponent: DuelSide, attacker: DuelSide): boolean {
  return opponent.policy === 'hinder' && attacker.attacking.rules.markers.onOwnRolls;
}

/**
 * The fall from a ledge of `inches` as the `fall` kind reads it (ruling D9): the falling model's body as
 * `attacking` holds it (armour, shield, its own injury dice and modifier, STANDFAST, GOLEM), none of the
 * attacker's weapon, no marker spent, not Down (it is taken Down after), Tough (and the first Out of Action's
 * No Effect) left to the duel's state.
 */
export function ledgeFall(attacking: SequenceScenario, inches: number): TrenchCrusadeScenario<'fall'> {
  const fall = {
    ...attacking,
    kind: 'fall',
    heightInches: inches,
    injuryDice: 0,
    injuryModifier: 0,
    bloodMarkersSpent: 0,
    blessingMarkersSpent: 0,
    bloodbath: false,
    deadly: false,
    targetDown: false,
    // The one save (Tough's, or the first Out of Action's No Effect) is the duel's state, used once
    // across the fall and the attacks: the fall's own row never applies it.
    tough: false,
    firstOutOfActionNoEffect: false,
    toughUsed: false,
  };
  // The fall kind's fields, every one set above or carried from the body; the rest it does not read.
  return fall as unknown as TrenchCrusadeScenario<'fall'>;
}
