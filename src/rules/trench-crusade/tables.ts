/**
 * Trench Crusade rule tables: the numbers printed in the rule files, shared by the exact engine and the
 * simulator. Nothing here computes a probability; the two engines only agree if each reads these
 * tables correctly on its own.
 */

export type Edition = 'playtest' | 'comprehensive' | 'core';
export const EDITIONS = ['playtest', 'comprehensive', 'core'] as const;
export const DEFAULT_EDITION: Edition = 'core';

export const EDITION_SOURCES: Record<Edition, { title: string; source: string }> = {
  playtest: { title: 'Playtest Injury Chart', source: '002_a737ac1d047c7862.txt' },
  comprehensive: { title: 'Comprehensive rules', source: '001_920d0edf0f4b2e8e.txt' },
  core: { title: 'Core rules (newest)', source: '004_8876b2fc69d19d53.txt' },
};

export type InjuryOutcome = 'no-effect' | 'minor-hit' | 'down' | 'out-of-action';
export const INJURY_OUTCOMES: readonly InjuryOutcome[] = ['no-effect', 'minor-hit', 'down', 'out-of-action'];
export const ATTACK_OUTCOMES = ['miss', ...INJURY_OUTCOMES] as const;

/** Injury table, identical in all three editions: 1 or less, 2-6, 7-8, 9+. Highest total of each band. */
export const NO_EFFECT_MAX = 1;
export const MINOR_HIT_MAX = 6;
export const DOWN_MAX = 8;

export function injuryOutcome(total: number): InjuryOutcome {
  if (total <= NO_EFFECT_MAX) return 'no-effect';
  if (total <= MINOR_HIT_MAX) return 'minor-hit';
  if (total <= DOWN_MAX) return 'down';
  return 'out-of-action';
}

/** Success roll bands for attacks: modified total <= 6 misses, 7-11 hits, 12+ is a critical success. */
export const MISS_MAX = 6;
export const CRITICAL_MIN = 12;

/** Dice in an injury roll before +/- injury dice. */
export const INJURY_BASE_DICE = 2;
/**
 * A Bloodbath (pooled: the core rule, and the playtest by its larger-pool rule) and Deadly (core) each
 * make the starting pool 3 dice, all kept (002_…, 004_…).
 */
export const BLOODBATH_OR_DEADLY_BASE_DICE = 3;
export const SUCCESS_BASE_DICE = 2;

export type Armour = 'none' | 'standard' | 'reinforced' | 'machine';

/** Where an injury comes from: the Down bonus reads it (melee only, in comprehensive and core). */
export const ATTACK_TYPES = ['melee', 'ranged'] as const;
export type AttackType = (typeof ATTACK_TYPES)[number];
export const ARMOURS: readonly Armour[] = ['none', 'standard', 'reinforced', 'machine'];
/** Injury modifier of each armour (playtest 002_…, comprehensive 001_…; core 004_… carries these over). */
export const ARMOUR_MODIFIER: Record<Armour, number> = { none: 0, standard: -1, reinforced: -2, machine: -3 };
export const SHIELD_MODIFIER = -1;
/** "The maximum -Injury Modifier cannot be more than -3 in total" (001_…, 004_…). */
export const NEGATIVE_MODIFIER_CAP = -3;

/** How the -3 cap is applied: to the negative modifiers only (the text), to the net total, or not at all. */
export type ModifierCap = 'negative' | 'net' | 'none';
export const MODIFIER_CAPS: readonly ModifierCap[] = ['negative', 'net', 'none'];
export const DEFAULT_MODIFIER_CAP: Record<Edition, ModifierCap> = {
  playtest: 'none',
  comprehensive: 'negative',
  core: 'negative',
};

/** Which injury rolls against a Down target get +1 injury dice. */
export type DownBonus = 'melee' | 'any' | 'none';
export const DOWN_BONUSES: readonly DownBonus[] = ['melee', 'any', 'none'];
export const DEFAULT_DOWN_BONUS: Record<Edition, DownBonus> = { playtest: 'any', comprehensive: 'melee', core: 'melee' };
export const DOWN_BONUS_DICE = 1;

/** Injury dice a critical success adds: +1 in comprehensive and core; the playtest chart names none. */
export const DEFAULT_CRITICAL_INJURY_DICE: Record<Edition, number> = { playtest: 0, comprehensive: 1, core: 1 };

/** Editions with a Bloodbath roll: playtest (002_…) and core (004_…); the comprehensive rules have none. */
export const HAS_BLOODBATH: Record<Edition, boolean> = { playtest: true, comprehensive: false, core: true };

/**
 * Where the Bloodbath's extra die goes. `pooled`: the starting pool is 3 dice, injury dice join it and 3
 * are kept (core's text; the playtest's rule for rolls of more than 2D6). `separate`: the playtest
 * sentence read on its own, 2 dice kept as usual and a D6 added after. Only the playtest may choose.
 */
export type BloodbathDie = 'pooled' | 'separate';
export const BLOODBATH_DIES: readonly BloodbathDie[] = ['pooled', 'separate'];
export const DEFAULT_BLOODBATH_DIE: Record<Edition, BloodbathDie> = {
  playtest: 'pooled',
  comprehensive: 'pooled',
  core: 'pooled',
};
export const BLOODBATH_DIE_CHOICES: Record<Edition, readonly BloodbathDie[]> = {
  playtest: ['pooled', 'separate'],
  comprehensive: ['pooled'],
  core: ['pooled'],
};

/**
 * Dice kept by a Bloodbath roll with the Deadly keyword (core). 004_… does not say: 4 assumes each adds a
 * die to the starting pool; 3 reads both as "roll 3D6", the same starting pool.
 */
export const DEADLY_BLOODBATH_KEEP_MIN = 3;
export const DEADLY_BLOODBATH_KEEP_MAX = 4;
export const DEFAULT_DEADLY_BLOODBATH_KEEP = 4;

/** Blood markers a Bloodbath costs (playtest and core): six, or three against a Down target. */
export const BLOODBATH_COST = 6;
export const BLOODBATH_COST_DOWN = 3;

/** Falls: none under 3 inches; +1 injury dice per full 3 inches (001_…, 004_… via 001_…). */
export const FALL_MIN_INCHES = 3;
export const FALL_INCHES_PER_DICE = 3;

/** Blood markers placed by a result: Down places 2 on a model already Down (all editions). */
export function bloodMarkersPlaced(outcome: InjuryOutcome, alreadyDown: boolean): number {
  if (outcome === 'minor-hit') return 1;
  if (outcome === 'down') return alreadyDown ? 2 : 1;
  return 0;
}
