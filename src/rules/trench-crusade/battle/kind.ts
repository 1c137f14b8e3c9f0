/**
 * The battle kind's id and the words and numbers its settings take, apart from the plan (./plan.ts):
 * the system's field declarations (../fields.ts, ./fields.ts) read these and nothing of the engines.
 */
export const BATTLE_KIND = 'battle';
/** A model's Movement where nothing gives one: the common 6" of the catalogue's models. */
export const DEFAULT_MOVEMENT_INCHES = 6;
export const MAX_MOVEMENT_INCHES = 24;
export const MAX_RANGE_INCHES = 120;
export const BATTLE_SIDES = ['a', 'b'] as const;
export type BattleSideKey = (typeof BATTLE_SIDES)[number];

/**
 * A side's plan (rulings B40-B42, B45, B48): `advance` (move up and shoot; models without a ranged weapon
 * charge), `hold` (shooters stay and shoot; the rest charge only what they can reach), `charge` (every
 * model charges the nearest enemy; ASSAULT weapons shoot first), `charge-weakest` (as charge, at the
 * weakest enemy a charge can reach: a Down one first, then the one with most blood markers), `skirmish`
 * (as advance, but a shooter caught in melee Retreats and shoots).
 */
export const BATTLE_TACTICS = ['advance', 'hold', 'charge', 'charge-weakest', 'skirmish'] as const;
export type BattleTactic = (typeof BATTLE_TACTICS)[number];

/** What a side does with the blood markers on its enemies (ruling B31): as a duel's policies, optimal aside. */
export const BATTLE_BLOOD_POLICIES = ['none', 'injury', 'hinder'] as const;
export type BattleBloodPolicy = (typeof BATTLE_BLOOD_POLICIES)[number];

/** Who activates first in a turn: by the rules (ruling B4), or one side always (as a duel's `first`). */
export const BATTLE_INITIATIVES = ['rules', 'a', 'b'] as const;
export type BattleInitiative = (typeof BATTLE_INITIATIVES)[number];

/** How a game that reaches its last turn is won (ruling B35): more victory points, or more models standing. */
export const BATTLE_VICTORY_RULES = ['points', 'models'] as const;
export type BattleVictoryRule = (typeof BATTLE_VICTORY_RULES)[number];

/** Whether the game may end early (ruling B2): never, or at the end of turn 4 and each turn after it on a D6 of 1-2. */
export const BATTLE_TURN_EXTENSIONS = ['none', 'd6-ends-on-1-2-after-turn-4'] as const;
export type BattleTurnExtension = (typeof BATTLE_TURN_EXTENSIONS)[number];

/** What standing up costs (ruling B9): v1.0 halves the Movement; the playtest also takes -1 DICE off the activation's success rolls. */
export const BATTLE_STAND_UP_RULES = ['half-move', 'half-move-minus-dice'] as const;
export type BattleStandUpRule = (typeof BATTLE_STAND_UP_RULES)[number];

/** When a side's failed morale checks lose it the game (ruling B33): at the second in a row (v1.0), or at the first (the playtest's Trench Warfare). */
export const BATTLE_MORALE_LOSSES = ['two-in-a-row', 'first-failure'] as const;
export type BattleMoraleLoss = (typeof BATTLE_MORALE_LOSSES)[number];
