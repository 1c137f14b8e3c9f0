import { bonusVsKeywordsText } from '../model/keywords.js';
import { classBySentenceForms, type FormClass } from './sentence-forms/classify.js';
import type { SentenceClass } from './sentence-forms/form.js';
import type { FieldSpec } from '../model/types.js';

/**
 * Rules text of a catalogue (an ability's, an item's, a weapon's) read sentence by sentence, fully or not
 * at all (docs/import.md, "Rules text"). A sentence is either understood whole, every clause and its
 * condition included, and gives typed effects; or it is classed by what it touches (the model as a
 * target, the model's own attacks, this weapon's attack, no roll of one attack: sentence-forms/), and
 * stops only the questions that use what it touches; a sentence whose class is unclear stops every
 * question its entry is in. A number is never kept with its condition dropped.
 */

/** What a sentence read whole gives. Conditions are data; nothing is written as a string to be parsed again. */
export type TextEffect =
  /** Injury rolls against the model get `dice`, except from an attack with one of `unless` (keywords of the rule table). */
  | { readonly kind: 'targetInjuryDice'; readonly dice: number; readonly unless: readonly string[]; readonly onlyIf?: readonly string[] }
  /** Success rolls for attacks that target the model get `dice`, for the attacks `applies` names; `notTaken`: the case it does not hold in, said. */
  | { readonly kind: 'targetAttackDice'; readonly dice: number; readonly applies: 'both' | 'melee' | 'ranged'; readonly notTaken?: string }
  /** A keyword of the rule table the sentence gives in the game's own words (STANDFAST, IGNORE ARMOUR ON CRITICAL). */
  | { readonly kind: 'keyword'; readonly keyword: string }
  /**
   * A weapon's field the sentence sets in other words than a keyword: "do not make a Success Roll"
   * (autoHit), IGNORE ARMOUR "if the target is Down" (ignoreArmourIfDown), or dice it adds against a
   * Down target (injuryDiceIfDown, summed).
   */
  | { readonly kind: 'field'; readonly field: 'autoHit' | 'ignoreArmourIfDown'; readonly value: true }
  /**
   * A model's field said in words: "The first time it suffers an Out of Action result ..., it is treated
   * as a No Effect result instead" (firstOutOfActionNoEffect); "If an attack would normally ignore armour,
   * X still grants a -1 INJURY MODIFIER" (armourWhenIgnored); "The Ranged Attack Modifier for a target
   * being in Cover is -2 DICE instead of -1 DICE if the target has X" (coverDice).
   */
  | { readonly kind: 'field'; readonly field: 'firstOutOfActionNoEffect'; readonly value: true }
  | { readonly kind: 'field'; readonly field: 'armourWhenIgnored' | 'coverDice'; readonly value: number }
  /** A weapon's: "Minor Injuries caused by X are treated as Down results instead"; one injury die a 6 against armour. */
  | { readonly kind: 'field'; readonly field: 'minorAsDown' | 'sixAgainstArmoured'; readonly value: true }
  /** A weapon's dice in words: against a Down target, its own markers, the dice it gets where Cover or Long Range apply. */
  | { readonly kind: 'field'; readonly field: 'injuryDiceIfDown' | 'extraBloodMarkers' | 'coverAndLongRangeDice' | 'bloodMarkersMultiplier' | 'criticalThreshold' | 'injuryDiceInCover'; readonly value: number };

export type SentenceReading =
  | {
      readonly kind: 'read';
      readonly effects: readonly TextEffect[];
      /**
       * A case of the sentence the effects do not hold in, which the question does not take and the answer
       * says (the Chorister's aura on "all enemy models within 8\"": a ranged attacker taken from farther).
       */
      readonly notTaken?: string;
    }
  /**
   * Not read into an effect: classed by what it touches (sentence-forms/form.ts), which decides the
   * questions it stops; `why` says which form classed it, or why none did.
   */
  | {
      readonly kind: 'classed';
      readonly touches: SentenceClass;
      readonly why: string;
      /** A lead-in to another model's rules or commands (SentenceForm.listIsAnotherModels): what follows its colon is that model's. */
      readonly othersFollow?: true;
      /** It opens an option (SentenceForm.restIsTheOption): the sentences after it in the text are what the option does. */
      readonly optionFollows?: true;
      /** It is an ACTION the model may take (SentenceForm.restIsAChoice): what the sentences after it in the text do to an attack is an option. */
      readonly choiceFollows?: true;
      /** An option about the model's own attacks (SentenceForm.ofItsAttacks): said with the weapons in its hands. */
      readonly ofItsAttacks?: true;
    };

/**
 * The text in one form: Unicode spaces (a non-breaking space among them) as a space, dashes and minus
 * signs as "-", curly quotes straight, Markdown bold dropped, "Add- 1" as "Add -1". The real catalogue
 * writes "Bull’s Eye" and "Liquid Fire" with a non-breaking space in some copies and not in others.
 */
