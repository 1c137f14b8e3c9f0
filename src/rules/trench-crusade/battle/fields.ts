import { booleanField, choiceField, integerField, numberField, textField } from '../../../model/fields.js';
import type { FieldsOf } from '../../../model/types.js';
import { BATTLE_BLOOD_POLICIES, BATTLE_INITIATIVES, BATTLE_KIND, BATTLE_MORALE_LOSSES, BATTLE_STAND_UP_RULES, BATTLE_TACTICS, BATTLE_TURN_EXTENSIONS, BATTLE_VICTORY_RULES } from './kind.js';

export const MAX_BATTLE_TURNS = 10;
export const DEFAULT_BATTLE_TURNS = 6;
export const MAX_START_INCHES = 72;
/** The campaign's Field Strength at its twelfth battle (trench-companion's Campaign Limits Table), and any cap a scenario sets below it. */
export const MAX_FIELD_STRENGTH = 22;
/** Ducats a side may be fielded at: far above any game's (some 700 to 1,500). */
export const MAX_DUCATS = 100_000;

/**
 * A battle's settings, declared once: `injury-lab battle`'s flags, its --help and the messages that
 * refuse a bad value all come from here. The rulings they set are docs/rules.md's B1-B49.
 */
export const battleFields = [
  integerField('turns', {
    description: 'Turns of the game (ruling B1); a game still on after them is won on victory points',
    minimum: 1,
    maximum: MAX_BATTLE_TURNS,
    default: DEFAULT_BATTLE_TURNS,
    kinds: [BATTLE_KIND],
  }),
  numberField('startInches', {
    description: 'Inches between the two deployment lines at the start (ruling B36); 1 or less: every model starts in contact with every enemy',
    minimum: 0,
    maximum: MAX_START_INCHES,
    default: 24,
    kinds: [BATTLE_KIND],
  }),
  choiceField('initiative', {
    description: 'Who activates first each turn: rules (the side with fewer standing models, a roll-off on a tie; ruling B4), or a or b always',
    values: BATTLE_INITIATIVES,
    default: 'rules',
    kinds: [BATTLE_KIND],
  }),
  booleanField('morale', {
    description: 'Morale checks decide games (ruling B33): a side with half its models Down or Out of Action checks at the end of each turn, and two failures in a row lose',
    default: true,
    kinds: [BATTLE_KIND],
  }),
  choiceField('moraleLoss', {
    description: 'When failed morale checks lose the game (ruling B33): two-in-a-row (v1.0: two failures in consecutive Morale phases) or first-failure (the playtest Trench Warfare scenario: the first failure); with morale false, never',
    values: BATTLE_MORALE_LOSSES,
    default: 'two-in-a-row',
    kinds: [BATTLE_KIND],
  }),
  numberField('coverChance', {
    description: 'The chance that a shot\'s target is in cover, -1 DICE (ruling B43)',
    minimum: 0,
    maximum: 1,
    default: 0,
    kinds: [BATTLE_KIND],
  }),
  numberField('elevationChance', {
    description: 'The chance that a shooter is elevated above its target, +1 DICE (ruling B43)',
    minimum: 0,
    maximum: 1,
    default: 0,
    kinds: [BATTLE_KIND],
  }),
  choiceField('victory', {
    description: 'How a game that reaches its last turn is won (ruling B35): points (the victory points of the enemies taken Out of Action, each its cost / 10 rounded up) or models (more models not Out of Action); equal is a draw',
    values: BATTLE_VICTORY_RULES,
    default: 'points',
    kinds: [BATTLE_KIND],
  }),
  choiceField('turnExtension', {
    description: 'Whether the game may end before its last turn (ruling B2): none, or d6-ends-on-1-2-after-turn-4 (at the end of turn 4 and of each turn after it, a D6 of 1 or 2 ends the game, as the playtest Trench Warfare scenario)',
    values: BATTLE_TURN_EXTENSIONS,
    default: 'none',
    kinds: [BATTLE_KIND],
  }),
  choiceField('standUp', {
    description: 'What a Down model standing up at its activation costs (ruling B9): half-move (v1.0: its Movement halved, charges included) or half-move-minus-dice (the playtest: also -1 DICE on its success rolls that activation)',
    values: BATTLE_STAND_UP_RULES,
    default: 'half-move',
    kinds: [BATTLE_KIND],
  }),
  integerField('fieldStrength', {
    description: 'The campaign\'s Maximum Field Strength (ruling B49): each side fields at most this many models, the first in warband order (10 at a campaign\'s first battle, 11 at its second, ...); 0: no limit',
    minimum: 0,
    maximum: MAX_FIELD_STRENGTH,
    default: 0,
    kinds: [BATTLE_KIND],
  }),
  numberField('ducats', {
    description: 'Field each side at equal ducats, as BookOfWar fields each unit at equal points: its one entry as many times as these ducats buy at its cost per model (its model\'s and weapons\', a roster\'s model with its kit); 0: the counts as written',
    minimum: 0,
    maximum: MAX_DUCATS,
    default: 0,
    kinds: [BATTLE_KIND],
  }),
] as const;

/** Each side's own settings: `--a-tactic`, `--b-blood`, ... */
export const battleSideFields = [
  choiceField('tactic', {
    played: true,
    description: 'The side\'s plan (rulings B40-B42, B45, B48): advance (move up and shoot; models without a ranged weapon charge), hold (shooters stay and shoot; the rest charge only what they reach), charge (every model charges the nearest enemy), charge-weakest (every model charges the weakest enemy its charge can reach: a Down one first, then the one with most blood markers, then the nearest), skirmish (as advance, but a model with a ranged weapon that starts its activation in melee Retreats, each enemy engaged with it making one melee attack first, and then shoots; ruling B48)',
    values: BATTLE_TACTICS,
    default: 'advance',
    kinds: [BATTLE_KIND],
  }),
  choiceField('blood', {
    played: true,
    description: 'What the side does with the blood markers on its enemies (ruling B31): injury (all of them as +1 injury dice on each injury roll it makes), hinder (all of them off the marked model\'s next success roll) or none',
    values: BATTLE_BLOOD_POLICIES,
    default: 'injury',
    kinds: [BATTLE_KIND],
  }),
] as const;

/** A battle's game settings by name, typed from their declarations: the plan, the resolved battle and the command's settings take them. */
export type BattleGameSettings = FieldsOf<typeof battleFields>;

/** The longest warband a battle scenario's side may write: some 60 entries of 50 characters. */
export const MAX_WARBAND_CHARS = 3000;

/**
 * A battle scenario's side (`"a": {"warband": "...", "tactic": "charge"}`, `--a "warband=...,tactic=charge"`):
 * its warband, and its own settings as `injury-lab battle` declares them.
 */
export const battleKindSideFields = [
  textField('warband', {
    description: 'The side\'s warband: entries of the scenario\'s profiles, roster or catalogues separated by commas, each "MODEL with WEAPON + WEAPON xCOUNT"',
    maxLength: MAX_WARBAND_CHARS,
    example: 'Trench Pilgrim with Rifle x6, Castigator with Great Hammer/Maul',
    default: '',
    kinds: [BATTLE_KIND],
  }),
  ...battleSideFields,
] as const;
