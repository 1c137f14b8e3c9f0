/**
 * A battle with every name read (src/input/battle.ts): what a simulation worker is sent, as plain data,
 * and the plan the simulator takes, made from it. Each attack is the sequence scenario of one entry's
 * weapon against one enemy entry's body, as the duel's sides resolve it (profiles, keywords, a model's
 * dice for its weapon's attack type, the target's abilities against that weapon); the plan sets a
 * shot's long range and cover on it.
 */
import type { SequenceScenario } from '../sequence/model.js';
import { BATTLE_KIND, type BattleBloodPolicy, type BattleSideKey, type BattleTactic } from './kind.js';
import type { BattleGameSettings, battleKindSideFields } from './fields.js';
import type { FieldsOf, Scenario } from '../../../model/types.js';
import type { TrenchCrusadeScenario } from '../fields.js';
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

/** The game's settings (./fields.ts), its system and edition, and both sides read. */
export interface ResolvedBattle extends BattleGameSettings {
  readonly system: string;
  readonly edition: string;
  readonly a: ResolvedBattleSide;
  readonly b: ResolvedBattleSide;
}

/** A battle scenario's side as validated: its warband as written, its plan and its blood policy. */
export type BattleKindSideValues = FieldsOf<typeof battleKindSideFields>;

/**
 * A validated battle scenario (kind "battle"): its game fields, both sides as written, and the battle
 * they read into (src/input/battle-core.ts resolves it when the scenario is parsed, its profiles at hand):
 * what the simulator plays. Sent to a worker, it travels as that battle (src/sim/play.ts).
 */
export type BattleScenario = TrenchCrusadeScenario<typeof BATTLE_KIND> & { readonly [K in BattleSideKey]: BattleKindSideValues } & { readonly battle: ResolvedBattle };

/** The battle a scenario of kind "battle" reads into, or undefined for a scenario of another kind. */
export function battleOfScenario(scenario: Scenario): ResolvedBattle | undefined {
  return scenario.kind === BATTLE_KIND ? (scenario as unknown as BattleScenario).battle : undefined;
}

export function battlePlanOf(r: ResolvedBattle): BattlePlan {
  const side = (s: ResolvedBattleSide): BattleSide => ({ entries: s.entries, tactic: s.tactic, blood: s.blood });
  const sides = [r.a, r.b] as const;
  // The ducats a side was bought at and its Field Strength are said, never played (the warbands are read within them); the system and edition are in every attack.
  const { a, b, system: _system, edition: _edition, ducats: _ducats, fieldStrength: _fieldStrength, ...game } = r;
  return {
    ...game,
    a: side(a),
    b: side(b),
    attack(s, entry, weapon, target, longRange, cover) {
      const base = sides[s].attacks[entry]![weapon]![target]!;
      return longRange || cover ? { ...base, longRange, targetInCover: cover } : base;
    },
  };
}