export function plainText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u00A0\u1680\u2000-\u200B\u202F\u205F\u3000\uFEFF]/g, ' ')
    .replace(/[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g, '-')
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/\*\*/g, '')
    .replace(/(\w)([+-]) (\d)/g, '$1 $2$3');
}

/** Words that name only other rolls than an attack's or an injury's: a sentence of these alone is about movement, morale or the campaign. */
const OTHER_ROLLS = /\b(risky|dash|morale|climb|climbs|jump|jumps|charge bonus|promotion|exploration|experience|quartermaster)\b/i;

/** What the odds of one attack rest on, in the game's words (the rule files' vocabulary). */
const ODDS_WORDS = /\b(elevated position|long range|short range|rolls?|rolled|rolling|dice|(?:highest|lowest|one|a|each|extra|single) die|d3|d6|\dd6|injur(?:y|ies|ed|e)|armou?r|markers?|out of action|down|minor (?:hit|wound)|critical|success(?:es)?|hits?)\b/i;

/** The keywords of a rule table that change a roll (those that give a field), for telling whether a sentence speaks of the odds. */
export function effectKeywordPattern(names: readonly string[]): RegExp | undefined {
  if (names.length === 0) return undefined;
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[ -]'));
  return new RegExp(`\\b(${escaped.join('|')})\\b`);
}

/** Whether a sentence speaks of what the odds of one attack rest on. */
export function speaksOfOdds(sentence: string, effectKeywords: RegExp | undefined): boolean {
  if (effectKeywords?.test(sentence)) return true;
  if (!ODDS_WORDS.test(sentence)) return false;
  // "Add +1 DICE to the Risky Success Roll for a model taking a Dash ACTION": another roll than an attack's.
  const withoutOtherRolls = sentence.replace(/\b(risky )?success rolls?\b(?=[^.]*\b(risky|dash|climb|jump|morale)\b)/gi, '').replace(/\b(risky success rolls?|morale tests?)\b/gi, '');
  return !(OTHER_ROLLS.test(sentence) && !ODDS_WORDS.test(withoutOtherRolls.replace(/\bdice\b/gi, '')));
}

/**
 * A rules text's sentences: split after a full stop (not after "St.", a saint's name, nor after an
 * initial: "the M.U.R.A.D. Bombard's blast"; and where the
 * catalogue left out the space: "ACTION.If it does so"), at line breaks after a full stop or colon, at
 * blank lines, and before a bullet after a colon
 * (a lead-in and its list); a leading "Name:" label
 * ("Bull's Eye:", "Standfast:") and a final full stop dropped; spacing made single. Empty ones are none.
 */
