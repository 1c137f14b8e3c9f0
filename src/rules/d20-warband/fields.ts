import type { ScenarioOf } from '../../model/types.js';
import type { D20WarbandRules } from './rule-spec.js';
import { booleanField, choiceField, integerField, integerOrField, numberField } from '../../model/fields.js';
import { ATTACK_TYPES, DASH, INJURY_TIMINGS, TARGET_STATES } from './tables.js';
import { turnsFields } from './sequence/fields.js';
import { DUEL_KIND } from '../duel-report.js';
import { d20DuelFields } from './duel/fields.js';

/** The kinds that roll a d20 of their own (check, attack...): every kind but the duel, whose sides roll. */
export const ROLLING_KINDS = ['check', 'attack', 'injury-roll', 'fall', 'turns'] as const;
/** Every kind: the rolling kinds and the duel, two units making attack actions on each other (duel/fields.ts). */
export const ALL_KINDS = [...ROLLING_KINDS, DUEL_KIND] as const;
const STAT_KINDS = ['check', 'attack', 'turns'] as const;
/** The attack fields; `turns` makes one such attack action per turn (sequence/fields.ts). A duel's side takes those that belong to a unit (duel/sides.ts). */
const ATTACK = ['attack', 'turns'] as const;
/** How an attack action reads the rules: in a duel both units' actions read them alike, at the top level (ruling DW2). */
const ATTACK_READING = [...ATTACK, DUEL_KIND] as const;

/** Stats are 1-20 (rolled on a d20); Defence-style stats may be "-" (stats file, Stats with Dashes). */
const STAT_RANGE = { minimum: 1, maximum: 20, words: [DASH] } as const;
/** Modifiers beyond +-20 move every check to its natural-roll limits, so larger ones change nothing. */
const MODIFIER_RANGE = { minimum: -20, maximum: 20 } as const;
/** Injury and Pierce are modifiers; "-" means no modifier (stats file, Stats with Dashes). */
const DASHABLE_MODIFIER_RANGE = { minimum: -20, maximum: 20, words: [DASH] } as const;

export const d20WarbandFields = [
  integerOrField('stat', {
    common: true,
    // A weapon profile is the attacker's side: it may carry its wielder's Melee or Ranged stat ("MODEL with WEAPON").
    profile: 'weapon',
    ...STAT_RANGE,
    description: 'The stat checked (check: any stat, "-" for a Defence of "-"; attack: the Melee or Ranged stat, 1-20). Lower is better',
    default: 10,
    kinds: STAT_KINDS,
  }),
  integerField('modifier', {
    common: true,
    ...MODIFIER_RANGE,
    description: 'check and attack: improvement to the stat for this check (+2 turns Mel 10 into Mel 8); injury-roll and fall: added to the d20 roll',
    default: 0,
    kinds: ROLLING_KINDS,
  }),
  booleanField('advantage', {
    common: true,
    description: 'Roll 2d20 and keep the higher (attack: the attacker; cancels with disadvantage)',
    default: false,
    kinds: ROLLING_KINDS,
  }),
  booleanField('disadvantage', {
    common: true,
    description: 'Roll 2d20 and keep the lower (attack: the attacker; cancels with advantage)',
    default: false,
    kinds: ROLLING_KINDS,
  }),
  choiceField('attackType', {
    profile: 'weapon',
    description: 'Melee or ranged attack (decides which injured-target rules apply)',
    values: ATTACK_TYPES,
    default: 'melee',
    kinds: ATTACK,
  }),
  integerField('attacks', {
    common: true,
    profile: 'weapon',
    description: "The attacker's Attacks: one Melee or Ranged check per attack, before critical hits add more",
    minimum: 1,
    maximum: 10,
    default: 1,
    kinds: ATTACK,
  }),
  integerOrField('injury', {
    common: true,
    profile: 'weapon',
    ...DASHABLE_MODIFIER_RANGE,
    description: 'Injury modifier added to the kept attack roll for the Injury Check only ("-" means none)',
    default: 0,
    kinds: ATTACK,
  }),
  integerOrField('pierce', {
    common: true,
    profile: 'weapon',
    ...DASHABLE_MODIFIER_RANGE,
    description: "Pierce: worsens the target's Defence check by this much (negative improves it; \"-\" means none)",
    default: 0,
    kinds: ATTACK,
  }),
  booleanField('explode', {
    description: 'A natural 20 on an attack is a critical hit that grants one more attack (which can explode again)',
    default: true,
    kinds: ATTACK,
  }),
  integerOrField('defence', {
    common: true,
    profile: 'model',
    ...STAT_RANGE,
    description: 'The target\'s Defence stat, 1-20, or "-" (no Defence: every hit gets through unless improved)',
    default: 10,
    kinds: ATTACK,
  }),
  integerField('defenceModifier', {
    profile: 'model',
    ...MODIFIER_RANGE,
    description: "Improvement to the target's Defence for its Defence checks (+1 turns Def 10 into 9, and \"-\" into 20)",
    default: 0,
    kinds: ATTACK,
  }),
  integerField('wounds', {
    common: true,
    profile: 'model',
    description: 'Wounds the target has left: each hit that gets through costs one, and the Injury Check comes at 0',
    minimum: 0,
    maximum: 10,
    default: 1,
    kinds: ATTACK,
  }),
  choiceField('state', {
    description: "The target's injury state before the attack",
    values: TARGET_STATES,
    default: 'none',
    kinds: ATTACK,
  }),
  choiceField('injuryTiming', {
    description: 'When an injury from one attack affects the later attacks of the same action: next-attack (at once) or end-of-action',
    values: INJURY_TIMINGS,
    default: 'next-attack',
    kinds: ATTACK_READING,
  }),
  booleanField('staggerPersists', {
    description: 'A target that starts Staggered keeps its Defence disadvantage for the whole action, even once a worse injury replaces Staggered',
    default: true,
    kinds: ATTACK_READING,
  }),
  booleanField('stunnedDefends', {
    description: 'A Stunned target still makes Defence checks against ranged attacks',
    default: true,
    kinds: ATTACK,
  }),
  booleanField('attackModifierToInjury', {
    description: 'The attack check modifier also counts toward the Injury Check (by default only the d20 and Injury do)',
    default: false,
    kinds: ATTACK_READING,
  }),
  // The injury file's own falling example is a fall of 3".
  numberField('heightInches', {
    steps: true,
    common: true,
    description: 'Height of the fall in inches: +2 to the Injury Roll per full inch above 2',
    minimum: 0,
    maximum: 100,
    default: 3,
    kinds: ['fall'],
  }),
  ...turnsFields,
  ...d20DuelFields,
] as const;

export type D20WarbandKind = (typeof ALL_KINDS)[number];

/** A validated d20 warband scenario of one kind (or of any kind), typed from the field declarations above. */
export type D20WarbandScenario<K extends D20WarbandKind = D20WarbandKind> = K extends D20WarbandKind
  ? ScenarioOf<'d20-warband', string, typeof d20WarbandFields, K, D20WarbandRules>
  : never;

/** The kinds of one action (every kind but turns and the duel, which repeat the attack kind's action). */
export type OneActionKind = Exclude<D20WarbandKind, 'turns' | typeof DUEL_KIND>;
