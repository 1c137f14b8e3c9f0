/**
 * A battle with every name read (src/input/battle.ts): what a simulation worker is sent, as plain data,
 * and the plan the simulator takes, made from it. Each attack is the sequence scenario of one entry's
 * weapon against one enemy entry's body, as the duel's sides resolve it (profiles, keywords, a model's
 * dice for its weapon's attack type, the target's abilities against that weapon); the plan sets a
 * shot's long range and cover on it.
 */
import type { SequenceScenario } from '../sequence/model.js';
import type { BattleBloodPolicy, BattleInitiative, BattleTactic, BattleStandUpRule, BattleTurnExtension, BattleVictoryRule } from './kind.js';
import type { BattleEntry, BattlePlan, BattleSide } from './plan.js';

export interface ResolvedBattleSide {
  /** The warband as it was asked for ("Trench Pilgrim with Rifle x6, ..."). */
  readonly label: string;
  readonly tactic: BattleTactic;
  readonly blood: BattleBloodPolicy;
  readonly entries: readonly BattleEntry[];
  /** attacks[entry][weapon][target entry of the other side]: the attack, no Ranged Attack Modifier met. */
  readonly attacks: readonly (readonly (readonly SequenceScenario[])[])[];
}

export interface ResolvedBattle {
  readonly system: string;
  readonly edition: string;
  readonly turns: number;
  readonly startInches: number;
  readonly initiative: BattleInitiative;
  readonly morale: boolean;
  readonly coverChance: number;
  readonly elevationChance: number;
  readonly victory: BattleVictoryRule;
  readonly turnExtension: BattleTurnExtension;
  readonly standUp: BattleStandUpRule;
  /** The ducats each side was fielded at (0: the counts as written); said, read by no engine. */
  readonly ducats: number;
  readonly a: ResolvedBattleSide;
  readonly b: ResolvedBattleSide;
}

export function battlePlanOf(r: ResolvedBattle): BattlePlan {
  const side = (s: ResolvedBattleSide): BattleSide => ({ entries: s.entries, tactic: s.tactic, blood: s.blood });
  const sides = [r.a, r.b] as const;
  return {
    a: side(r.a),
    b: side(r.b),
    turns: r.turns,
    startInches: r.startInches,
    initiative: r.initiative,
    morale: r.morale,
    coverChance: r.coverChance,
    elevationChance: r.elevationChance,
    victory: r.victory,
    turnExtension: r.turnExtension,
    standUp: r.standUp,
    attack(s, entry, weapon, target, longRange, cover) {
      const base = sides[s].attacks[entry]![weapon]![target]!;
      return longRange || cover ? { ...base, longRange, targetInCover: cover } : base;
    },
  };
}
