/**
 * Every Trench Crusade number the engines use, declared once with its value and source in each edition.
 * Quotes are the rule files' words (line breaks aside); a test finds each one in its file. Where no
 * file prints a value, the citation names our ruling in docs/rules.md.
 */
import {
  booleanRule,
  choiceRule,
  effectsRule,
  openGroup,
  integerOrNoneRule,
  integerRule,
  resultTableRules,
  same,
  type ResultTable,
  type RuleCitation,
  type RuleSchema,
  type RuleValues,
} from '../../model/rule-table.js';

export const PLAYTEST_FILE = '002_a737ac1d047c7862.txt';
export const COMPREHENSIVE_FILE = '001_920d0edf0f4b2e8e.txt';
export const CORE_FILE = '004_8876b2fc69d19d53.txt';

const playtest = (quote: string): RuleCitation => ({ file: PLAYTEST_FILE, quote });
const comprehensive = (quote: string): RuleCitation => ({ file: COMPREHENSIVE_FILE, quote });
const core = (quote: string): RuleCitation => ({ file: CORE_FILE, quote });
const ruling = (id: string, note: string): RuleCitation => ({ ruling: id, note });

/** The comprehensive and core injury tables are printed identically. */
const bothTables = (quote: string) => ({ comprehensive: comprehensive(quote), core: core(quote) });
const carriedToCore = ruling('T4', 'core names armour only generically ("the -INJURY MODIFIER of the model\'s Armour Characteristic"); the comprehensive values are carried over');
const noBloodbath = ruling('T10', 'the comprehensive rules have no Bloodbath; the value is unused there');
const noDeadly = ruling('T11', 'Deadly is a core keyword; the value is unused in this edition');
const noFalls = ruling('T16', 'the playtest chart has no falling rule; the value is unused there');
const fallsCarried = ruling('T16', "core's Injuries chapter mentions falling without numbers; the comprehensive rule is carried over");
const successBands = ruling('T13', 'not in the rule files: the Success Roll table of the rulebook (2-6 failure, 7-11 success, 12 critical)');

/** What a keyword may give: the fields weapon and model profiles may give (the system's field declarations say which). */
const KEYWORD_EFFECTS: RuleSchema & { type: 'effects' } = { type: 'effects' };
const everyEdition = (source: RuleCitation) => ({ playtest: source, comprehensive: source, core: source });
const keywordRuling = ruling('T20', 'a keyword of the issue "Real warbands", from common play; not in the rule files here');
const noOdds = ruling('T20', 'a keyword that changes movement, actions or reloading, not the odds of one roll');
const situational = ruling('T24', 'a keyword of the real catalogue that changes no odds of one attack here');
const gameSystemRule = ruling('T25', "a keyword as the community catalogue's game system file defines it; not in the rule files here");
const factionKeyword = ruling('T35', "a model's faction keyword, which weapons' rules name (\"+1 INJURY DICE ... against models that have the BLACK GRAIL or DEMONIC Keyword\")");
const infectionMarkers = ruling('T41', "the community catalogue's game system file: infection markers work exactly like blood markers, and a model that has any when activated gains one more");
const rangedModifier = ruling('T30', "not in the rule files here: the core rules' Ranged Attack Modifiers (https://trench-companion.com/compendium/core-rules/combat)");
const ignoresModifier = ruling('T30', "a keyword of the real catalogue, read by its name: the Ranged Attack Modifier it names does not apply to the weapon's attacks");

