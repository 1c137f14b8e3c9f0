/**
 * A Trench Crusade battle as the simulator reads it (issue 50): two warbands, each a list of entries (a
 * model with its weapons, fielded `count` times), the side's tactic and what it does with the blood
 * markers on its enemies, and the game's settings. The rulings it follows are docs/rules.md's B1-B49.
 *
 * An attack of the battle is a sequence scenario, as a duel's are: one entry's weapon against one enemy
 * entry's body (`attack`), so every keyword and rule the single-roll and sequence kinds model acts in a
 * battle the same way, rolled by the same attack roller. The plan only adds what a whole game needs:
 * who stands where, who acts when, and what each does.
 */
import type { SequenceScenario } from '../sequence/model.js';

import type { BattleBloodPolicy, BattleTactic } from './kind.js';
import type { BattleGameSettings } from './fields.js';

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

/**
 * A battle as the simulator plays it: the two sides, the game's settings (./fields.ts declares them, their
 * rulings with them; the ducats a side was bought at and the Field Strength that cut it are how its warbands were read, not the game's), and its attacks.
 */
export interface BattlePlan extends Omit<BattleGameSettings, 'ducats' | 'fieldStrength'> {
  readonly a: BattleSide;
  readonly b: BattleSide;
  /**
   * Side `side`'s entry `entry` attacking the other side's entry `target` with its weapon `weapon`: the
   * sequence scenario of that attack, the target's body and starting state with it; `longRange` and
   * `cover` set a shot's Ranged Attack Modifiers (false for a melee weapon).
   */
  attack(side: 0 | 1, entry: number, weapon: number, target: number, longRange: boolean, cover: boolean): SequenceScenario;
}
