/**
 * A Trench Crusade battle as the simulator reads it (issue 50): two warbands, each a list of entries (a
 * model with its weapons, fielded `count` times), the side's tactic and what it does with the blood
 * markers on its enemies, and the game's settings. The rulings it follows are docs/rules.md's B1-B45.
 *
 * An attack of the battle is a sequence scenario, as a duel's are: one entry's weapon against one enemy
 * entry's body (`attack`), so every keyword and rule the single-roll and sequence kinds model acts in a
 * battle the same way, rolled by the same attack roller. The plan only adds what a whole game needs:
 * who stands where, who acts when, and what each does.
 */
import type { SequenceScenario } from '../sequence/model.js';

import type { BattleBloodPolicy, BattleInitiative, BattleTactic, BattleStandUpRule, BattleTurnExtension, BattleVictoryRule } from './kind.js';

export interface BattleWeapon {
  readonly name: string;
  readonly ranged: boolean;
  /** A ranged weapon's range in inches (long range beyond half of it, ruling B23); unread for melee. */
  readonly rangeInches: number;
  /** ASSAULT: it may Shoot and Charge in one activation (ruling B10). */
  readonly assault: boolean;
  /** Attacks of one Shoot or Fight action with it (AUTOMATIC N, CLEAVE N). */
  readonly attacks: number;
}

export interface BattleEntry {
  readonly name: string;
  /** Models of this entry in the warband. */
  readonly count: number;
  /** Victory points its enemy scores for each of them taken Out of Action (ruling B35). */
  readonly victoryPoints: number;
  /** Its Movement in inches. */
  readonly movement: number;
  /** Its weapons, ranged and melee; at least one melee weapon (an unarmed one if it carries none, ruling B28). */
  readonly weapons: readonly BattleWeapon[];
}

export interface BattleSide {
  readonly entries: readonly BattleEntry[];
  readonly tactic: BattleTactic;
  readonly blood: BattleBloodPolicy;
}

export interface BattlePlan {
  readonly a: BattleSide;
  readonly b: BattleSide;
  /** Turns of the game (ruling B1). */
  readonly turns: number;
  /** Inches between the two deployment lines at the start (ruling B36); 1 or less: every model starts engaged with every enemy. */
  readonly startInches: number;
  readonly initiative: BattleInitiative;
  /** The Morale phase decides games (ruling B33: two failed checks in a row lose). */
  readonly morale: boolean;
  /** The chance a shot's target is in cover (ruling B23), and that the shooter is elevated above it. */
  readonly coverChance: number;
  readonly elevationChance: number;
  readonly victory: BattleVictoryRule;
  readonly turnExtension: BattleTurnExtension;
  readonly standUp: BattleStandUpRule;
  /**
   * Side `side`'s entry `entry` attacking the other side's entry `target` with its weapon `weapon`: the
   * sequence scenario of that attack, the target's body and starting state with it; `longRange` and
   * `cover` set a shot's Ranged Attack Modifiers (false for a melee weapon).
   */
  attack(side: 0 | 1, entry: number, weapon: number, target: number, longRange: boolean, cover: boolean): SequenceScenario;
}
