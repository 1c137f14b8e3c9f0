import { booleanField, choiceField, integerField, integerOrField } from '../../../model/fields.js';
import type { GivenFields } from '../../../model/types.js';
import type { TrenchCrusadeRules } from '../rule-spec.js';
import { DUEL_KIND } from '../../duel-report.js';
import {
  BLESSING_POLICIES,
  DEFAULT_ATTACKS,
  MAX_ATTACKS,
  MAX_ATTACKS_PER_ACTION,
  MAX_MARKER_CAP,
  MAX_START_MARKERS,
  MIN_ATTACKS,
  NO_CAP,
  ONE_ACTIVATION,
  POLICIES,
} from './rules.js';

export const SEQUENCE_KIND = 'sequence';

/** Fields only the `sequence` kind reads; it also reads the attack fields (see ../fields.ts). */
export const sequenceFields = [
  integerField('attacks', {
    common: true,
    description: 'Attacks in the sequence (N); the sequence ends early when the target goes Out of Action',
    minimum: MIN_ATTACKS,
    maximum: MAX_ATTACKS,
    default: DEFAULT_ATTACKS,
    kinds: [SEQUENCE_KIND],
  }),
  choiceField('policy', {
    common: true,
    description: "How the attacker spends the target's blood markers on injury rolls: none, all (every marker as +1 injury dice), bloodbath (6, or 3 if Down, for a Bloodbath when possible), optimal (the spending that maximises the chance of Out of Action within N attacks)",
    values: POLICIES,
    default: 'none',
    kinds: [SEQUENCE_KIND],
  }),
  choiceField('blessingPolicy', {
    played: true,
    description: 'How the target spends its blessing markers (core): none, or all of them on the first injury roll against it',
    values: BLESSING_POLICIES,
    default: 'none',
    kinds: [SEQUENCE_KIND],
  }),
  integerField('bloodMarkers', {
    common: true,
    description: 'Blood markers on the target when the sequence starts',
    minimum: 0,
    maximum: MAX_START_MARKERS,
    default: 0,
    kinds: [SEQUENCE_KIND],
  }),
  integerField('blessingMarkers', {
    description: 'Blessing markers the target holds when the sequence starts (core)',
    minimum: 0,
    maximum: MAX_START_MARKERS,
    default: 0,
    kinds: [SEQUENCE_KIND],
  }),
  integerField('attacksPerAction', {
    profile: 'weapon',
    description: 'AUTOMATIC N, CLEAVE N: attack rolls the weapon makes in one action, a string (attacksPerActivation defaults to it); `attacks` still counts rolls',
    minimum: 1,
    maximum: MAX_ATTACKS_PER_ACTION,
    default: 1,
    kinds: [SEQUENCE_KIND],
  }),
  booleanField('risky', {
    profile: 'weapon',
    description: "RISKY: in a string of several attacks in one action, the first missed success roll ends the string; the string's other rolls are lost",
    default: false,
    kinds: [SEQUENCE_KIND],
  }),
  integerField('regenerate', {
    stacks: true,
    profile: 'model',
    description: 'REGENERATE N: the target removes N blood markers at the start of its own activation, between the attacker\'s activations (see attacksPerActivation)',
    minimum: 0,
    maximum: MAX_START_MARKERS,
    default: 0,
    kinds: [SEQUENCE_KIND],
  }),
  integerOrField('attacksPerActivation', {
    description: 'Attacks per activation of the attacker; a Down target stands up between activations ("all": one activation; default: all, or N for a weapon of N attacks per action)',
    minimum: 1,
    maximum: MAX_ATTACKS,
    words: [ONE_ACTIVATION],
    // An AUTOMATIC N or CLEAVE N weapon spends an activation on one string of N rolls (issue "Real warbands").
    default: (_rules: TrenchCrusadeRules, given: GivenFields) =>
      typeof given.attacksPerAction === 'number' && given.attacksPerAction > 1 ? given.attacksPerAction : ONE_ACTIVATION,
    kinds: [SEQUENCE_KIND],
  }),
  integerField('attackRollMarkers', {
    description: 'Playtest: blood markers the attacker spends on each attack roll, +1 dice each, before the policy spends the rest on the injury roll (with policy optimal, the most it may spend there)',
    minimum: 0,
    maximum: MAX_START_MARKERS,
    default: 0,
    kinds: [SEQUENCE_KIND],
  }),
  integerOrField('markerCap', {
    description: 'Most blood markers a model can carry, more being lost (playtest: 6, "maximum six per model"; other editions: none)',
    minimum: 0,
    maximum: MAX_MARKER_CAP,
    words: [NO_CAP],
    default: (rules: TrenchCrusadeRules) => rules.markers.cap ?? NO_CAP,
    kinds: [SEQUENCE_KIND, DUEL_KIND],
  }),
] as const;
