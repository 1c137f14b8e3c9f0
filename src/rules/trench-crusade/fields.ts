import { booleanField, choiceField, integerField, integerOrField, numberField } from '../../model/fields.js';
import type { ScenarioOf } from '../../model/types.js';
import {
  ARMOURS,
  ATTACK_TYPES,
  BLOODBATH_DIES,
  CRITICAL_ON,
  DEADLY_BLOODBATH_KEEP_MAX,
  DEADLY_BLOODBATH_KEEP_MIN,
  DOWN_BONUSES,
  MAX_MARKERS_PER_KIND,
  MODIFIER_CAPS,
  TARGET_ATTACK_DICE_APPLIES,
  type Edition,
} from './tables.js';
import type { TrenchCrusadeRules } from './rule-spec.js';
import { sequenceFields } from './sequence/fields.js';
import { DUEL_KIND } from '../duel-report.js';
import { duelFields } from './duel/fields.js';
import { battleFields } from './battle/fields.js';
import { BATTLE_KIND, DEFAULT_MOVEMENT_INCHES, MAX_MOVEMENT_INCHES, MAX_RANGE_INCHES } from './battle/kind.js';

/** Kinds that make an injury roll (every kind in this system; sequences extend this list). */
export const INJURY_KINDS = ['injury', 'attack', 'fall', 'sequence'] as const;
const ATTACKING_KINDS = ['injury', 'attack', 'sequence'] as const;
/** Every kind: the injury kinds, the duel, whose sides make the injury rolls (duel/fields.ts), and the battle of two warbands (battle/fields.ts). */
export const ALL_KINDS = [...INJURY_KINDS, DUEL_KIND, BATTLE_KIND] as const;
/** Spending on one roll; a sequence spends by its policies instead (sequence/fields.ts). */
const ONE_ROLL_KINDS = ['injury', 'attack', 'fall'] as const;
/** Kinds that make a success roll (a duel's sides take the sequence's fields: duel/sides.ts). */
const SUCCESS_ROLL_KINDS = ['attack', 'sequence'] as const;



