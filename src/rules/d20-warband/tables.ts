/**
 * d20 warband names and shapes: the die, injury states, outcomes, and how stat fields are read. The rule
 * numbers (natural fails and successes, critical hits, the dash rule, the injury tables, falls) are in the
 * rule spec (rule-spec.ts) with their sources; both engines read them from the scenario's rule table
 * (`s.rules`), each on its own, so the cross-check in `check` only passes if both read them the same way.
 *
 * Stats, checks, advantage, criticals, modifiers: 003_66409dd9159b6662.txt ("the stats file").
 * Injury checks, injury rolls, injury types, wounds, falls: 000_87078d30a64c9030.txt ("the injury file").
 */
import type { EditionSpec } from '../../model/types.js';

export const EDITION_ID = 'v1';
export const STATS_FILE = '003_66409dd9159b6662.txt';
export const INJURY_FILE = '000_87078d30a64c9030.txt';

/** The one edition as the system lists it (its SystemSpec, and the manifest an exact answer carries). */
export const D20_WARBAND_EDITIONS: readonly EditionSpec[] = [
  {
    id: EDITION_ID,
    title: 'Stats, Checks & Rolls; Injury',
    // Both files: stats and checks from the first, injury from the second (comma-separated list).
    source: `${STATS_FILE}, ${INJURY_FILE}`,
  },
];

export const DIE_SIDES = 20;
/** The word a dash stat is written with. */
export const DASH = '-';

/**
 * Target states, least to most severe. The injury file lists the Injury Types "from most severe to least
 * severe": Incapacitated, Stunned, Dazed, Staggered; `none` is an uninjured unit. The numeric order is what
 * "less severe" means in the ranged-attack rule.
 */
export const NONE = 0;
export const STAGGERED = 1;
export const DAZED = 2;
export const STUNNED = 3;
export const INCAPACITATED = 4;
export type Severity = typeof NONE | typeof STAGGERED | typeof DAZED | typeof STUNNED | typeof INCAPACITATED;

/** Starting states a scenario may give the target (incapacitated units are off the board). */
export const TARGET_STATES = ['none', 'staggered', 'dazed', 'stunned'] as const;
export type TargetState = (typeof TARGET_STATES)[number];
export const STATE_SEVERITY: Record<TargetState, Severity> = {
  none: NONE,
  staggered: STAGGERED,
  dazed: DAZED,
  stunned: STUNNED,
};

export const ATTACK_TYPES = ['melee', 'ranged'] as const;

/**
 * When an injury inflicted by one attack starts to change the later attacks of the same attack action:
 * `next-attack` (default) - at once; `end-of-action` - the action is resolved against the target as it
 * was when the action began, and the most severe injury it inflicted applies when it ends.
 */
export const INJURY_TIMINGS = ['next-attack', 'end-of-action'] as const;
export type InjuryTiming = (typeof INJURY_TIMINGS)[number];

export const CHECK_OUTCOMES = ['fail', 'success'] as const;
export const ATTACK_OUTCOMES = ['unharmed', 'wounded', 'staggered', 'dazed', 'stunned', 'incapacitated'] as const;
export const INJURY_ROLL_OUTCOMES = ['no-effect', 'dazed', 'stunned', 'incapacitated'] as const;

/** Reads a stat field that may hold the dash: null for "-", else the number. */
export function statValue(v: unknown): number | null {
  if (v === DASH) return null;
  return typeof v === 'number' ? v : Number(v);
}

/** Reads an Injury or Pierce field: "-" is "the equivalent of saying there is no modifier" (stats file). */
export function modifierValue(v: unknown): number {
  if (v === DASH || v === undefined) return 0;
  return typeof v === 'number' ? v : Number(v);
}
