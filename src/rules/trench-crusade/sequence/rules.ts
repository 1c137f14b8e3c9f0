/**
 * Rule tables of a sequence of attacks (Trench Crusade `sequence` kind): the policies, the marker cap and
 * the few numbers the exact chain and the simulator both read. Like ../tables.ts, nothing here computes
 * a probability, so sharing it does not make the two engines depend on each other.
 */
import { BLOODBATH_COST, BLOODBATH_COST_DOWN, HAS_BLOODBATH, type Edition } from '../tables.js';

/** How the attacker spends the target's blood markers on injury rolls. */
export type Policy = 'none' | 'all' | 'bloodbath' | 'optimal';
export const POLICIES: readonly Policy[] = ['none', 'all', 'bloodbath', 'optimal'];

/** How the target spends its own blessing markers on injury rolls against it (core). */
export type BlessingPolicy = 'none' | 'all';
export const BLESSING_POLICIES: readonly BlessingPolicy[] = ['none', 'all'];

/** Limits of the `attacks` field (issue 6: 1-50, default 10). */
export const MIN_ATTACKS = 1;
export const MAX_ATTACKS = 50;
export const DEFAULT_ATTACKS = 10;

/** Most markers a scenario may start with, or spend on one attack roll. */
export const MAX_START_MARKERS = 20;

/**
 * Blood markers per model. The playtest chart counts them on a die, "maximum six per model"
 * (002_a737ac1d047c7862.txt); comprehensive and core name no limit. `markerCap: "none"` means no cap.
 */
export const PLAYTEST_MARKER_CAP = 6;
export const MAX_MARKER_CAP = 100;
export const NO_CAP = 'none';
export const DEFAULT_MARKER_CAP: Record<Edition, number | typeof NO_CAP> = {
  playtest: PLAYTEST_MARKER_CAP,
  comprehensive: NO_CAP,
  core: NO_CAP,
};

/** `attacksPerActivation: "all"`: every attack of the sequence belongs to one activation. */
export const ONE_ACTIVATION = 'all';

/**
 * The unlimited-attack chain (expected attacks to Out of Action) needs finitely many states. Under
 * `none`, `all` and `bloodbath` the markers on the target stay bounded by themselves (see
 * unlimitedMarkerLimit); a policy that may hoard (`optimal`, or one marker per attack roll with `none`)
 * is given this many markers at most when the edition has no cap, more being lost. The note of a
 * result says when that bound was reached.
 */
export const UNLIMITED_HOARD_LIMIT = 12;

/** Blood markers a Bloodbath costs against a target that is Down or not (playtest and core). */
export function bloodbathCost(targetDown: boolean): number {
  return targetDown ? BLOODBATH_COST_DOWN : BLOODBATH_COST;
}

export function hasBloodbath(edition: Edition): boolean {
  return HAS_BLOODBATH[edition];
}

/** The cap as a number (Infinity for none). */
export function markerCapOf(cap: number | string): number {
  return cap === NO_CAP ? Number.POSITIVE_INFINITY : (cap as number);
}

/** Attacks in one activation of the attacker; 0 when the whole sequence is one activation. */
export function attacksPerActivationOf(value: number | string): number {
  return value === ONE_ACTIVATION ? 0 : (value as number);
}

/**
 * Markers the unlimited chain tracks: the largest number the policy can ever leave on the target, or
 * the hoarding limit. Under `none` without attack-roll spending the markers never change a roll, so
 * the chain does not track them at all (0). With `all` every injury roll spends them, leaving at most
 * the 2 a Down places (or the starting stock, before the first hit). With `bloodbath` a stock of 6 or
 * more is spent, so at most 5 + 2. With `none` and k >= 2 markers per attack roll, k >= 2 leave on
 * each attack at least as many as a result can place.
 */
export function unlimitedMarkerLimit(
  policy: Policy,
  startMarkers: number,
  attackRollMarkers: number,
  cap: number,
): { limit: number; hoarding: boolean } {
  let natural: number;
  let hoarding = false;
  if (policy === 'none' && attackRollMarkers === 0) natural = 0;
  else if (policy === 'all' || (policy === 'none' && attackRollMarkers >= 2)) natural = Math.max(startMarkers, 2);
  else if (policy === 'bloodbath') natural = Math.max(startMarkers, bloodbathCost(false) + 1);
  else {
    natural = Math.max(startMarkers, UNLIMITED_HOARD_LIMIT);
    hoarding = true;
  }
  if (natural >= cap) return { limit: cap, hoarding: false };
  return { limit: natural, hoarding };
}
