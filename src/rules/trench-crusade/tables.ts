/**
 * Trench Crusade names and shapes: editions, outcomes, armours, the readings a scenario may choose. The
 * numbers are in the rule table (rule-spec.ts), which both engines read from the scenario. Nothing here
 * computes a probability; the two engines only agree if each reads the table correctly on its own.
 */
import type { EditionSpec } from '../../model/types.js';
import type { TrenchCrusadeRules } from './rule-spec.js';

export type Edition = 'playtest' | 'comprehensive' | 'core';
export const EDITIONS = ['playtest', 'comprehensive', 'core'] as const;
export const DEFAULT_EDITION: Edition = 'core';

export const EDITION_SOURCES: Record<Edition, { title: string; source: string }> = {
  playtest: { title: 'Playtest Injury Chart', source: '002_a737ac1d047c7862.txt' },
  comprehensive: { title: 'Comprehensive rules', source: '001_920d0edf0f4b2e8e.txt' },
  core: { title: 'Core rules (newest)', source: '004_8876b2fc69d19d53.txt' },
};

/** The editions as the system lists them (its SystemSpec, and the manifest an exact answer carries). */
export const TRENCH_CRUSADE_EDITIONS: readonly EditionSpec[] = EDITIONS.map((id) => ({ id, ...EDITION_SOURCES[id] }));

export type InjuryOutcome = 'no-effect' | 'minor-hit' | 'down' | 'out-of-action';
export const INJURY_OUTCOMES: readonly InjuryOutcome[] = ['no-effect', 'minor-hit', 'down', 'out-of-action'];
export const ATTACK_OUTCOMES = ['miss', ...INJURY_OUTCOMES] as const;

/** Row of the injury table for a modified total: below minorHit no effect, then each band from its lowest total. */
export function injuryOutcome(total: number, table: TrenchCrusadeRules['injuryTable']): InjuryOutcome {
  if (total < table.minorHit) return 'no-effect';
  if (total < table.down) return 'minor-hit';
  if (total < table.outOfAction) return 'down';
  return 'out-of-action';
}

export type Armour = 'none' | 'standard' | 'reinforced' | 'machine';

/** Where an injury comes from: the Down bonus reads it (melee only, in comprehensive and core). */
export const ATTACK_TYPES = ['melee', 'ranged'] as const;
export type AttackType = (typeof ATTACK_TYPES)[number];
export const ARMOURS: readonly Armour[] = ['none', 'standard', 'reinforced', 'machine'];
/** How the -3 cap is applied: to the negative modifiers only (the text), to the net total, or not at all. */
export type ModifierCap = 'negative' | 'net' | 'none';
export const MODIFIER_CAPS: readonly ModifierCap[] = ['negative', 'net', 'none'];

/**
 * What decides a critical success: the modified total (our reading of T13) or the kept dice before
 * flat modifiers (how some public calculators read it). See docs/rules.md T13.
 */
export type CriticalOn = 'modified' | 'unmodified';
export const CRITICAL_ON: readonly CriticalOn[] = ['modified', 'unmodified'];

/** Which injury rolls against a Down target get +1 injury dice. */
export type DownBonus = 'melee' | 'any' | 'none';
export const DOWN_BONUSES: readonly DownBonus[] = ['melee', 'any', 'none'];

/**
 * Where the Bloodbath's extra die goes. `pooled`: the starting pool is 3 dice, injury dice join it and 3
 * are kept (core's text; the playtest's rule for rolls of more than 2D6). `separate`: the playtest
 * sentence read on its own, 2 dice kept as usual and a D6 added after. Only the playtest may choose.
 */
export type BloodbathDie = 'pooled' | 'separate';
export const BLOODBATH_DIES: readonly BloodbathDie[] = ['pooled', 'separate'];

/**
 * Dice kept by a Bloodbath roll with the Deadly keyword (core). 004_… does not say: 4 assumes each adds a
 * die to the starting pool; 3 reads both as "roll 3D6", the same starting pool.
 */
export const DEADLY_BLOODBATH_KEEP_MIN = 3;
export const DEADLY_BLOODBATH_KEEP_MAX = 4;

/** Blood markers placed by a result (Down places more on a model already Down). */
export function bloodMarkersPlaced(outcome: InjuryOutcome, alreadyDown: boolean, markers: TrenchCrusadeRules['markers']): number {
  if (outcome === 'minor-hit') return markers.minorHit;
  if (outcome === 'down') return alreadyDown ? markers.downAgain : markers.down;
  return 0;
}

/** Which attacks against a model its own "-N DICE" ability hinders: melee, ranged or both. */
export type TargetAttackDiceApplies = 'melee' | 'ranged' | 'both';
export const TARGET_ATTACK_DICE_APPLIES: readonly TargetAttackDiceApplies[] = ['both', 'melee', 'ranged'];

/** Most blood markers one kind of FIRE, GAS or SHRAPNEL may leave after an injury roll. */
export const MAX_MARKERS_PER_KIND = 6;

/** The weapon's marker kinds and the target's negations, as the scenario gives them. */
export interface MarkerKinds {
  readonly fireMarkers: number;
  readonly gasMarkers: number;
  readonly shrapnelMarkers: number;
  /** A weapon's own markers after every roll, which no NEGATE keyword stops. */
  readonly extraBloodMarkers: number;
  readonly negateFire: boolean;
  readonly negateGas: boolean;
  readonly negateShrapnel: boolean;
}

/**
 * Blood markers the target gains after every injury roll from the weapon, whatever the result (FIRE,
 * GAS, SHRAPNEL), less the kinds it negates, and the weapon's own (extraBloodMarkers), which none does. Out of Action removes the model, so none are counted there.
 */
export function extraMarkersPerRoll(s: MarkerKinds): number {
  return (s.negateFire ? 0 : s.fireMarkers) + (s.negateGas ? 0 : s.gasMarkers) + (s.negateShrapnel ? 0 : s.shrapnelMarkers) + s.extraBloodMarkers;
}
