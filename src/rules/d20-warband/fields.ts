import type { FieldSpec } from '../../model/types.js';
import { ATTACK_TYPES, DASH, INJURY_TIMINGS, TARGET_STATES } from './tables.js';
import { turnsFields } from './turns/fields.js';

const ROLLING_KINDS = ['check', 'attack', 'injury-roll', 'fall', 'turns'] as const;
const STAT_KINDS = ['check', 'attack', 'turns'] as const;
/** The attack fields; `turns` makes one such attack action per turn (turns/fields.ts). */
const ATTACK = ['attack', 'turns'] as const;

/** Stats are 1-20 (rolled on a d20); Defence-style stats may be "-" (stats file, Stats with Dashes). */
const STAT_SCHEMA = { type: 'integer-or', minimum: 1, maximum: 20, words: [DASH] } as const;
/** Modifiers beyond +-20 move every check to its natural-roll limits, so larger ones change nothing. */
const MODIFIER_SCHEMA = { type: 'integer', minimum: -20, maximum: 20 } as const;
/** Injury and Pierce are modifiers; "-" means no modifier (stats file, Stats with Dashes). */
const DASHABLE_MODIFIER_SCHEMA = { type: 'integer-or', minimum: -20, maximum: 20, words: [DASH] } as const;

export const d20WarbandFields: readonly FieldSpec[] = [
  {
    name: 'stat',
    description:
      'The stat checked (check: any stat, "-" for a Defence of "-"; attack: the Melee or Ranged stat, 1-20). Lower is better',
    schema: STAT_SCHEMA,
    default: 10,
    kinds: STAT_KINDS,
  },
  {
    name: 'modifier',
    description:
      'check and attack: improvement to the stat for this check (+2 turns Mel 10 into Mel 8); injury-roll and fall: added to the d20 roll',
    schema: MODIFIER_SCHEMA,
    default: 0,
    kinds: ROLLING_KINDS,
  },
  {
    name: 'advantage',
    description: 'Roll 2d20 and keep the higher (attack: the attacker; cancels with disadvantage)',
    schema: { type: 'boolean' },
    default: false,
    kinds: ROLLING_KINDS,
  },
  {
    name: 'disadvantage',
    description: 'Roll 2d20 and keep the lower (attack: the attacker; cancels with advantage)',
    schema: { type: 'boolean' },
    default: false,
    kinds: ROLLING_KINDS,
  },
  {
    name: 'attackType',
    description: 'Melee or ranged attack (decides which injured-target rules apply)',
    schema: { type: 'string', enum: ATTACK_TYPES },
    default: 'melee',
    kinds: ATTACK,
  },
  {
    name: 'attacks',
    description: "The attacker's Attacks: one Melee or Ranged check per attack, before critical hits add more",
    schema: { type: 'integer', minimum: 1, maximum: 10 },
    default: 1,
    kinds: ATTACK,
  },
  {
    name: 'injury',
    description: 'Injury modifier added to the kept attack roll for the Injury Check only ("-" means none)',
    schema: DASHABLE_MODIFIER_SCHEMA,
    default: 0,
    kinds: ATTACK,
  },
  {
    name: 'pierce',
    description: "Pierce: worsens the target's Defence check by this much (negative improves it; \"-\" means none)",
    schema: DASHABLE_MODIFIER_SCHEMA,
    default: 0,
    kinds: ATTACK,
  },
  {
    name: 'explode',
    description: 'A natural 20 on an attack is a critical hit that grants one more attack (which can explode again)',
    schema: { type: 'boolean' },
    default: true,
    kinds: ATTACK,
  },
  {
    name: 'defence',
    description: 'The target\'s Defence stat, 1-20, or "-" (no Defence: every hit gets through unless improved)',
    schema: STAT_SCHEMA,
    default: 10,
    kinds: ATTACK,
  },
  {
    name: 'defenceModifier',
    description: "Improvement to the target's Defence for its Defence checks (+1 turns Def 10 into 9, and \"-\" into 20)",
    schema: MODIFIER_SCHEMA,
    default: 0,
    kinds: ATTACK,
  },
  {
    name: 'wounds',
    description: 'Wounds the target has left: each hit that gets through costs one, and the Injury Check comes at 0',
    schema: { type: 'integer', minimum: 0, maximum: 10 },
    default: 1,
    kinds: ATTACK,
  },
  {
    name: 'state',
    description: "The target's injury state before the attack",
    schema: { type: 'string', enum: TARGET_STATES },
    default: 'none',
    kinds: ATTACK,
  },
  {
    name: 'injuryTiming',
    description:
      'When an injury from one attack affects the later attacks of the same action: next-attack (at once) or end-of-action',
    schema: { type: 'string', enum: INJURY_TIMINGS },
    default: 'next-attack',
    kinds: ATTACK,
  },
  {
    name: 'staggerPersists',
    description:
      'A target that starts Staggered keeps its Defence disadvantage for the whole action, even once a worse injury replaces Staggered',
    schema: { type: 'boolean' },
    default: true,
    kinds: ATTACK,
  },
  {
    name: 'stunnedDefends',
    description: 'A Stunned target still makes Defence checks against ranged attacks',
    schema: { type: 'boolean' },
    default: true,
    kinds: ATTACK,
  },
  {
    name: 'attackModifierToInjury',
    description: 'The attack check modifier also counts toward the Injury Check (by default only the d20 and Injury do)',
    schema: { type: 'boolean' },
    default: false,
    kinds: ATTACK,
  },
  {
    name: 'heightInches',
    description: 'Height of the fall in inches: +2 to the Injury Roll per full inch above 2',
    schema: { type: 'number', minimum: 0, maximum: 100 },
    // The injury file's own falling example is a fall of 3".
    default: 3,
    kinds: ['fall'],
  },
  ...turnsFields,
];
