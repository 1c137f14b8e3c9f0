/**
 * Rule tables of a sequence of attacks (Trench Crusade `sequence` kind): the policies, the marker cap and
 * the few numbers the exact chain and the simulator both read. Like ../tables.ts, nothing here computes
 * a probability, so sharing it does not make the two engines depend on each other.
 */
import type { TrenchCrusadeRules } from '../rule-spec.js';

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

/** Most attack rolls one action of an AUTOMATIC or CLEAVE weapon makes. */
export const MAX_ATTACKS_PER_ACTION = 10;

/** Most markers a scenario may start with, or spend on one attack roll. */
export const MAX_START_MARKERS = 20;

/**
 * Blood markers per model: the table's `markers.cap` is the default of the field (playtest 6, "maximum
 * six per model"; the other editions name none). `markerCap: "none"` means no cap.
 */
export const MAX_MARKER_CAP = 100;
export const NO_CAP = 'none';

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

/** Blood markers a Bloodbath costs against a target that is Down or not; Infinity where there is no Bloodbath. */
export function bloodbathCost(rules: TrenchCrusadeRules, targetDown: boolean): number {
  if (!rules.bloodbath.available) return Number.POSITIVE_INFINITY;
  return targetDown ? rules.bloodbath.costAgainstDown : rules.bloodbath.cost;
}

/**
 * The most blood markers one injury roll can place: the largest a result places (a Down on a model
 * already Down, in the rules) times the weapon's multiplier (`times`, ruling T36), plus the weapon's
 * FIRE, GAS and SHRAPNEL markers (`extra`).
 */
export function mostMarkersPlaced(rules: TrenchCrusadeRules, extra: number, times: number): number {
  return Math.max(rules.markers.minorHit, rules.markers.down, rules.markers.downAgain) * times + extra;
}

/**
 * Markers each injury-table row places (no effect, minor hit, down, out of action) on a target Down
 * (d 1) or not, the result's own multiplied by `times` (ruling T36), with the weapon's `extra` markers after every roll the target survives.
 */
export function markersByRow(rules: TrenchCrusadeRules, d: number, extra: number, times: number): readonly [number, number, number, number] {
  return [extra, rules.markers.minorHit * times + extra, (d === 1 ? rules.markers.downAgain : rules.markers.down) * times + extra, 0];
}

/** The cap as a number (Infinity for none). */
export function markerCapOf(cap: number | string): number {
  return cap === NO_CAP ? Number.POSITIVE_INFINITY : (cap as number);
}

/**
 * Does a miss end the rest of its string? Only a RISKY weapon with more than one roll per action has
 * a string to end; the string is then the activation (checkSequence makes sure).
 */
export function riskyStrings(s: { readonly risky: boolean; readonly attacksPerAction: number }): boolean {
  return s.risky && s.attacksPerAction > 1;
}

/** Attacks in one activation of the attacker; 0 when the whole sequence is one activation. */
export function attacksPerActivationOf(value: number | string): number {
  return value === ONE_ACTIVATION ? 0 : (value as number);
}

/**
 * Markers the unlimited chain tracks: the largest number the policy can ever leave on the target, or
 * the hoarding limit. Under `none` without attack-roll spending the markers never change a roll, so
 * the chain does not track them at all (0). With `all` every injury roll spends them, leaving at most
 * what one roll places, P (2 in the rules: a Down on a model already Down; more with FIRE and the like), or the starting stock,
 * before the first hit. With `bloodbath` a stock of the larger cost C or more is spent, so at most
 * C - 1 + P (5 + 2). With `none` and k >= P markers per attack roll, each attack spends at least as
 * many as a result can place.
 */
export function unlimitedMarkerLimit(
  rules: TrenchCrusadeRules,
  policy: Policy,
  startMarkers: number,
  attackRollMarkers: number,
  cap: number,
  extra: number,
  times: number,
): { limit: number; hoarding: boolean } {
  const placed = mostMarkersPlaced(rules, extra, times);
  let natural: number;
  let hoarding = false;
  if (policy === 'none' && attackRollMarkers === 0) natural = 0;
  else if (policy === 'all' || (policy === 'none' && attackRollMarkers >= placed)) natural = Math.max(startMarkers, placed);
  else if (policy === 'bloodbath') {
    const cost = Math.max(rules.bloodbath.cost, rules.bloodbath.costAgainstDown);
    natural = Math.max(startMarkers, cost - 1 + placed);
  } else {
    natural = Math.max(startMarkers, UNLIMITED_HOARD_LIMIT);
    hoarding = true;
  }
  if (natural >= cap) return { limit: cap, hoarding: false };
  return { limit: natural, hoarding };
}