export const trenchCrusadeRuleSpec = {
  injuryTable: {
    minorHit: integerRule('Lowest modified injury total that is a Minor Hit (below it: no effect)', { minimum: -10, maximum: 40 }, same(2, {
      playtest: playtest('2-6Minor Hit'),
      ...bothTables('2-6Minor Hit. Place 1 Blood Marker next to the model.'),
    })),
    down: integerRule('Lowest modified injury total that is Down', { minimum: -10, maximum: 40 }, same(7, {
      playtest: playtest('7-8Down'),
      ...bothTables('7-8Down. Place 1 Blood Marker next to the model and mark them as being Down.'),
    })),
    outOfAction: integerRule('Lowest modified injury total that is Out of Action', { minimum: -10, maximum: 40 }, same(9, {
      playtest: playtest('9+Out of Action'),
      ...bothTables('9+Out of Action. The model has been seriously injured or killed and is removed from play.'),
    })),
  },
  injuryRoll: {
    dice: integerRule('Dice in an ordinary injury roll\'s starting pool, and how many are kept', { minimum: 1, maximum: 4 }, same(2, {
      playtest: playtest('Roll 2D6 (plus any -/+DICE from the model’s profile or other sources), pick the two highest (or lowest if any -DICE were applied)'),
      comprehensive: comprehensive('To make an Injury Roll, roll two dice'),
      core: core('Take two D6.'),
    })),
  },
  armour: {
    none: integerRule('Injury modifier of a model without armour', { minimum: -10, maximum: 0 }, same(0, {
      playtest: ruling('T4', 'no armour, no modifier'),
      comprehensive: ruling('T4', 'no armour, no modifier'),
      core: ruling('T4', 'no armour, no modifier'),
    })),
    standard: integerRule('Injury modifier of Standard Armour', { minimum: -10, maximum: 0 }, same(-1, {
      playtest: playtest('Standard Armour: -1 to injury rolls'),
      comprehensive: comprehensive('Standard Armour: Add -1 Injury Modifier'),
      core: carriedToCore,
    })),
    reinforced: integerRule('Injury modifier of Reinforced Armour', { minimum: -10, maximum: 0 }, same(-2, {
      playtest: playtest('Reinforced Armour: -2 to injury rolls'),
      comprehensive: comprehensive('Reinforced Armour: Add -2 Injury Modifier'),
      core: carriedToCore,
    })),
    machine: integerRule('Injury modifier of Machine Armour', { minimum: -10, maximum: 0 }, same(-3, {
      playtest: playtest('Machine Armour: -3 to injury rolls'),
      comprehensive: comprehensive('Machine Armour: Add -3 Injury Modifier'),
      core: carriedToCore,
    })),
  },
  shield: {
    modifier: integerRule('Injury modifier of a Trench Shield', { minimum: -10, maximum: 0 }, same(-1, {
      playtest: playtest('Trench Shield: -1 to injury rolls'),
      comprehensive: comprehensive('Trench Shield: Add -1 Injury Modifier'),
      core: carriedToCore,
    })),
    withMachineArmour: choiceRule('A shield with Machine Armour: forbidden (a scenario with both is refused), or allowed and adding nothing', ['forbidden', 'adds-nothing'], {
      playtest: ['adds-nothing', playtest('Machine Armour: -3 to injury rolls (not cumulative with a shield)')],
      comprehensive: ['forbidden', comprehensive('Machine Armour: Add -3 Injury Modifier (cannot be combined with a Trench Shield).')],
      core: ['forbidden', ruling('T5', 'carried over from the comprehensive rules, like the armour values')],
    }),
  },
  modifierCap: {
    size: integerRule('The most the negative injury modifiers may add up to (when the cap applies)', { minimum: -20, maximum: 0 }, same(-3, {
      playtest: ruling('T6', 'the playtest chart states no cap; this size is used if a scenario sets modifierCap'),
      comprehensive: comprehensive('The maximum - Injury Modifier cannot be more than -3 in total.'),
      core: core('The maximum -INJURY MODIFIER cannot be more than -3 in total.'),
    })),
    appliesTo: choiceRule('Default reading of the cap (scenario field modifierCap): the negative modifiers before positives are added, the net total, or no cap', ['negative', 'net', 'none'], {
      playtest: ['none', ruling('T6', 'the playtest chart states no cap')],
      comprehensive: ['negative', ruling('T6', 'a "-Injury Modifier" is a negative one, so positives are added after the cap')],
      core: ['negative', ruling('T6', 'a "-INJURY MODIFIER" is a negative one, so positives are added after the cap')],
    }),
  },
  successRoll: {
    dice: integerRule("Dice in a success roll's starting pool, and how many are kept", { minimum: 1, maximum: 4 }, same(2, {
      playtest: successBands,
      comprehensive: successBands,
      core: core('An Injury Roll is made in a similar way to a Success Roll, by taking 2D6'),
    })),
    hit: integerRule('Lowest modified success total that hits', { minimum: 2, maximum: 24 }, same(7, { playtest: successBands, comprehensive: successBands, core: successBands })),
    critical: integerRule('Lowest modified success total that is a critical success', { minimum: 2, maximum: 24 }, same(12, { playtest: successBands, comprehensive: successBands, core: successBands })),
  },
  critical: {
    injuryDice: integerRule('Injury dice a critical success adds (default of the scenario field criticalInjuryDice)', { minimum: 0, maximum: 3 }, {
      playtest: [0, ruling('T12', 'the playtest chart names no critical bonus')],
      comprehensive: [1, comprehensive('Critical Success: Add +1 Injury Dice')],
      core: [1, core('Critical Success: Add +1 Injury Dice')],
    }),
  },
  down: {
    injuryDice: integerRule('Injury dice added against a Down target', { minimum: 0, maximum: 3 }, same(1, {
      playtest: playtest('Target is Down: Add +1 DICE to the dice pool when determining injuries for a model that is Down.'),
      ...bothTables('Down: Add +1 Injury Dice for a Melee Attack if the target is Down.'),
    })),
    bonusApplies: choiceRule('Default of the scenario field downBonus: which injury rolls against a Down target get the dice', ['melee', 'any', 'none'], {
      playtest: ['any', playtest('Target is Down: Add +1 DICE to the dice pool when determining injuries for a model that is Down.')],
      comprehensive: ['melee', comprehensive('Down: Add +1 Injury Dice for a Melee Attack if the target is Down.')],
      core: ['melee', core('Down: Add +1 Injury Dice for a Melee Attack if the target is Down.')],
    }),
  },
  markers: {
    minorHit: integerRule('Blood markers a Minor Hit places', { minimum: 0, maximum: 6 }, same(1, {
      playtest: playtest('Add +1 BLOOD MARKER next to the model to represent a wound.'),
      ...bothTables('2-6Minor Hit. Place 1 Blood Marker next to the model.'),
    })),
    down: integerRule('Blood markers a Down result places on a model that is not Down', { minimum: 0, maximum: 6 }, same(1, {
      playtest: playtest('Place +1 BLOOD MARKER next to the model and the model goes Down.'),
      ...bothTables('7-8Down. Place 1 Blood Marker next to the model and mark them as being Down.'),
    })),
    downAgain: integerRule('Blood markers a Down result places on a model already Down', { minimum: 0, maximum: 6 }, same(2, {
      playtest: playtest('If the model is already Down, it instead suffers +2 BLOOD MARKERS and remains Down.'),
      ...bothTables('If the model is already Down, place 2 Blood Markers next to the model instead of 1.'),
    })),
    cap: integerOrNoneRule('Most blood markers a model can carry, more being lost (default of the sequence field markerCap)', { minimum: 0, maximum: 100, none: 'no cap' }, {
      playtest: [6, playtest('Use the dice pips to count the hits inflicted (maximum six per model).')],
      comprehensive: [null, ruling('S6', 'the comprehensive rules name no cap')],
      core: [null, ruling('S6', 'the core rules name no cap')],
    }),
    injuryDicePerMarker: integerRule('Injury dice each blood marker spent on an injury roll adds', { minimum: 0, maximum: 3 }, {
      playtest: [1, playtest('the opponent can spend one or more of the BLOOD MARKERS to add +1 DICE to the roll for each pip.')],
      comprehensive: [1, comprehensive('Blood Markers: Add +1 Injury Dice for each Blood Marker that is spent.')],
      core: [1, core('Blood Markers: Add +1 Injury Dice for each Blood Marker that is spent.')],
    }),
    attackDicePerMarker: integerRule('Dice each blood marker spent on an attack roll adds (where markers.onAttackRoll allows it)', { minimum: 0, maximum: 3 }, {
      playtest: [1, playtest('you can spend one or more of the markers to add +1 DICE to the attack roll for each marker.')],
      comprehensive: [1, ruling('S10', 'the comprehensive rules only name injury rolls; the value is unused there')],
      core: [1, ruling('S10', 'the core rules only name injury rolls; the value is unused there')],
    }),
    onOwnRolls: booleanRule("The opponent may spend a model's blood markers on the rolls it makes, -1 dice each (duel policy hinder)", {
      playtest: [true, playtest('Whenever the wounded model takes an ACTION, the opponent can decide to spend one or more of the BLOOD MARKERS to add -1 DICE to the roll for each of them')],
      comprehensive: [true, ruling('D1', 'the files here are the injury chapters, which name only injury rolls; the playtest rule is carried over')],
      core: [true, ruling('D1', 'the files here are the injury chapters, which name only injury rolls; the playtest rule is carried over')],
    }),
    ownRollDicePerMarker: integerRule("Dice each blood marker spent on the model's own roll takes away (where markers.onOwnRolls allows it)", { minimum: 0, maximum: 3 }, {
      playtest: [1, playtest('the opponent can decide to spend one or more of the BLOOD MARKERS to add -1 DICE to the roll for each of them')],
      comprehensive: [1, ruling('D1', 'carried over from the playtest')],
      core: [1, ruling('D1', 'carried over from the playtest')],
    }),
    onAttackRoll: booleanRule('Blood markers may be spent on the attack roll, +1 dice each (sequence field attackRollMarkers)', {
      playtest: [true, playtest('When you attack a wounded model, you can spend one or more of the markers to add +1 DICE to the attack roll for each marker.')],
      comprehensive: [false, ruling('S10', 'the comprehensive rules only name injury rolls')],
      core: [false, ruling('S10', 'the core rules only name injury rolls')],
    }),
  },
  blessings: {
    available: booleanRule('The target may spend Blessing Markers, -1 injury dice each', {
      playtest: [false, ruling('T9', 'Blessing Markers are a core rule')],
      comprehensive: [false, ruling('T9', 'Blessing Markers are a core rule')],
      core: [true, core('Blessing Markers: Add -1 Injury Dice for each Blessing Marker that is spent')],
    }),
    injuryDicePerMarker: integerRule('Injury dice each blessing marker spent takes away', { minimum: 0, maximum: 3 }, {
      playtest: [1, ruling('T9', 'Blessing Markers are a core rule; the value is unused here')],
      comprehensive: [1, ruling('T9', 'Blessing Markers are a core rule; the value is unused here')],
      core: [1, core('Blessing Markers: Add -1 Injury Dice for each Blessing Marker that is spent')],
    }),
  },
  bloodbath: {
    available: booleanRule('The attacker may convert an injury roll to a Bloodbath', {
      playtest: [true, playtest('Bloodbath: Roll an additional D6 and add it to the injury roll total.')],
      comprehensive: [false, noBloodbath],
      core: [true, core('to convert the Injury Roll to a Bloodbath Roll.')],
    }),
    cost: integerRule('Blood markers a Bloodbath costs', { minimum: 0, maximum: 20 }, {
      playtest: [6, playtest('Costs six BLOOD MARKERS (three if the target is Down).')],
      comprehensive: [6, noBloodbath],
      core: [6, core('you can spend 6 Blood Markers (or 3 Blood Markers if the target is Down) to convert the Injury Roll to a Bloodbath Roll.')],
    }),
    costAgainstDown: integerRule('Blood markers a Bloodbath costs against a Down target', { minimum: 0, maximum: 20 }, {
      playtest: [3, playtest('Costs six BLOOD MARKERS (three if the target is Down).')],
      comprehensive: [3, noBloodbath],
      core: [3, core('you can spend 6 Blood Markers (or 3 Blood Markers if the target is Down) to convert the Injury Roll to a Bloodbath Roll.')],
    }),
    dice: integerRule("Dice in a Bloodbath's starting pool, and how many are kept", { minimum: 1, maximum: 4 }, {
      playtest: [3, playtest('if the rule asked you to roll a total of 3D6 with +1 DICE, you would roll four dice and keep and total the highest three dice.')],
      comprehensive: [3, noBloodbath],
      core: [3, core('To make a Bloodbath Roll, roll 3D6 and add all 3 dice together.')],
    }),
    separateDie: booleanRule('The Bloodbath die may be read as a separate D6 added after keeping (scenario field bloodbathDie: separate)', {
      playtest: [true, playtest('Bloodbath: Roll an additional D6 and add it to the injury roll total.')],
      comprehensive: [false, noBloodbath],
      core: [false, core('except that you pick the 3 highest or 3 lowest dice in the roll instead of the 2 highest or lowest.')],
    }),
  },
  deadly: {
    available: booleanRule('Injury rolls may have the Deadly keyword', {
      playtest: [false, noDeadly],
      comprehensive: [false, noDeadly],
      core: [true, core('If the Injury Roll has the Deadly Keyword, instead roll 3D6 and add all 3 dice together.')],
    }),
    dice: integerRule("Dice in a Deadly injury roll's starting pool, and how many are kept", { minimum: 1, maximum: 4 }, {
      playtest: [3, noDeadly],
      comprehensive: [3, noDeadly],
      core: [3, core('If the Injury Roll has the Deadly Keyword, instead roll 3D6 and add all 3 dice together.')],
    }),
    withBloodbathDice: integerRule('Dice kept by a Deadly Bloodbath (default of the scenario field deadlyBloodbathKeep)', { minimum: 3, maximum: 4 }, {
      playtest: [4, noDeadly],
      comprehensive: [4, noDeadly],
      core: [4, ruling('T3', 'assumed: the core text never combines the two; each adds a die to the starting pool')],
    }),
  },
  fall: {
    available: booleanRule('Falls make injury rolls (kind fall)', {
      playtest: [false, noFalls],
      comprehensive: [true, comprehensive('When a model Jumps, Dives, or Falls 3" or more, there is a chance it will be injured.')],
      core: [true, core('models can be injured by attacks, falling from high terrain')],
    }),
    minimumInches: integerRule('Shortest fall, in inches, that makes an injury roll', { minimum: 0, maximum: 24 }, {
      playtest: [3, noFalls],
      comprehensive: [3, comprehensive('When a model Jumps, Dives, or Falls 3" or more, there is a chance it will be injured.')],
      core: [3, fallsCarried],
    }),
    inchesPerStep: integerRule('Inches of fall per step of extra injury dice', { minimum: 1, maximum: 24 }, {
      playtest: [3, noFalls],
      comprehensive: [3, comprehensive('add +1 Injury Dice for every 3" that the model fell.')],
      core: [3, fallsCarried],
    }),
    dicePerStep: integerRule('Injury dice per full step of fall', { minimum: 0, maximum: 3 }, {
      playtest: [1, noFalls],
      comprehensive: [1, comprehensive('add +1 Injury Dice for every 3" that the model fell.')],
      core: [1, fallsCarried],
    }),
  },
  fear: {
    attackDice: integerRule('Dice a melee success roll gets against a FEAR model (none if the attacker has FEAR too)', { minimum: -3, maximum: 0 }, same(-1, everyEdition(keywordRuling))),
  },
  ranged: {
    coverDice: integerRule('Dice a ranged success roll gets against a target in cover (the default of the model field coverDice; none with IGNORE COVER)', { minimum: -3, maximum: 0 }, same(-1, everyEdition(rangedModifier))),
    longRangeDice: integerRule("Dice a ranged success roll gets against a target beyond half the weapon's range (none with IGNORE LONG RANGE)", { minimum: -3, maximum: 0 }, same(-1, everyEdition(rangedModifier))),
  },
  keywords: openGroup(KEYWORD_EFFECTS, {
    'IGNORE ARMOUR': effectsRule("The target's armour and shield modifiers do not apply", KEYWORD_EFFECTS, { ignoreArmour: true }, everyEdition(keywordRuling)),
    'IGNORE ARMOUR ON CRITICAL': effectsRule('As IGNORE ARMOUR, on the injury roll of a critical hit only (a keyword of ours)', KEYWORD_EFFECTS, { ignoreArmourOnCritical: true }, everyEdition(keywordRuling)),
    'ARMOUR PIERCING': effectsRule("The armour's modifier is shortened by N, never past 0", KEYWORD_EFFECTS, { armourPiercing: 'N' }, everyEdition(keywordRuling)),
    FLAMETHROWER: effectsRule('No success roll: every attack hits, none is a critical', KEYWORD_EFFECTS, { autoHit: true }, everyEdition(keywordRuling)),
    CRITICAL: effectsRule('A critical hit adds 2 injury dice instead of 1', KEYWORD_EFFECTS, { criticalInjuryDice: 2 }, everyEdition(keywordRuling)),
    DEADLY: effectsRule('The injury roll is 3D6, all kept (core)', KEYWORD_EFFECTS, { deadly: true }, {
      playtest: noDeadly,
      comprehensive: noDeadly,
      core: core('If the Injury Roll has the Deadly Keyword, instead roll 3D6 and add all 3 dice together.'),
    }),
    TOUGH: effectsRule("The model's first Out of Action is a Down instead", KEYWORD_EFFECTS, { tough: true }, {
      playtest: playtest('Tough: If a TOUGH model would be taken Out Of Action, it is knocked Down instead.'),
      comprehensive: comprehensive('Tough: The first time a Tough model is taken Out Of Action, it is taken Down instead.'),
      core: ruling('T14', 'carried over from the comprehensive rules'),
    }),
    STANDFAST: effectsRule("An armour item's: a Down result is a Minor Hit instead", KEYWORD_EFFECTS, { downBecomesMinor: true }, everyEdition(keywordRuling)),
    FEAR: effectsRule('Melee attacks against it get -1 DICE unless the attacker has FEAR', KEYWORD_EFFECTS, { fear: true }, everyEdition(keywordRuling)),
    IMPERVIOUS: effectsRule('Armour that keeps its modifier against IGNORE ARMOUR', KEYWORD_EFFECTS, { impervious: true }, everyEdition(keywordRuling)),
    GOLEM: effectsRule('Only a Bloodbath injury roll takes it Out of Action; any other Out of Action is a Down. It has NEGATE GAS (and NEGATE FEAR)', KEYWORD_EFFECTS, { golem: true, negateGas: true }, everyEdition(gameSystemRule)),
    DEMONIC: effectsRule('A model that ignores the blood markers FIRE adds: as NEGATE FIRE', KEYWORD_EFFECTS, { negateFire: true }, everyEdition(gameSystemRule)),
    'BLACK GRAIL': effectsRule("A model of the Black Grail: no odds of its own; a weapon's condition reads it (VS BLACK GRAIL)", KEYWORD_EFFECTS, {}, everyEdition(factionKeyword)),
    HERETIC: effectsRule("A model of the Heretic Legion: no odds of its own; a weapon's condition reads it (VS HERETIC)", KEYWORD_EFFECTS, {}, everyEdition(factionKeyword)),
    'NEGATE FEAR': effectsRule("A model immune to FEAR: no effect on attacks against it; a roster's MODEL with WEAPON reads it as attackerFear", KEYWORD_EFFECTS, {}, everyEdition(gameSystemRule)),
    FIRE: effectsRule('The target gains 1 blood marker after every injury roll from the weapon, whatever the result, unless it has NEGATE FIRE', KEYWORD_EFFECTS, { fireMarkers: 1 }, everyEdition(keywordRuling)),
    GAS: effectsRule('The target gains 1 blood marker after every injury roll from the weapon, whatever the result, unless it has NEGATE GAS', KEYWORD_EFFECTS, { gasMarkers: 1 }, everyEdition(keywordRuling)),
    SHRAPNEL: effectsRule('The target gains 1 blood marker after every injury roll from the weapon, whatever the result, unless it has NEGATE SHRAPNEL', KEYWORD_EFFECTS, { shrapnelMarkers: 1 }, everyEdition(keywordRuling)),
    'NEGATE FIRE': effectsRule('A model that gains no markers from FIRE', KEYWORD_EFFECTS, { negateFire: true }, everyEdition(keywordRuling)),
    'NEGATE GAS': effectsRule('A model that gains no markers from GAS', KEYWORD_EFFECTS, { negateGas: true }, everyEdition(keywordRuling)),
    'NEGATE SHRAPNEL': effectsRule('A model that gains no markers from SHRAPNEL', KEYWORD_EFFECTS, { negateShrapnel: true }, everyEdition(keywordRuling)),
    AUTOMATIC: effectsRule('N attack rolls in one action, a string (in a sequence, one activation by default)', KEYWORD_EFFECTS, { attacksPerAction: 'N' }, everyEdition(keywordRuling)),
    CLEAVE: effectsRule('N attack rolls in one action, a string (in a sequence, one activation by default)', KEYWORD_EFFECTS, { attacksPerAction: 'N' }, everyEdition(keywordRuling)),
    RISKY: effectsRule("In a string of several attack rolls, the first miss ends the string; its other rolls are lost", KEYWORD_EFFECTS, { risky: true }, everyEdition(keywordRuling)),
    REGENERATE: effectsRule('The model removes N blood markers at the start of its activation', KEYWORD_EFFECTS, { regenerate: 'N' }, everyEdition(keywordRuling)),
    HEAVY: effectsRule('Known; changes no odds here', KEYWORD_EFFECTS, {}, everyEdition(noOdds)),
    ASSAULT: effectsRule('Known; changes no odds here', KEYWORD_EFFECTS, {}, everyEdition(noOdds)),
    RELOAD: effectsRule('Known; changes no odds here', KEYWORD_EFFECTS, {}, everyEdition(noOdds)),
    CUMBERSOME: effectsRule('Known; changes no odds here', KEYWORD_EFFECTS, {}, everyEdition(noOdds)),
    'IGNORE COVER': effectsRule("A ranged attack's success roll gets no Cover modifier (targetInCover)", KEYWORD_EFFECTS, { ignoreCover: true }, everyEdition(ignoresModifier)),
    'IGNORE LONG RANGE': effectsRule("A ranged attack's success roll gets no Long Range modifier (longRange)", KEYWORD_EFFECTS, { ignoreLongRange: true }, everyEdition(ignoresModifier)),
    'IGNORE RANGE': effectsRule("As IGNORE LONG RANGE: a ranged attack's success roll gets no Long Range modifier (longRange); its range is not checked here", KEYWORD_EFFECTS, { ignoreLongRange: true }, everyEdition(ignoresModifier)),
    'IGNORE ELEVATED POSITION': effectsRule('Known; changes no odds here (an attack here has no elevation)', KEYWORD_EFFECTS, {}, everyEdition(situational)),
    PISTOL: effectsRule('Known; changes no odds here (when the weapon may be used)', KEYWORD_EFFECTS, {}, everyEdition(situational)),
    CONSUMABLE: effectsRule('Known; changes no odds here (how often the weapon may be used)', KEYWORD_EFFECTS, {}, everyEdition(situational)),
    DEPLOYABLE: effectsRule('Known; changes no odds here (an item set down on the battlefield)', KEYWORD_EFFECTS, {}, everyEdition(situational)),
    SHOTGUN: effectsRule('Known; changes no odds here (how the weapon is used)', KEYWORD_EFFECTS, {}, everyEdition(situational)),
    BLAST: effectsRule('Known; changes no odds here (how many models an attack reaches: one here); its distance is read and ignored', KEYWORD_EFFECTS, {}, everyEdition(situational)),
    SCATTER: effectsRule('Known; changes no odds here (where a blast lands: one target here)', KEYWORD_EFFECTS, {}, everyEdition(situational)),
    BLOCK: effectsRule("Known; changes no odds of the weapon's own attacks (it acts on attacks against its bearer, which is not modelled)", KEYWORD_EFFECTS, {}, everyEdition(situational)),
    'INFECTION MARKERS': effectsRule('The markers its injury roll places are infection markers: as blood markers for one attack; refused where models fight on (one more at each activation)', KEYWORD_EFFECTS, { infectionMarkers: true }, everyEdition(infectionMarkers)),
  }),
} as const;

/** An edition's (or a variant's) Trench Crusade rule table: what both engines read. */
export type TrenchCrusadeRules = RuleValues<typeof trenchCrusadeRuleSpec>;

/** The tables read from the lowest total up: the injury table, and the success roll's. */
export const trenchCrusadeResultTables: readonly ResultTable[] = [
  {
    below: 'no effect',
    results: [
      { rule: 'injuryTable.minorHit', result: 'Minor Hit' },
      { rule: 'injuryTable.down', result: 'Down' },
      { rule: 'injuryTable.outOfAction', result: 'Out of Action' },
    ],
  },
  {
    below: 'failed success roll',
    results: [
      { rule: 'successRoll.hit', result: 'Success' },
      { rule: 'successRoll.critical', result: 'Critical success' },
    ],
  },
];

/** Rules whose values must rise strictly in this order: each table's, read from the lowest total up. */
export const trenchCrusadeIncreasing: readonly (readonly string[])[] = trenchCrusadeResultTables.map(resultTableRules);