export const trenchCrusadeFields = [
  integerField('injuryDice', {
    common: true,
    stacks: true,
    profile: 'weapon',
    description: 'Net +/- injury dice from the weapon, abilities and keywords (+ and - cancel one for one)',
    minimum: -10,
    maximum: 10,
    default: 0,
    kinds: INJURY_KINDS,
  }),
  integerField('injuryModifier', {
    common: true,
    stacks: true,
    profile: 'weapon',
    description: "Flat +/- injury modifier from the attacker's weapon, abilities and keywords",
    minimum: -10,
    maximum: 10,
    default: 0,
    kinds: INJURY_KINDS,
  }),
  integerField('targetInjuryModifier', {
    stacks: true,
    profile: 'model',
    description: "Further -injury modifier from the target's abilities or battlekit, beyond armour and shield",
    minimum: -10,
    maximum: 0,
    default: 0,
    kinds: INJURY_KINDS,
  }),
  integerField('targetInjuryDice', {
    stacks: true,
    profile: 'model',
    description: 'Injury dice that injury rolls against the target get from its own abilities ("-1 INJURY DICE"), netted with the others',
    minimum: -3,
    maximum: 3,
    default: 0,
    kinds: INJURY_KINDS,
  }),
  choiceField('armour', {
    common: true,
    profile: 'model',
    description: "The target's armour",
    values: ARMOURS,
    default: 'none',
    kinds: INJURY_KINDS,
  }),
  booleanField('shield', {
    common: true,
    profile: 'model',
    description: 'The target carries a Trench Shield (-1 injury modifier)',
    default: false,
    kinds: INJURY_KINDS,
  }),
  choiceField('modifierCap', {
    description: 'How the -3 limit on injury modifiers applies: to the sum of negative modifiers before positives are added (negative), to the net total (net), or not at all (none)',
    values: MODIFIER_CAPS,
    default: (rules: TrenchCrusadeRules) => rules.modifierCap.appliesTo,
    kinds: [...INJURY_KINDS, DUEL_KIND],
  }),
  integerField('bloodMarkersSpent', {
    common: true,
    description: 'Blood markers the attacker spends on this injury roll, +1 injury dice each',
    minimum: 0,
    maximum: 20,
    default: 0,
    kinds: ONE_ROLL_KINDS,
  }),
  integerField('blessingMarkersSpent', {
    description: 'Blessing markers the target spends on this injury roll, -1 injury dice each (core edition)',
    minimum: 0,
    maximum: 20,
    default: 0,
    kinds: ONE_ROLL_KINDS,
  }),
  booleanField('bloodbath', {
    description: 'The attacker converts the injury roll to a Bloodbath (playtest, core): a 3-dice starting pool, 3 kept (playtest: see bloodbathDie)',
    default: false,
    kinds: ONE_ROLL_KINDS,
  }),
  // Sequences make Bloodbaths by policy, so they read it too; a fall has no playtest rule to choose for.
  choiceField('bloodbathDie', {
    description: 'Playtest Bloodbath: pooled (3 dice in the starting pool, injury dice added, 3 kept: the chart\'s rule for rolls of more than 2D6) or separate (2 dice kept as usual, then a D6 added); core and comprehensive: pooled only',
    values: BLOODBATH_DIES,
    default: 'pooled',
    kinds: [...ATTACKING_KINDS, DUEL_KIND],
  }),
  booleanField('deadly', {
    profile: 'weapon',
    description: 'The injury roll has the Deadly keyword: roll 3 dice and keep 3 (core edition)',
    default: false,
    kinds: INJURY_KINDS,
  }),
  integerField('deadlyBloodbathKeep', {
    description: 'Core: dice kept by a Bloodbath roll with the Deadly keyword (the text does not say): 4 (each adds a die to the pool; assumed) or 3 (both are the same 3D6)',
    minimum: DEADLY_BLOODBATH_KEEP_MIN,
    maximum: DEADLY_BLOODBATH_KEEP_MAX,
    default: (rules: TrenchCrusadeRules) => rules.deadly.withBloodbathDice,
    kinds: [...INJURY_KINDS, DUEL_KIND],
  }),
  booleanField('targetDown', {
    description: 'The target is already Down (down bonus dice; a Down result then places 2 blood markers)',
    default: false,
    kinds: INJURY_KINDS,
  }),
  choiceField('downBonus', {
    description: 'Which injury rolls against a Down target get +1 injury dice: melee attacks, any roll, or none',
    values: DOWN_BONUSES,
    default: (rules: TrenchCrusadeRules) => rules.down.bonusApplies,
    kinds: [...INJURY_KINDS, DUEL_KIND],
  }),
  choiceField('attackType', {
    common: true,
    profile: 'weapon',
    description: 'Whether the injury comes from a melee or a ranged attack',
    values: ATTACK_TYPES,
    default: 'melee',
    kinds: ATTACKING_KINDS,
  }),
  numberField('rangeInches', {
    profile: 'weapon',
    description: "A ranged weapon's range in inches (a battle's shots: long range beyond half of it; a roster's or catalogue's Range); 0: none given",
    minimum: 0,
    maximum: MAX_RANGE_INCHES,
    default: 0,
    // A profile's field the battle reads from each entry (src/input/battle-core.ts), never a battle scenario's own.
    kinds: [],
  }),
  booleanField('usableInMelee', {
    profile: 'weapon',
    description: 'A ranged weapon whose Range also says Melee (a pistol\'s 12"/Melee): a battle fights with it in melee too, after the model\'s melee weapons (ruling B47; a roster\'s or catalogue\'s Range)',
    default: false,
    // A profile's field the battle reads from each entry (src/input/battle-core.ts), never a scenario's own.
    kinds: [],
  }),
  numberField('movement', {
    profile: 'model',
    description: "The model's Movement in inches (a battle's Moves and Dashes, and its charges' M + D6; a roster's or catalogue's Movement)",
    minimum: 0,
    maximum: MAX_MOVEMENT_INCHES,
    default: DEFAULT_MOVEMENT_INCHES,
    // A profile's field the battle reads from each entry (src/input/battle-core.ts), never a battle scenario's own.
    kinds: [],
  }),
  booleanField('tough', {
    common: true,
    profile: 'model',
    description: 'The target is Tough: its first Out of Action becomes Down instead',
    default: false,
    kinds: INJURY_KINDS,
  }),
  booleanField('fear', {
    profile: 'model',
    description: 'FEAR: melee attacks against it get the table\'s fear dice (-1) on the success roll, unless the attacker has FEAR too',
    default: false,
    kinds: ['attack', 'sequence'],
  }),
  integerField('targetAttackDice', {
    stacks: true,
    profile: 'model',
    description: 'Dice that success rolls against the target get from its own abilities ("attacks against it get -1 DICE"), for the attacks targetAttackDiceApplies names',
    minimum: -3,
    maximum: 3,
    default: 0,
    kinds: ['attack', 'sequence'],
  }),
  choiceField('targetAttackDiceApplies', {
    profile: 'model',
    description: 'Which attacks against the target its targetAttackDice hinder: both, melee or ranged',
    values: TARGET_ATTACK_DICE_APPLIES,
    default: 'both',
    kinds: ['attack', 'sequence'],
  }),
  booleanField('attackerFear', {
    profile: 'weapon',
    description: 'The attacking model has FEAR (a model\'s keyword, not a weapon\'s: a "MODEL with WEAPON" profile carries it): it is not hindered by a FEAR target',
    default: false,
    kinds: ['attack', 'sequence'],
  }),
  booleanField('impervious', {
    profile: 'model',
    description: "IMPERVIOUS armour: IGNORE ARMOUR does not take the armour's modifier away (the shield's it still does)",
    default: false,
    kinds: INJURY_KINDS,
  }),
  booleanField('golem', {
    profile: 'model',
    description: 'GOLEM: only a Bloodbath injury roll takes it Out of Action; any other Out of Action is a Down (before Tough, which it then does not use)',
    default: false,
    kinds: INJURY_KINDS,
  }),
  booleanField('downBecomesMinor', {
    profile: 'model',
    description: "An armour item's effect (STANDFAST): a Down result of the injury table is a Minor Hit instead (not the Down Tough turns an Out of Action into)",
    default: false,
    kinds: INJURY_KINDS,
  }),
  booleanField('firstOutOfActionNoEffect', {
    profile: 'model',
    description: 'Its first Out of Action result on the Injury Table is a No Effect result instead (a War Prophet\'s, a Chieftain\'s): a save of one Out of Action, as Tough\'s, that leaves it standing; with Tough, not modelled',
    default: false,
    kinds: INJURY_KINDS,
  }),
  booleanField('toughUsed', {
    description: 'The target has already been saved from Out of Action once this battle: by Tough, or its first Out of Action as No Effect (firstOutOfActionNoEffect)',
    default: false,
    kinds: INJURY_KINDS,
  }),
  booleanField('critical', {
    description: 'The hit that caused this injury roll was a critical success',
    default: false,
    kinds: ['injury'],
  }),
  integerField('criticalInjuryDice', {
    profile: 'weapon',
    description: 'Injury dice a critical success adds (comprehensive and core: 1; the playtest chart names none)',
    minimum: 0,
    maximum: 3,
    default: (rules: TrenchCrusadeRules) => rules.critical.injuryDice,
    kinds: ATTACKING_KINDS,
  }),
  integerField('attackDice', {
    common: true,
    stacks: true,
    profile: 'weapon',
    description: 'Net +/- dice on the success roll of the attack',
    minimum: -10,
    maximum: 10,
    default: 0,
    kinds: ['attack', 'sequence'],
  }),
  integerField('attackModifier', {
    common: true,
    stacks: true,
    profile: 'weapon',
    description: 'Flat +/- modifier on the success roll of the attack',
    minimum: -10,
    maximum: 10,
    default: 0,
    kinds: ['attack', 'sequence'],
  }),
  // The Ranged Attack Modifiers of cover and long range (ruling T30) and the profiles that change them (T31).
  booleanField('targetInCover', {
    description: "The target is in cover: a ranged attack's success roll gets the Cover modifier (the target's coverDice, -1 DICE by the rules) unless the weapon has IGNORE COVER; a melee attack's never",
    default: false,
    kinds: SUCCESS_ROLL_KINDS,
  }),
  booleanField('longRange', {
    description: "The target is more than half the weapon's range away: a ranged attack's success roll gets the Long Range modifier (-1 DICE by the rules) unless the weapon has IGNORE LONG RANGE; a melee attack's never",
    default: false,
    kinds: SUCCESS_ROLL_KINDS,
  }),
  booleanField('ignoreCover', {
    profile: 'weapon',
    description: "IGNORE COVER: the weapon's ranged attacks get no Cover modifier against a target in cover (targetInCover)",
    default: false,
    kinds: SUCCESS_ROLL_KINDS,
  }),
  booleanField('ignoreLongRange', {
    profile: 'weapon',
    description: "IGNORE LONG RANGE: the weapon's ranged attacks get no Long Range modifier (longRange)",
    default: false,
    kinds: SUCCESS_ROLL_KINDS,
  }),
  integerField('coverDice', {
    profile: 'model',
    description: "The Cover modifier of ranged attacks against the target when it is in cover (targetInCover): the rules' -1 DICE, or -2 with a cloak that says so",
    minimum: -3,
    maximum: 0,
    default: (rules: TrenchCrusadeRules) => rules.ranged.coverDice,
    kinds: SUCCESS_ROLL_KINDS,
  }),
  integerOrField('coverAndLongRangeDice', {
    profile: 'weapon',
    description: "Dice the weapon's attacks get from each of the Cover and Long Range modifiers that applies, instead of the modifier's own (the target's coverDice included): +1 for a weapon that adds +1 DICE instead of -1, +2 when both apply; usual: the modifiers' own",
    minimum: -3,
    maximum: 3,
    words: ['usual'],
    default: 'usual',
    kinds: SUCCESS_ROLL_KINDS,
  }),
  integerField('injuryDiceInCover', {
    stacks: true,
    profile: 'weapon',
    description: "Injury dice the weapon's injury rolls get against a target in cover (targetInCover), whatever IGNORE COVER says: an Infernal Bomb's -1",
    minimum: -3,
    maximum: 3,
    default: 0,
    kinds: SUCCESS_ROLL_KINDS,
  }),
  booleanField('autoHit', {
    profile: 'weapon',
    description: 'The weapon makes no success roll: every attack hits, none is a critical (a flamethrower)',
    default: false,
    kinds: ['attack', 'sequence'],
  }),
  booleanField('ignoreArmour', {
    profile: 'weapon',
    description: "IGNORE ARMOUR: the target's armour and shield modifiers do not apply to this weapon's injury rolls (its other modifiers do)",
    default: false,
    kinds: ATTACKING_KINDS,
  }),
  booleanField('ignoreArmourOnCritical', {
    profile: 'weapon',
    description: "The target's armour and shield modifiers do not apply to the injury roll of a critical hit (ignoreArmour: always)",
    default: false,
    kinds: ['attack', 'sequence'],
  }),
  booleanField('ignoreArmourIfDown', {
    profile: 'weapon',
    description: "IGNORE ARMOUR against a Down target: the target's armour and shield modifiers do not apply to this weapon's injury rolls while it is Down (a Misericordia)",
    default: false,
    kinds: ATTACKING_KINDS,
  }),
  integerField('injuryDiceIfDown', {
    stacks: true,
    profile: 'weapon',
    description: "Injury dice this weapon adds against a Down target, beyond the rules' own Down bonus (an Anaza Spear's +1)",
    minimum: 0,
    maximum: 3,
    default: 0,
    kinds: ATTACKING_KINDS,
  }),
  integerField('armourPiercing', {
    profile: 'weapon',
    description: "ARMOUR PIERCING N: the armour's negative injury modifier is reduced by N, not below 0 (a shield's is not)",
    minimum: 0,
    maximum: 3,
    default: 0,
    kinds: ATTACKING_KINDS,
  }),
  integerField('fireMarkers', {
    stacks: true,
    profile: 'weapon',
    description: 'FIRE: blood markers the target gains after every injury roll from this weapon, whatever the result, unless it negates fire (negateFire)',
    minimum: 0,
    maximum: MAX_MARKERS_PER_KIND,
    default: 0,
    kinds: ATTACKING_KINDS,
  }),
  integerField('gasMarkers', {
    stacks: true,
    profile: 'weapon',
    description: 'GAS: blood markers the target gains after every injury roll from this weapon, whatever the result, unless it negates gas (negateGas)',
    minimum: 0,
    maximum: MAX_MARKERS_PER_KIND,
    default: 0,
    kinds: ATTACKING_KINDS,
  }),
  integerField('shrapnelMarkers', {
    stacks: true,
    profile: 'weapon',
    description: 'SHRAPNEL: blood markers the target gains after every injury roll from this weapon, whatever the result, unless it negates shrapnel (negateShrapnel)',
    minimum: 0,
    maximum: MAX_MARKERS_PER_KIND,
    default: 0,
    kinds: ATTACKING_KINDS,
  }),
  integerField('extraBloodMarkers', {
    stacks: true,
    profile: 'weapon',
    description: 'Blood markers the target gains after every injury roll from this weapon, whatever the result, that nothing negates (a Khyber Knife: "an additional BLOOD MARKER ... regardless of result")',
    minimum: 0,
    maximum: MAX_MARKERS_PER_KIND,
    default: 0,
    kinds: ATTACKING_KINDS,
  }),
  integerField('armourWhenIgnored', {
    profile: 'model',
    description: "The injury modifier its armour still gives when an attack ignores armour (IGNORE ARMOUR, on a critical, against a Down target): a Runeforged Armour's -1; never more than its own armour's, ARMOUR PIERCING shortening it, the shield still ignored",
    minimum: -3,
    maximum: 0,
    default: 0,
    kinds: ATTACKING_KINDS,
  }),
  booleanField('infectionMarkers', {
    profile: 'weapon',
    description: "INFECTION MARKERS: the markers this weapon's injury roll places are infection markers, which work as blood markers (one attack or one injury roll counts them as such); a model that has any when it is activated gains one more, which a sequence or a duel does not model: there it stops the question (ruling T41)",
    default: false,
    kinds: ATTACKING_KINDS,
    notModelledIn: { kinds: ['sequence', DUEL_KIND], why: 'a model with infection markers gains one more at each of its activations, which is not modelled (ruling T41)' },
  }),
  booleanField('minorAsDown', {
    profile: 'weapon',
    description: "A Minor Hit result of this weapon's injury roll is a Down result instead, markers and all (a Chain Kura); a STANDFAST target then makes that Down a Minor Hit again",
    default: false,
    kinds: ATTACKING_KINDS,
  }),
  booleanField('sixAgainstArmoured', {
    profile: 'weapon',
    description: "Against a target with armour or a shield, one die of this weapon's injury roll is put aside showing a 6 and the rest are rolled; the pool is kept as usual (a Tank-Splitter Sword)",
    default: false,
    kinds: ATTACKING_KINDS,
  }),
  integerField('bloodMarkersMultiplier', {
    profile: 'weapon',
    description: "The blood markers the result of this weapon's injury roll places (a Minor Hit's, a Down's) are multiplied by this (a Demonic Aura Grenade's 2); FIRE, GAS, SHRAPNEL and extraBloodMarkers are not (ruling T36)",
    minimum: 1,
    maximum: 3,
    default: 1,
    kinds: ATTACKING_KINDS,
  }),
  integerField('criticalThreshold', {
    profile: 'weapon',
    description: "Lowest success-roll total that is a critical success for this weapon's attacks, read as criticalOn says (the rules' 12; a Butcher Bayonet's 11); a critical is always a hit (ruling T37)",
    minimum: 2,
    maximum: 24,
    default: (rules: TrenchCrusadeRules) => rules.successRoll.critical,
    kinds: SUCCESS_ROLL_KINDS,
  }),
  booleanField('rerollFailedSuccess', {
    profile: 'weapon',
    description: "A failed success roll of this weapon's attack is rolled again once, with the same dice and modifiers, and the second result stands, a critical included (an Observer's re-roll; ruling T38)",
    default: false,
    kinds: SUCCESS_ROLL_KINDS,
  }),
  booleanField('negateFire', {
    profile: 'model',
    description: 'NEGATE FIRE: the target gains no markers from FIRE (fireMarkers)',
    default: false,
    kinds: ATTACKING_KINDS,
  }),
  booleanField('negateGas', {
    profile: 'model',
    description: 'NEGATE GAS: the target gains no markers from GAS (gasMarkers)',
    default: false,
    kinds: ATTACKING_KINDS,
  }),
  booleanField('negateShrapnel', {
    profile: 'model',
    description: 'NEGATE SHRAPNEL: the target gains no markers from SHRAPNEL (shrapnelMarkers)',
    default: false,
    kinds: ATTACKING_KINDS,
  }),
  choiceField('criticalOn', {
    description: 'What makes a critical success: the modified total (modified, the default) or the kept dice alone (unmodified: dice totalling the critical band are a critical, and so a hit, whatever the flat modifier; otherwise the modified total decides hit or miss)',
    values: CRITICAL_ON,
    default: 'modified',
    kinds: ['attack', 'sequence', DUEL_KIND],
  }),
  numberField('heightInches', {
    steps: true,
    common: true,
    description: 'Height of the fall in inches (no roll under 3; +1 injury dice per full 3 inches)',
    minimum: 0,
    maximum: 120,
    default: 0,
    kinds: ['fall'],
  }),
  ...sequenceFields,
  ...duelFields,
  ...battleFields,
] as const;

/** The kinds of Trench Crusade scenario. */
export type TrenchCrusadeKind = (typeof ALL_KINDS)[number];

/**
 * A validated Trench Crusade scenario of one kind (or, unparameterised, of any kind), typed from the
 * field declarations above: `s.armour` is 'none' | 'standard' | ..., and only the kind's fields exist.
 */
export type TrenchCrusadeScenario<K extends TrenchCrusadeKind = TrenchCrusadeKind> = K extends TrenchCrusadeKind
  ? ScenarioOf<'trench-crusade', Edition, typeof trenchCrusadeFields, K, TrenchCrusadeRules>
  : never;

/** The kinds of one roll: an injury, an attack (success roll, then injury) or a fall. */
export type OneRollScenario = TrenchCrusadeScenario<'injury' | 'attack' | 'fall'>;
