/**
 * A d20 warband duel as both engines read it: each unit's attack action on the other as an `attack`
 * scenario ("a attacking b": a's attack fields against b's Defence, b's state and wounds at the start),
 * the same action while the unit is Staggered, the ledge each unit fights by, who goes first and how
 * many rounds. The exact chain (./chain.ts) and the simulator (./simulate.ts) each build what they need
 * from it, independently.
 */
import type { D20WarbandScenario } from '../fields.js';

/** A ledge within 1" of a unit (ruling DW9): its Agility and the drop it Falls on a failed Agility Check. */
export interface Ledge {
  readonly agility: number;
  readonly heightInches: number;
}

export interface D20DuelSide {
  /**
   * This unit's attack action on the other: its own attack fields against the other's Defence, with the
   * other's state and wounds at the start of the duel (`state`, `wounds`).
   */
  readonly attacking: D20WarbandScenario<'attack'>;
  /** The same action made while this unit is Staggered: its attack checks with disadvantage (ruling DW5). */
  readonly attackingStaggered: D20WarbandScenario<'attack'>;
  /** The ledge this unit fights by; absent when there is none (or its drop is under 2"). */
  readonly ledge?: Ledge;
}

export interface D20DuelPlan {
  readonly a: D20DuelSide;
  readonly b: D20DuelSide;
  readonly first: 'a' | 'b';
  /** A round is one turn of each unit, the first unit's first. */
  readonly rounds: number;
}