export function sentencesOf(text: string): string[] {
  return plainText(text)
    // A line broken in the middle of a sentence (no full stop, colon or bullet at the break: the real
    // Butcher Bayonet's "... of a model with a\nButcher Bayonet achieve ...") is one sentence: split
    // there, a condition would be cut from its effect.
    .replace(/([^\s.!?:])[ \t]*\n(?![ \t]*\n)[ \t]*(?=[^\s*•\-])/g, '$1 ')
    .split(/\n+|(?<=[.!?])(?<!\bSt\.)(?<!\.[A-Z]\.)\s+(?=["(*•\-A-Z])|(?<=[A-Za-z]{3}\.)(?=[A-Z][a-z]+ )|(?<=:)\s+(?=[*•]\s)/)
    .map((s) =>
      s
        .replace(/^[\s*•\-]+/, '')
        .replace(/^[A-Z][\w' -]{0,40}:\s+(?=\S)/, '')
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/[.]$/, '')
        .trim(),
    )
    .filter((s) => /\w/.test(s));
}

/** Words too common to tie a subject to a model ("a Hound of the Cult of the Black Grail" to "Hound of the Black Grail"). */
const COMMON = new Set(['a', 'an', 'the', 'of', 'and', 'or', 'model', 'models', 'with', 'that', 'has', 'any']);
const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter((w) => w.length >= 3 && !COMMON.has(w));

/**
 * Whether the subject of a sentence is the entry the text is on: "this model", "a model with this Skill",
 * "a model that has Alchemist Armour" on that item, or a name sharing a word with the entry's (the real
 * catalogue's "Tawkin Homunculus" on the Takwin Homunculus). A name of another model ("a Martyr
 * Penitent" on a Trench Pilgrim: a resurrected form, campaign only) is not, and the sentence is not read.
 */
function isSelf(subject: string, names: readonly string[]): boolean {
  const s = subject.trim().toLowerCase();
  if (/^(this model|the model|it|a model with this (?:skill|ability|goetic ability))$/.test(s)) return true;
  const item = /^an? model (?:that has|with) (?:an? |the )?(.+)$/.exec(s)?.[1];
  const named = item ?? /^(?:a|an|the|any) (.+?)(?: models?)?$/.exec(s)?.[1];
  if (named === undefined || /\b(that|which|who|if|when|within|other|friendly|enemy|each|every)\b/.test(named)) return false;
  const own = new Set(names.flatMap(words));
  return words(named).some((w) => own.has(w));
}

/** Why a sentence about the odds is not read, when no more is known. */
export const NOT_READ_WHOLE = 'a sentence about the odds that injury-lab does not read whole';

/** Why a sentence is not read into an effect, and what it then touches. */
interface NotRead {
  readonly why: string;
  readonly touches: SentenceClass;
}

/**
 * Why a sentence whose subject is not the entry is not read: a plain name that is not the entry's is
 * another model's rule (the real Trench Pilgrim's "Add -1 INJURY DICE to Injury Rolls for a Martyr
 * Penitent", a resurrected form with an entry of its own), which touches no question of this one's; a
 * subject that is a clause no form reads ("a model within 3\" of it") is unclear.
 */
function subjectProblem(subject: string, names: readonly string[]): NotRead | undefined {
  if (isSelf(subject, names)) return undefined;
  const plainName = /^(?:a|an|the|any) [^,]+$/i.test(subject) && !/\b(that|which|who|if|when|within|with|other|friendly|enemy|each|every|attacks?)\b/i.test(subject);
  return plainName ? { why: `it names ${subject}: another entry's rule, never this one's`, touches: 'none' } : { why: NOT_READ_WHOLE, touches: 'unclear' };
}

/** "FIRE or GAS", "FIRE and/or GAS", "FIRE, GAS": keyword names, or undefined if a part is no keyword of the table. */
function keywordList(text: string, known: (name: string) => string | undefined): string[] | undefined {
  const parts = text
    .replace(/^(?:keywords?) /i, '')
    .replace(/ keywords?$/i, '')
    .split(/\s*(?:,|\band\/or\b|\bor\b)\s*/i)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const names = parts.map((p) => known(p.toUpperCase()));
  return parts.length > 0 && names.every((n) => n !== undefined) ? (names as string[]) : undefined;
}

/** A model's sentence: what it is read as, each form the whole sentence (docs/import.md lists them). */
interface ModelForm {
  readonly sentence: RegExp;
  readonly read: (m: RegExpExecArray, context: TextContext) => TextEffect | readonly TextEffect[] | NotRead;
}

/** What a sentence is read against: the names it may call its entry by, and the rule table's keyword names. */
export interface TextContext {
  /** The entry's names: a model's, and the item's the text is on. */
  readonly names: readonly string[];
  /** The table's name for a keyword ("FIRE"), or undefined if it knows none. */
  readonly keyword: (name: string) => string | undefined;
  /** The table's keywords that change a roll, for telling whether a sentence speaks of the odds. */
  readonly effectKeywords: RegExp | undefined;
  /** A field's declaration (a system's fields.ts): whose it is, and whether values read for it add up. */
  readonly fieldSpec: (field: string) => FieldSpec | undefined;
}

const UNLESS = String.raw`(?: unless the (?:attack|weapon|attacking weapon) (?:has|as) the (.+?))?`;

const MODEL_FORMS: readonly ModelForm[] = [
  {
    // "Add -1 INJURY DICE to rolls for an Artillery Witch that has been hit by an attack with the GAS
    // Keyword" (the real one); "... for a model that has Engineer Body Armour that has been hit by an
    // attack with the SHRAPNEL Keyword": the dice only against an attack with the keyword (onlyIf).
    // Before the plain form below, whose subject would take the whole condition in and stop.
    sentence: /^add (-\d+) (?:injury )?dice to (?:the )?(?:injury )?rolls? for (.+?) that (?:has|have) been hit by an attack with the (.+?)(?: keywords?)?$/i,
    read: (m, c) => {
      const problem = subjectProblem(m[2]!, c.names);
      if (problem !== undefined) return problem;
      const names = keywordList(m[3]!, c.keyword);
      return names ? { kind: 'targetInjuryDice', dice: Number(m[1]), unless: [], onlyIf: names } : { why: `"${m[3]}" is not keywords of the rule table`, touches: 'target' };
    },
  },
  {
    // "Add -1 INJURY DICE to Injury Rolls for a Grail Thrall unless the attack has the FIRE Keyword";
    // "Add -2 DICE to Injury Rolls for any attacks that target an Amalgam model".
    sentence: new RegExp(String.raw`^add (-\d+) (?:injury )?dice to (?:the )?injury rolls? (?:for|against) (?:(?:any )?attacks? (?:that target|against) )?(.+?)${UNLESS}$`, 'i'),
    read: (m, c) => injuryDice(m[1]!, m[2]!, m[3], c),
  },
  {
    // Our own shape: "Non-FIRE injuries against this model are rolled with -1 DICE".
    sentence: /^non-([a-z ]+?) injur(?:y|ies)(?: rolls)? against (.+?) are rolled with (-\d+) dice$/i,
    read: (m, c) => injuryDice(m[3]!, m[2]!, m[1], c),
  },
  {
    // "All injury rolls against the Warden are made with -1 DICE".
    sentence: /^(?:all )?injury rolls against (.+?) are (?:made|rolled) with (-\d+) (?:injury )?dice$/i,
    read: (m, c) => injuryDice(m[2]!, m[1]!, undefined, c),
  },
  {
    // "A model with this Goetic Ability has the -1 INJURY DICE Keyword".
    sentence: /^(.+?) has the (-\d+) injury dice keyword$/i,
    read: (m, c) => injuryDice(m[2]!, m[1]!, undefined, c),
  },
  {
    // "Add -1 DICE to the Success Roll for attacks that target this model"; "... for Ranged Attacks that target a Death Commando".
    // "... for Ranged Attacks and Melee Attacks that target an Observer": both.
    sentence: /^add (-\d+) dice to (?:the )?(?:success )?rolls? for (?:(ranged|melee) attacks(?: and (ranged|melee) attacks)?|attacks) that target (.+?)$/i,
    read: (m, c) => {
      const problem = subjectProblem(m[4]!, c.names);
      if (problem !== undefined) return problem;
      const named = new Set([m[2], m[3]].filter((t): t is string => t !== undefined).map((t) => t.toLowerCase()));
      return { kind: 'targetAttackDice', dice: Number(m[1]), applies: named.size === 1 ? ([...named][0] as 'melee' | 'ranged') : 'both' };
    },
  },
  {
    // Machine Armour's Standfast: "When a model that has Machine Armour suffers a Down result on the Injury table, it is treated as a Minor Wound result instead".
    sentence: /^when (.+?) (?:would )?suffers? a down result(?: on the injury (?:table|chart))?, it is treated as a minor (?:wound|hit)(?: result)? instead$/i,
    read: (m, c) => subjectProblem(m[1]!, c.names) ?? { kind: 'keyword', keyword: 'STANDFAST' },
  },
  {
    // The real Byzantinium Hearth: "This model treats any DOWN INJURY result as a MINOR INJURY instead, unless
    // it is as a result of the TOUGH keyword converting an OUT OF ACTION to a DOWN result"; "It treats Down
    // results as Minor Hit results". STANDFAST does not touch Tough's Down (ruling T19), as the clause says.
    sentence: /^(.+?) treats? (?:any )?down (?:injury )?results? as (?:a )?minor (?:injury|injuries|hit|hits|wound|wounds)(?: results?)?(?: instead)?(?:, unless it is (?:as )?a result of the tough keyword converting an out of action (?:result )?(?:in)?to a down(?: result)?)?$/i,
    read: (m, c) => subjectProblem(m[1]!, c.names) ?? { kind: 'keyword', keyword: 'STANDFAST' },
  },
  {
    // "The first time the War Prophet suffers an Out of Action result on the Injury Table, it is treated
    // as a No Effect result instead" (the real War Prophet's and Chieftain's): one save of an Out of
    // Action, as Tough's, that leaves it as it stood (firstOutOfActionNoEffect, ruling T28).
    sentence: /^the first time (.+?) suffers an out of action result(?: on the injury (?:table|chart))?, it is treated as a no effect result(?: instead)?$/i,
    read: (m, c) => subjectProblem(m[1]!, c.names) ?? { kind: 'field', field: 'firstOutOfActionNoEffect', value: true },
  },
  {
    // The real Chorister's Unholy Hymns: "All enemy models within 8" of the Chorister suffer an additional
    // -1 DICE for all ACTIONS they attempt". A melee attack on it is an ACTION of an enemy within 1", so
    // -1 DICE on its success roll (targetAttackDice, melee); a ranged attack is taken from farther than the
    // aura, and the answer says so (ruling T40).
    sentence: /^all enemy models within (\d+)" of (.+?) suffer an additional (-\d) dice for all actions they attempt$/i,
    read: (m, c) => subjectProblem(m[2]!, c.names) ?? { kind: 'targetAttackDice', dice: Number(m[3]), applies: 'melee', notTaken: `a ranged attacker is taken to be more than ${m[1]}" away (no ${m[3]} DICE on its attacks)` },
  },
  {
    // The real Huscarl's Runeforged Armour: "If an attack would normally ignore armour, Runeforged Armour
    // still grants a -1 INJURY MODIFIER" (armourWhenIgnored, ruling T32).
    sentence: /^if an attack would normally ignore armou?r, (.+?) still grants an? (-\d) injury modifier$/i,
    read: (m, c) => subjectProblem(m[1]!.replace(/^(?!(?:a|an|the) )/i, 'the '), c.names) ?? { kind: 'field', field: 'armourWhenIgnored', value: Number(m[2]) },
  },
  {
    // The real Bedu Sharpshooter's Cloak of Alamut: "The Ranged Attack Modifier for a target being in Cover
    // is -2 DICE instead of -1 DICE if the target has a Cloak of Alamut" (coverDice, ruling T31).
    sentence: /^the ranged attack modifier for a target being in cover is (-\d) dice instead of -1 dice if the target has (.+)$/i,
    read: (m, c) => subjectProblem(m[2]!, c.names) ?? { kind: 'field', field: 'coverDice', value: Number(m[1]) },
  },
  {
    // "The Surgeon is immune to FEAR": NEGATE FEAR. What an item "counts as", with what that makes it
    // immune to in brackets ("Counts as a Combat Helmet and a Gas Mask (immune to GAS and SHRAPNEL)"):
    // the NEGATE keywords of what the brackets name, which the game system's items give.
    sentence: /^(?:(.+?) is immune to ([a-z ,]+)|(?:this )?counts as .+ \(immune to ([a-z ,]+)\))$/i,
    read: (m, c) => {
      const problem = m[1] === undefined ? undefined : subjectProblem(m[1], c.names);
      if (problem !== undefined) return problem;
      // "SHRAPNEL, GAS, and FEAR": immune to each (an "and" here lists, as a comma does).
      const named = keywordList((m[2] ?? m[3]!).replace(/,?\s+and\s+/gi, ', '), c.keyword);
      const negations = named?.map((k) => c.keyword(`NEGATE ${k}`));
      if (!negations || negations.some((k) => k === undefined)) return { why: `"immune to ${m[2] ?? m[3]}" names what the rule table has no NEGATE keyword for`, touches: 'target' };
      return negations.map((keyword) => ({ kind: 'keyword', keyword: keyword! }) as const);
    },
  },
];

/** -N injury dice against the entry, unless the attack has one of the keywords named; or why it is not read. */
function injuryDice(dice: string, subject: string, unless: string | undefined, c: TextContext): TextEffect | NotRead {
  const problem = subjectProblem(subject, c.names);
  if (problem !== undefined) return problem;
  if (unless === undefined) return { kind: 'targetInjuryDice', dice: Number(dice), unless: [] };
  const names = keywordList(unless, c.keyword);
  return names ? { kind: 'targetInjuryDice', dice: Number(dice), unless: names } : { why: `"${unless}" is not keywords of the rule table`, touches: 'target' };
}

/** "See \"Beelzebub's Embrace\"": a sentence that sends the reader to other text, which is not read here. */
const REFERS_ELSEWHERE = /^see\b/i;

/**
 * A sentence no form read into an effect, classed (sentence-forms/): by the forms of the table; else one
 * that speaks of nothing the odds rest on touches none; else it is unclear and stops what uses its entry.
 * `previous` is the class of the sentence before it in the same text, which "If it does so, ..." carries on.
 */
function classed(sentence: string, context: TextContext, previous: SentenceClass | undefined, notRead?: NotRead): SentenceReading {
  if (notRead) return { kind: 'classed', ...notRead };
  if (REFERS_ELSEWHERE.test(sentence)) return { kind: 'classed', touches: 'unclear', why: 'it refers to other rules text, which is not read here' };
  const alone = (rest: string) => (speaksOfOdds(rest, context.effectKeywords) ? { touches: 'unclear' as const, forms: [NOT_READ_WHOLE] } : { touches: 'none' as const, forms: [NO_WORD_OF_THE_ODDS] });
  const anotherModel = (subject: string) => (subjectProblem(subject, context.names)?.touches === 'none' ? subject : undefined);
  const byForm: FormClass = classBySentenceForms(sentence, previous, alone, undefined, anotherModel) ?? alone(sentence);
  return { kind: 'classed', touches: byForm.touches, why: byForm.forms.join('; '), ...(byForm.othersFollow ? { othersFollow: true as const } : {}), ...(byForm.optionFollows ? { optionFollows: true as const } : {}), ...(byForm.choiceFollows ? { choiceFollows: true as const } : {}), ...(byForm.ofItsAttacks ? { ofItsAttacks: true as const } : {}) };
}

/** Why a sentence that no form classes touches nothing: none of its words is one the odds rest on. */
export const NO_WORD_OF_THE_ODDS = 'it speaks of no roll, dice, injury, armour or marker';

/** One sentence of a model's ability text or of an item's rules text the model carries. */
export function readModelSentence(sentence: string, context: TextContext, previous?: SentenceClass): SentenceReading {
  for (const form of MODEL_FORMS) {
    const m = form.sentence.exec(sentence);
    if (!m) continue;
    const got = form.read(m, context);
    if (Array.isArray(got)) return { kind: 'read', effects: got };
    if (!('kind' in got)) return classed(sentence, context, previous, got as NotRead);
    const effect = got as TextEffect;
    return { kind: 'read', effects: [effect], ...('notTaken' in effect && effect.notTaken ? { notTaken: effect.notTaken } : {}) };
  }
  return classed(sentence, context, previous);
}

/**
 * One sentence of a weapon's rules text: "If the Success Roll for a Ranged Attack made with a Sniper Rifle
 * is a Critical Success then the Injury Roll for the attack has the IGNORE ARMOUR Keyword" is IGNORE ARMOUR
 * ON CRITICAL. The weapon it names is not checked: the text is on the weapon's own profile, and the real
 * catalogue's Molotov Cocktail names the Incendiary Grenade it was copied from.
 */
export function readWeaponSentence(sentence: string, context: TextContext, previous?: SentenceClass, before?: string): SentenceReading {
  // A rule of several sentences, each read with the one before it: a sentence that acts only on what the
  // one before says ("If it does, ...") or restates it ("Note that this means ...") is read only after it.
  const after = (pattern: RegExp) => before !== undefined && pattern.test(before);
  // The real Tank-Splitter Sword: "When you make an Injury Roll for an attack made with a Tank-Splitter
  // Sword, determine if the target has an Armour Characteristic that is -1 or greater, or if it is wearing
  // Armour or carrying a Shield. If it does, before rolling the dice for the Injury Roll, put one dice
  // aside and turn it so that it shows a "6". Roll the rest of the dice, then return the dice you put to
  // one side; it counts as having rolled a 6": sixAgainstArmoured (ruling T34). The first sentence alone
  // only asks a question (no effect); the second, after it, is the rule; the third restates it.
  const armouredCheck = /^when you make an injury roll for an attack made with (?:a |an |the )?[\w' -]+?, determine if the target has an armou?r characteristic that is -1 or greater, or if it is wearing armou?r or carrying a shield$/i;
  const sixAside = /^if it does, before rolling the dice for the injury roll, put one dic?e aside and turn it so that it shows a "?6"?$/i;
  if (armouredCheck.test(sentence)) return { kind: 'read', effects: [] };
  if (sixAside.test(sentence) && after(armouredCheck)) return { kind: 'read', effects: [{ kind: 'field', field: 'sixAgainstArmoured', value: true }] };
  if (/^roll the rest of the dice, then return the dic?e you put to one side; it counts as having rolled a 6$/i.test(sentence) && after(sixAside)) return { kind: 'read', effects: [] };
  // The real Ophidian Rifle: "Add +1 DICE to roll for attacks made with this weapon if the Cover or Long
  // Range modifiers apply to the attack, instead of adding -1 DICE" (coverAndLongRangeDice, ruling T31),
  // and its "Note that this means you add +2 DICE to the roll if both modifiers apply to the attack".
  const coverInstead = /^add ([+-]\d) dice to (?:the )?rolls? for attacks made with this weapon if the cover or long range modifiers apply to the attack, instead of adding -1 dice$/i;
  const instead = coverInstead.exec(sentence);
  if (instead) return { kind: 'read', effects: [{ kind: 'field', field: 'coverAndLongRangeDice', value: Number(instead[1]) }] };
  if (/^note that this means you add ([+-]\d) dice to the roll if both modifiers apply to the attack$/i.test(sentence) && after(coverInstead)) {
    const each = Number(coverInstead.exec(before!)![1]);
    if (Number(/([+-]\d) dice/i.exec(sentence)![1]) === 2 * each) return { kind: 'read', effects: [] };
  }
  // A blast's direct hit made Deadly: the real Infernal Bomb's and M.U.R.A.D Bombard's "If the Success Roll
  // for a Ranged Attack with an Infernal Bomb that targets an enemy model is a Success or a Critical Success,
  // or if the attack is a Failure and the target point scatters onto a model's base, apply the effect of
  // the DEADLY Keyword to the Injury Roll for that model"; the Phosphor Bomb's "If a model was the target for
  // a Phosphor Bomb and hit by it, or if ... scatters and the target point lands on a model's base, when you
  // make the Injury Roll for that model, roll 3D6 and add all 3 dice together" (the question's target is the
  // model hit), with its "Any +INJURY DICE or -INJURY DICE ... apply normally, except that you pick the 3
  // highest or lowest dice ..." after it: DEADLY as the core rules roll it (3 dice and the injury dice, 3 kept).
  const directDeadly =
    /^if the success roll for a ranged attack with (?:a |an |the )?[\w.' -]+ that targets an enemy model is a success or a critical success, or if the attack is a failure and the target point scatters onto a model'?s base, apply the effect of the deadly keyword to the injury roll for that model$/i;
  const directThreeDice =
    /^if a model was the target for (?:a |an |the )?[\w' -]+ and hit by it, or if (?:a |an |the )?[\w' -]+ scatters and the target point lands on a model'?s base, when you make the injury roll for that model, roll 3d6 and add all 3 dice together$/i;
  if (directDeadly.test(sentence) || directThreeDice.test(sentence)) return { kind: 'read', effects: [{ kind: 'keyword', keyword: 'DEADLY' }] };
  const threeKept = /^any \+injury dice or -injury dice that applied to the injury roll will apply normally, except that you pick the 3 highest or lowest dice in the roll instead of the 2 highest or lowest$/i;
  if (threeKept.test(sentence) && after(directThreeDice)) return { kind: 'read', effects: [] };
  // ... "Additionally, it applies an additional +1 BLOOD MARKER to that model": the model hit, after every roll.
  const additionalMarker = /^additionally, it applies an additional \+(\d) blood markers? to that model$/i.exec(sentence);
  if (additionalMarker && after(threeKept)) return { kind: 'read', effects: [{ kind: 'field', field: 'extraBloodMarkers', value: Number(additionalMarker[1]) }] };
  // "Add -1 INJURY DICE to the roll for a model that is hit by an Infernal Bomb if it is in contact with a
  // terrain piece that is at least 1/2" tall and that lies in between it and the target point": a model in
  // cover (the core rules' cover, ruling T30), so injury dice against a target in cover (injuryDiceInCover, T31).
  const coverDice = /^add ([+-]\d) injury dice to the roll for a model that is hit by (?:a |an |the )?[\w' -]+ if it is in contact with a terrain piece that is at least [\d/⁄]+" tall and that lies in between it and the target point$/i.exec(sentence);
  if (coverDice) return { kind: 'read', effects: [{ kind: 'field', field: 'injuryDiceInCover', value: Number(coverDice[1]) }] };
  // The real Demonic Aura Grenade: "Double the number of BLOOD MARKERS placed next to a model by an Injury
  // Roll for an attack made with a Demonic Aura Grenade" (bloodMarkersMultiplier 2, ruling T36).
  if (/^double the number of blood markers placed next to a model by an injury roll for an attack made with (?:a |an |the |this )?[\w' -]+$/i.test(sentence)) {
    return { kind: 'read', effects: [{ kind: 'field', field: 'bloodMarkersMultiplier', value: 2 }] };
  }
  // The real Butcher Bayonet: "Friendly models within 3" of a model with a Butcher Bayonet achieve a
  // Critical Success on an 11+ for their Melee Attacks": its bearer is within 3" of itself, so the weapon's
  // own melee attacks are critical on 11+ (criticalThreshold, ruling T39).
  const auraCritical = /^friendly models within \d+" of a model with (?:a |an |the )?[\w' -]+ achieve a critical success on an? (\d+)\+ for their melee attacks$/i.exec(sentence);
  if (auraCritical) return { kind: 'read', effects: [{ kind: 'field', field: 'criticalThreshold', value: Number(auraCritical[1]) }] };
  // The real Chain Kura: "Minor Injuries caused by the Chain Kura are treated as Down results instead" (minorAsDown, ruling T33).
  if (/^minor (?:injuries|injury results|hits?(?: results)?) caused by (?:a |an |the |this )?[\w' -]+? are treated as down results?(?: instead)?$/i.test(sentence)) {
    return { kind: 'read', effects: [{ kind: 'field', field: 'minorAsDown', value: true }] };
  }
  const critical = /^if the success roll for an? (?:ranged |melee )?attack made (?:with|by) (?:a |an |the |this )?(.+?) is a critical success,? then the injury roll for the attack has the (?:keyword )?ignores? armou?r(?: keyword)?$/i.exec(sentence);
  if (critical && !/\b(that|which|if|when|against|within|target|down)\b/i.test(critical[1]!)) return { kind: 'read', effects: [{ kind: 'keyword', keyword: 'IGNORE ARMOUR ON CRITICAL' }] };
  // The core rules' DEADLY, in other words: "If the Injury Roll has the Deadly Keyword, instead roll 3D6 and
  // add all 3 dice together" (004). The real Improvised Melee Weapon: "rolls on the Injury Chart with 3D6
  // (instead of usual 2D6), adding all three dice together!".
  // "When a Fire Hose is used to make a Ranged Attack, do not make a Success Roll for the attack": every
  // attack hits and none is a critical, as a flamethrower's (autoHit; its FLAMETHROWER keyword in 004).
  if (/^when (?:(?:the|this|a|an) )?[\w' -]+? is used to make an? (?:ranged |melee )?attack, do not make a success roll for the attack$/i.test(sentence)) {
    return { kind: 'read', effects: [{ kind: 'field', field: 'autoHit', value: true }] };
  }
  // "This weapon has the IGNORE ARMOUR Keyword if the target is Down" (the real Misericordia); "This weapon
  // adds an additional +1 INJURY DICE against a model that is Downed" (the Anaza Spear): rules of the
  // weapon against a Down target, which every kind applies while its target is Down (targetDown).
  if (/^(?:this|the) weapon has the ignore armou?r keyword if the target is down(?:ed)?$/i.test(sentence)) {
    return { kind: 'read', effects: [{ kind: 'field', field: 'ignoreArmourIfDown', value: true }] };
  }
  // "Injury Rolls made with this weapon cause an additional BLOOD MARKER to the target, regardless of result
  // of the roll" (the real Khyber Knife); "After making the Injury Roll for a Gavel of Justice, place 1 extra
  // BLOOD MARKER next to the target model (even if the Injury Roll has No Effect)": markers after every roll,
  // as FIRE's, that no NEGATE keyword stops (extraBloodMarkers, ruling T27).
  const extraMarkers =
    /^injury rolls made with this weapon cause (an?|\d+) additional blood markers? (?:to|on|next to) the target,? regardless of (?:the )?result of the roll$/i.exec(sentence) ??
    /^after making the injury roll for (?:(?:a|an|the|this) )?[\w' -]+, place (an?|\d+) extra blood markers? next to the target(?: model)?(?: \(even if the injury roll has no effect\))?$/i.exec(sentence);
  if (extraMarkers) return { kind: 'read', effects: [{ kind: 'field', field: 'extraBloodMarkers', value: /^\d+$/.test(extraMarkers[1]!) ? Number(extraMarkers[1]) : 1 }] };
  // "Add +1 INJURY DICE to rolls against models that have the BLACK GRAIL or DEMONIC Keyword" (the real Holy
  // Grenade); "Attacks made against model with the keywords DEMONIC, HERETIC, and BLACK GRAIL add +1 INJURY
  // DICE" (the Bident: any of them, ruling T35); "If the target has the BLACK GRAIL, DEMONIC, or HERETIC
  // Keyword, place 2 BLOOD MARKERS next to it instead of 1" (the Gavel of Justice: one marker more). A
  // bonus against a target's keywords, the keyword token "+1 INJURY DICE VS BLACK GRAIL/DEMONIC", which
  // every kind reads against the target model's keywords (src/model/keywords.ts).
  const diceFirst = /^add ([+-]\d+) injury dice to (?:the )?(?:injury )?rolls? against (?:models?|targets?) (?:that (?:has|have)|with) the (.+?) keywords?$/i.exec(sentence);
  const keywordsFirst = /^attacks made against (?:an? )?models? with the keywords? (.+?) add ([+-]\d+) injury dice$/i.exec(sentence);
  const vsDice = diceFirst ? { dice: diceFirst[1]!, list: diceFirst[2]! } : keywordsFirst ? { dice: keywordsFirst[2]!, list: keywordsFirst[1]! } : undefined;
  const vsMarkers = /^if the target has the (.+?) keywords?, place (\d+) blood markers next to it instead of (\d+)$/i.exec(sentence);
  const vsNames = (list: string) => keywordList(list.replace(/,?\s+and\s+/gi, ', '), context.keyword);
  if (vsDice) {
    const names = vsNames(vsDice.list);
    if (names) return { kind: 'read', effects: [{ kind: 'keyword', keyword: bonusVsKeywordsText({ field: 'injuryDice', value: Number(vsDice.dice), vs: names }) }] };
  }
  if (vsMarkers && Number(vsMarkers[2]) > Number(vsMarkers[3])) {
    const names = vsNames(vsMarkers[1]!);
    if (names) return { kind: 'read', effects: [{ kind: 'keyword', keyword: bonusVsKeywordsText({ field: 'extraBloodMarkers', value: Number(vsMarkers[2]) - Number(vsMarkers[3]), vs: names }) }] };
  }
  const downDice = /^(?:this|the) weapon adds (?:an additional |an extra )?\+(\d) injury dice against (?:a model|a target|the target|models?) that (?:is|are) down(?:ed)?$/i.exec(sentence);
  if (downDice) return { kind: 'read', effects: [{ kind: 'field', field: 'injuryDiceIfDown', value: Number(downDice[1]) }] };
  if (/^(?:(?:the|this|a|an) )?[\w' -]*?\brolls? (?:on the injury (?:chart|table)|(?:for )?injur(?:y|ies)(?: rolls?)?) with 3d6(?: \(instead of (?:the )?(?:usual )?2d6\))?,? (?:and )?add(?:ing|s)? (?:all )?(?:three|3) dice together!?$/i.test(sentence)) {
    return { kind: 'read', effects: [{ kind: 'keyword', keyword: 'DEADLY' }] };
  }
  return classed(sentence, context, previous);
}

/** Words a sentence that restates a token of the Keywords with a condition may hold besides the token and the condition. */
const RESTATEMENT_FILLER = /^(?:add|to|the|rolls?|for|ranged|melee|attacks?|made|by|with|this|weapon|a|an|injury|success|roll|keyword|does|not|apply|applies|\s)*$/i;

/** Whether `sentence`, with `token` and `condition` taken out, holds nothing else: it only restates the token under the condition. */
export function onlyRestates(sentence: string, tokenPattern: RegExp, condition: string): boolean {
  return RESTATEMENT_FILLER.test(sentence.replace(condition, ' ').replace(tokenPattern, ' '));
}
