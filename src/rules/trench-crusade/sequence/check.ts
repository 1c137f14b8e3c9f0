import { showValue } from '../../../errors.js';
import { EDITION_SOURCES } from '../tables.js';
import type { SequenceScenario } from './model.js';
import { markerCapOf, riskyStrings } from './rules.js';

/** Combinations a sequence cannot have; one user-facing line naming the field, or undefined. */
export function checkSequence(s: SequenceScenario): string | undefined {
  const edition = s.edition;
  const file = EDITION_SOURCES[edition].source;
  if (s.policy === 'bloodbath' && !s.rules.bloodbath.available) {
    return `policy: "bloodbath" is not a policy of the ${edition} edition (${file} has no Bloodbath; rule bloodbath.available is false); allowed: none, all, optimal`;
  }
  if (s.blessingPolicy !== 'none' && !s.rules.blessings.available) {
    return `blessingPolicy: ${showValue(s.blessingPolicy)} is not a policy of the ${edition} edition (Blessing Markers are a core rule, 004_8876b2fc69d19d53.txt; rule blessings.available is false); allowed: none`;
  }
  if (s.blessingMarkers > 0 && !s.rules.blessings.available) {
    return `blessingMarkers: ${showValue(s.blessingMarkers)} is not allowed in the ${edition} edition (Blessing Markers are a core rule, 004_8876b2fc69d19d53.txt; rule blessings.available is false); allowed: 0`;
  }
  if (s.attackRollMarkers > 0 && !s.rules.markers.onAttackRoll) {
    return `attackRollMarkers: ${showValue(s.attackRollMarkers)} is not allowed in the ${edition} edition (only the playtest chart, 002_a737ac1d047c7862.txt, lets blood markers add dice to the attack roll); allowed: 0`;
  }
  if (riskyStrings(s) && s.attacksPerActivation !== s.attacksPerAction) {
    return `attacksPerActivation: ${showValue(s.attacksPerActivation)} cannot be combined with a RISKY weapon of ${s.attacksPerAction} attacks per action (its string is one activation); allowed: ${s.attacksPerAction}`;
  }
  const cap = markerCapOf(s.markerCap);
  if (s.bloodMarkers > cap) {
    return `bloodMarkers: ${showValue(s.bloodMarkers)} is more than the marker cap (markerCap ${showValue(s.markerCap)}); allowed: 0 to ${cap}`;
  }
  return undefined;
}
