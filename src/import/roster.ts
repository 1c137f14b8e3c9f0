import { UsageError, showValue } from '../errors.js';
import { refusal } from '../messages.js';
import { editionTable } from '../model/edition-table.js';
import { fearlessAttacker, fearlessKeywords, injuryDiceUnlessText, keywordFields, parseKeyword, type InjuryDiceUnless } from '../model/keywords.js';
import { checkProfileFields, type EffectSource, type Profile, type Profiles, type Unmodelled } from '../model/profiles.js';
import type { FieldValue, ProfileRole, RuleTable, SystemSpec } from '../model/types.js';
import { findSystem } from '../rules/registry.js';
import type { CatalogueLoadout, RosterProfile, RosterSelection, RosterTree } from './read-roster.js';
import { effectKeywordPattern, NO_WORD_OF_THE_ODDS, onlyRestates, readModelSentence, readWeaponSentence, sentencesOf, type SentenceReading, type TextContext, type TextEffect } from './rules-text.js';
import { CLASS_TEXT, type SentenceClass } from './sentence-forms/form.js';
import { normaliseToken, readToken, splitKeywords, splitRunTogether, tableName, type Token } from './weapon-keywords.js';

/**
 * A roster's selections as profiles (docs/import.md): each model selection a model profile, each weapon
 * selection a weapon profile, and each weapon a model carries also as "MODEL with WEAPON", the weapon in
 * that model's hands. What the rule table does not know is kept on the profile as not modelled.
 */

/** The games whose rosters are read, by the name a roster gives its game system (lower case). */
const ROSTER_SYSTEMS: Readonly<Record<string, string>> = { 'trench crusade': 'trench-crusade' };

/** The system a roster is for; a roster of another game is refused, one that names none is taken as Trench Crusade. */
export function rosterSystem(tree: RosterTree): SystemSpec {
  const given = tree.gameSystemName?.toLowerCase();
  const id = given === undefined ? ROSTER_SYSTEMS['trench crusade'] : Object.entries(ROSTER_SYSTEMS).find(([name]) => given.includes(name))?.[1];
  const system = id === undefined ? undefined : findSystem(id);
  if (!system) {
    throw refusal(tree.label, `for ${showValue(tree.gameSystemName)}`, `allowed: a roster or catalogue of ${Object.keys(ROSTER_SYSTEMS).map((n) => showValue(n)).join(', ')}`);
  }
  return system;
}

/** Profile and characteristic names of the Trench Crusade data (matched without regard to case). */
const ARMOUR = 'armour';
const MELEE = 'melee';
const RANGED = 'ranged';
const isWeaponProfile = (p: RosterProfile) => /weapon/i.test(p.typeName);
const isAbility = (p: RosterProfile) => /abilit/i.test(p.typeName);
const characteristic = (p: RosterProfile, name: string) => p.characteristics.find((c) => c.name.toLowerCase() === name)?.$text;
const visible = (s: RosterSelection) => s.profiles.filter((p) => !p.hidden);
/** A model's profile carries an Armour characteristic; items and weapons do not. */
const ownModelProfile = (s: RosterSelection) => visible(s).find((p) => !isWeaponProfile(p) && characteristic(p, ARMOUR) !== undefined);
const isModelType = (s: RosterSelection) => /^(model|unit)$/i.test(s.type);

/**
 * A selection's model profile and the selection that carries it: its own, or, for a selection of type
 * "model" without one, the one an option under it carries. The real catalogue's thralls are such: their
 * own profiles are an unarmed attack and an ability, and the Unit profile is on the option chosen
 * ("Grounded" or "Winged"), which is then part of the model, not a model of its own.
 */
function modelProfileOf(s: RosterSelection): { readonly profile: RosterProfile; readonly from: RosterSelection } | undefined {
  const own = ownModelProfile(s);
  if (own) return { profile: own, from: s };
  if (!isModelType(s)) return undefined;
  const queue = [...s.selections];
  for (let node = queue.shift(); node; node = queue.shift()) {
    if (isModelType(node)) continue;
    const found = ownModelProfile(node);
    if (found) return { profile: found, from: node };
    queue.push(...node.selections);
  }
  return undefined;
}

/** What was read for one profile before names are settled. */
interface Draft {
  name: string;
  readonly role: ProfileRole;
  readonly fields: Record<string, FieldValue>;
  readonly keywords: string[];
  /** A model's injury dice with a condition on the attacking weapon (rules text read whole), as data. */
  readonly injuryDiceUnless?: InjuryDiceUnless[];
  readonly unmodelled: Unmodelled[];
  /**
   * A model's sentences about its own attacks that are not read (rules-text.ts): they stop each
   * "MODEL with WEAPON", not the model as a target.
   */
  readonly ownAttackText: Unmodelled[];
  /** Where each effect came from (`profiles --explain`). */
  readonly sources: EffectSource[];
  readonly cost?: number;
  /** Its price in the roster's other cost types (a mercenary's Glory Points). */
  readonly otherCosts?: Readonly<Record<string, number>>;
  /** Whose price the cost is (a catalogue's faction), and what a different one of the same name is called after. */
  readonly priceOf?: string;
  /** The catalogue that holds it: what a different one of the same name, priced by no faction, is called after. */
  readonly catalogue?: string;
  /** The faction whose link offers it: what a different one of the same name, not priced apart, is called after (its loadout differs). */
  readonly offeredBy?: string;
  /** A catalogue's weapon: the ids of the links (or entries) it was read from, which a model's loadout names. */
  readonly origins?: readonly string[];
  /** A catalogue's model: the weapons it may carry, by those ids, and what could not be evaluated. */
  readonly loadout?: CatalogueLoadout;
  /** A model's weapons, and its Melee and Ranged dice, for "MODEL with WEAPON". */
  readonly weapons: Draft[];
  readonly dice?: Readonly<Record<string, string>>;
}

/** The costs of one (a selection of N models costs N times one), over its subtree, by cost type. */
interface SubtreeCosts {
  readonly totals: Map<string, number>;
  /** Negative costs met on the way: offsets of the roster's total (NewRecruit's storage), never a price. */
  readonly offsets: Unmodelled[];
}

function subtreeCosts(s: RosterSelection, stopAt: (s: RosterSelection) => boolean): SubtreeCosts {
  const totals = new Map<string, number>();
  const offsets: Unmodelled[] = [];
  const stack = [s];
  for (let node = stack.pop(); node; node = stack.pop()) {
    for (const c of node.costs) {
      if (c.value < 0) offsets.push({ text: `${node.name}: ${c.name} ${c.value}`, from: 'cost', why: "a negative cost is an offset of the roster's total, not a price", stops: false });
      else totals.set(c.name, (totals.get(c.name) ?? 0) + c.value);
    }
    for (const child of node.selections) if (!stopAt(child)) stack.push(child);
  }
  for (const [name, total] of totals) totals.set(name, total / s.number);
  return { totals, offsets };
}

/**
 * A profile's cost is in the roster's first cost type (Ducats); its price in the others (Glory Points)
 * is kept beside it, and offsets are listed, never dropped. A profile priced only in other types (the
 * real catalogue's mercenaries: 0 Ducats, 4 Glory Points) has no cost, rather than a cost of 0 that a
 * value chart would read as free.
 */
interface CostParts {
  readonly cost?: number;
  readonly otherCosts?: Record<string, number>;
  /** Negative costs met in the subtree: listed with the profile, never part of its price. */
  readonly offsets: Unmodelled[];
}

function costParts({ totals, offsets }: SubtreeCosts, costType: string | undefined): CostParts {
  const other = [...totals].filter(([name, value]) => name !== costType && value !== 0);
  // No cost of the type anywhere (a library catalogue's entry, priced only on the links to it): no cost, never 0.
  const cost = costType === undefined ? undefined : totals.get(costType);
  const onlyOther = cost === 0 && other.length > 0;
  return {
    ...(cost === undefined || onlyOther ? {} : { cost }),
    ...(other.length ? { otherCosts: Object.fromEntries(other) } : {}),
    offsets: [...offsets],
  };
}

/** What a draft says of its price and whose it is: its subtree's costs, and the selection's faction and catalogue. */
function pricing(s: RosterSelection, costs: CostParts | undefined): Pick<Draft, 'cost' | 'otherCosts' | 'priceOf' | 'catalogue' | 'offeredBy'> {
  return {
    ...(costs?.cost === undefined ? {} : { cost: costs.cost }),
    ...(costs?.otherCosts ? { otherCosts: costs.otherCosts } : {}),
    ...(s.priceOf === undefined ? {} : { priceOf: s.priceOf }),
    ...(s.catalogue === undefined ? {} : { catalogue: s.catalogue }),
    ...(s.offeredBy === undefined ? {} : { offeredBy: s.offeredBy }),
  };
}

/**
 * The armour and shield of a model. Its armour and shield items come first, wherever they sit in its
 * selection tree: a shield is an item whose profile's Type is "Shield" (the real catalogue's "Polearm
 * and Shield" holds one beside the weapon), an armour an item of Type "Armour" named after an armour of
 * the table ("Reinforced Armour"). Without an armour item, the Armour characteristic is read as the
 * final value, every item folded in: with a shield, -3 is Reinforced Armour and the shield, never
 * Machine Armour. Names ("Reinforced") are read too. A value that is no armour of the table stops every
 * command that uses the model.
 */
function readArmour(value: string, hasShield: boolean, table: RuleTable, items: readonly ArmourItem[] = []): { fields: Record<string, FieldValue>; problem?: string; from?: string } {
  const armours = table.armour as Readonly<Record<string, number>>;
  const shield = (table.shield as { readonly modifier: number }).modifier;
  // An armour item the model carries names its armour ("Reinforced Armour"), wherever it sits in the tree,
  // or, named otherwise ("Armour of the Fly"), gives it by its own -N INJURY MODIFIER.
  const armourOf = ({ name, modifier }: ArmourItem) =>
    Object.keys(armours).find((a) => a !== 'none' && new RegExp(`\\b${a}\\b`, 'i').test(name)) ?? (modifier === undefined ? undefined : Object.keys(armours).find((a) => a !== 'none' && armours[a] === modifier));
  const byItem = items.map((item) => ({ item, armour: armourOf(item) })).find((x) => x.armour !== undefined);
  if (byItem) return { fields: { armour: byItem.armour!, ...(hasShield ? { shield: true } : {}) }, from: `armour item ${JSON.stringify(byItem.item.name)}` };
  const unread = items.find(({ modifier }) => modifier !== undefined);
  if (unread) return { fields: {}, problem: `its armour item ${JSON.stringify(unread.name)} gives ${unread.modifier} INJURY MODIFIER, which is no armour of the rule table` };
  const t = value.trim().toLowerCase();
  const byName = Object.keys(armours).find((a) => t === a || t === `${a} armour`);
  if (byName) return { fields: { armour: byName, ...(hasShield ? { shield: true } : {}) }, from: `Armour characteristic ${JSON.stringify(value)}` };
  const n = t === '' || t === '-' ? 0 : /^[+-]?\d+$/.test(t) ? Number(t) : NaN;
  const armourPart = hasShield ? n - shield : n;
  const found = Object.keys(armours).find((a) => armours[a] === armourPart);
  if (found === undefined) {
    const allowed = Object.entries(armours).map(([a, m]) => `${m} (${a})`).join(', ');
    return { fields: {}, problem: `no armour of the rule table${hasShield ? ' with a shield' : ''}; allowed: ${allowed}${hasShield ? `, each ${shield} more with a shield` : ''}` };
  }
  return { fields: { armour: found, ...(hasShield ? { shield: true } : {}) }, from: `Armour characteristic ${JSON.stringify(value)}${hasShield ? `, a shield's ${shield} taken out` : ''}` };
}

/** An armour item a model carries: its name, and the injury modifier its keywords give (undefined if none). */
interface ArmourItem {
  readonly name: string;
  readonly modifier?: number;
}

/** A model's Melee or Ranged characteristic ("+1 DICE", "-1", "0") as attack dice, or undefined if it is not one. */
function readDice(value: string): number | undefined {
  const t = value.trim().toUpperCase();
  if (t === '' || t === '-') return 0;
  const m = /^([+-]?\d+)\s*(D|DICE|DIE)?$/.exec(t);
  return m ? Number(m[1]) : undefined;
}

/**
 * A Rules characteristic with something in it ("-" is nothing). A catalogue may name it "Description":
 * the real one does on its Battlekit items, whose characteristic type (by id, in the game system) is
 * Rules, and a roster exported from it carries that name without the game system's types.
 */
const rulesOf = (p: RosterProfile) => {
  const t = characteristic(p, 'rules') ?? characteristic(p, 'description');
  return t && t !== '-' && t !== '—' ? t : undefined;
};

/**
 * The condition under which a sentence of a weapon's rules text gives a token of its Keywords (`wanted`, as
 * normaliseToken writes it) ("Add +1
 * INJURY DICE to rolls ... at Short Range." gives "at Short Range"), or takes it away ("The +1 DICE Keyword
 * does not apply when this Weapon is used as an Off-Hand Weapon": `takenAway`), where the sentence says
 * that and nothing else (onlyRestates); otherwise undefined.
 */
function conditionOfToken(wanted: string, sentence: RulesSentence): { readonly condition: string; readonly takenAway: boolean } | undefined {
  if (!sentence.normalised.includes(wanted)) return undefined;
  const m = /\b(at (?:short|long) range|within \d+\S*|against [^.,;]+|if [^.,;]+|when [^.,;]+|unless [^.,;]+)/i.exec(sentence.sentence);
  if (!m) return undefined;
  // The token as the sentence writes it: its number and words, spacing and case aside ("+1 INJURY DICE").
  const tokenPattern = new RegExp(wanted.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s-]+'), 'i');
  if (!onlyRestates(sentence.sentence, tokenPattern, m[1]!)) return undefined;
  return { condition: m[1]!.trim(), takenAway: /\b(does not|do not|doesn't|don't|never|no longer)\b/i.test(sentence.sentence) };
}

interface RulesSentence {
  readonly sentence: string;
  readonly normalised: string;
}

/** A rules text's sentences (rules-text.ts), each with its normalised form (read once per profile, whatever its number of tokens). */
const rulesSentences = (text: string): RulesSentence[] => sentencesOf(text).map((sentence) => ({ sentence, normalised: normaliseToken(sentence) }));

/** A weapon's modifiers looked for in its rules text: a real weapon has a few; a hostile file's thousands are not. */
const MAX_CONDITIONAL_LOOKUPS = 16;

/** A number with its sign, as the game writes modifiers: "+1", "-2". */
const signed = (n: number) => `${n > 0 ? '+' : ''}${n}`;

/** A sentence as a listing shows it: whole up to 200 characters (a message names the sentence that stops). */
const shown = (text: string) => (text.length > 200 ? `${text.slice(0, 197)}...` : text);

/** Rules text of which no sentence speaks of the odds: listed, shortened, as not modelled. */
function rulesTextItem(text: string, from: string): Unmodelled {
  return { text: text.length > 80 ? `${text.slice(0, 77)}...` : text, from, why: 'no sentence of it speaks of rolls, dice, injuries, armour or markers', stops: false };
}

/** Adds what tokens give to a draft: modifiers summed into fields, keywords once each, the rest not modelled. */
function addTokens(draft: Draft, tokens: readonly Token[], from: string, stops: boolean): void {
  for (const t of tokens) {
    if (t.kind === 'modifier') {
      draft.fields[t.field] = ((draft.fields[t.field] as number | undefined) ?? 0) + t.value;
      draft.sources.push({ effect: `${t.field} ${signed(t.value)}`, from: `${from} ${JSON.stringify(t.text)}` });
    } else if (t.kind === 'keyword') {
      if (!draft.keywords.includes(t.keyword)) draft.keywords.push(t.keyword);
      draft.sources.push({ effect: t.keyword, from: `${from} ${JSON.stringify(t.text)}` });
    } else if (t.kind === 'injuryDiceUnless' && draft.injuryDiceUnless) {
      draft.injuryDiceUnless.push(t.condition);
      draft.sources.push({ effect: injuryDiceUnlessText(t.condition), from: `${from} ${JSON.stringify(t.text)}` });
    } else if (t.kind === 'injuryDiceUnless') {
      draft.unmodelled.push({ text: t.text, from, why: "a condition on the attacking weapon is a model's, not a weapon's", stops });
    } else if (!draft.unmodelled.some((u) => u.text === t.text && u.from === from)) draft.unmodelled.push({ text: t.text, from, why: t.why, stops });
  }
}

/** The keywords of a rule table that give no field: known, and of no effect on the odds here (HEAVY, BLAST). */
function noEffectKeywords(rules: RuleTable): ReadonlySet<string> {
  const table = (rules.keywords ?? {}) as Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  return new Set(Object.entries(table).filter(([, effects]) => Object.keys(effects).length === 0).map(([name]) => name));
}

/**
 * A rule a weapon links (an infoLink to the game's shared rules) is not a keyword: the weapon's Keywords
 * characteristic is. The real catalogue links "Ignore Armour" to weapons whose own text gives it only
 * after a critical success (a sniper's "Bull's Eye") or only against a Down target: read as a keyword,
 * the link gave IGNORE ARMOUR on every attack (25.5% Out of Action instead of 11.2%). So a link the
 * Keywords already name adds nothing, and any other is listed, never read as an effect.
 */
function addRuleLink(draft: Draft, name: string): void {
  const token = normaliseToken(name);
  const named = draft.keywords.some((k) => sameKeywordName(k, token));
  if (named || draft.unmodelled.some((u) => u.text === name && u.from === 'rule')) return;
  draft.unmodelled.push({ text: name, from: 'rule', why: "a linked rule, not in the weapon's Keywords: its text may make it conditional, so the link gives no effect", stops: false });
}

/** A keyword and a rule's name are the same keyword, plurals and a number aside ("IGNORE ARMOUR" and "Ignores Armour"). */
function sameKeywordName(keyword: string, ruleName: string): boolean {
  const bare = (t: string) => parseKeyword(t).name.replace(/S\b/g, '');
  return bare(keyword) === bare(ruleName);
}

/**
 * A sentence after a lead-in that is not read (the real Anchorite Shrine's "the following special rules,
 * which apply to the Anchorite Shrine until it suffers an Out of Action result:"), which puts it under a
 * condition: one that would be read whole ("It treats Down results as Minor Hit results") stops instead,
 * as the lead-in's class where a form classed it (the Shrine's touches rolls against it: it stops the
 * Shrine as a target, and not the weapons in its hands), else as unclear.
 */
function underLeadIn(reading: SentenceReading, leadIn: { readonly text: string; readonly touches: SentenceClass } | undefined): SentenceReading {
  if (leadIn === undefined || reading.kind !== 'read') return reading;
  const touches = leadIn.touches === 'none' ? 'unclear' : leadIn.touches;
  return { kind: 'classed', touches, why: `it holds only under ${JSON.stringify(shown(leadIn.text))}, which is not read` };
}

/** What a sentence read whole gives, said as the listing says it. */
function effectText(e: TextEffect): string {
  if (e.kind === 'keyword') return e.keyword;
  if (e.kind === 'field') return `${e.field} ${String(e.value)}`;
  if (e.kind === 'targetAttackDice') return `targetAttackDice ${e.dice}${e.applies === 'both' ? '' : ` (${e.applies} attacks)`}`;
  return e.unless.length || e.onlyIf?.length ? injuryDiceUnlessText(e) : `${signed(e.dice)} INJURY DICE`;
}

/**
 * Adds what sentences read whole give to a draft: keywords once each, dice summed into fields, a
 * condition on the attacking weapon as data (an unknown keyword never reaches it: the sentence stops
 * instead). Returns why an effect cannot be added (targetAttackDice for melee attacks on a model that
 * has it for ranged ones), else undefined.
 */
function addEffect(draft: Draft, e: TextEffect, from: string, fieldSpec: TextContext['fieldSpec']): string | undefined {
  const problem = applyEffect(draft, e, fieldSpec);
  if (problem === undefined) draft.sources.push({ effect: effectText(e), from });
  return problem;
}

function applyEffect(draft: Draft, e: TextEffect, fieldSpec: TextContext['fieldSpec']): string | undefined {
  if (e.kind === 'keyword') {
    if (!draft.keywords.includes(e.keyword)) draft.keywords.push(e.keyword);
    return undefined;
  }
  if (e.kind === 'field') {
    // Where the field is declared (fields.ts) says whose it is, and whether values read for it add up
    // (dice, markers) or one is set (a critical's threshold, a multiplier, an armour's kept modifier).
    const spec = fieldSpec(e.field);
    const role = spec?.profile;
    if (draft.role !== role) return `${e.field} is ${role === undefined ? 'no field of this system' : `a ${role}'s field`}, not a ${draft.role}'s`;
    draft.fields[e.field] = typeof e.value === 'number' && spec?.stacks ? ((draft.fields[e.field] as number | undefined) ?? 0) + e.value : e.value;
    return undefined;
  }
  if (e.kind === 'targetInjuryDice' && (e.unless.length > 0 || (e.onlyIf?.length ?? 0) > 0)) {
    if (!draft.injuryDiceUnless) return 'a condition on the attacking weapon is a model\'s, not a weapon\'s';
    draft.injuryDiceUnless.push({ dice: e.dice, unless: e.unless, ...(e.onlyIf?.length ? { onlyIf: e.onlyIf } : {}) });
    return undefined;
  }
  if (e.kind === 'targetInjuryDice') {
    draft.fields.targetInjuryDice = ((draft.fields.targetInjuryDice as number | undefined) ?? 0) + e.dice;
    return undefined;
  }
  const applies = draft.fields.targetAttackDiceApplies as string | undefined;
  if (applies !== undefined && applies !== e.applies) return `its attack dice against ${applies === 'both' ? 'all' : applies} attacks and against ${e.applies === 'both' ? 'all' : e.applies} ones cannot be one field`;
  draft.fields.targetAttackDice = ((draft.fields.targetAttackDice as number | undefined) ?? 0) + e.dice;
  if (e.applies !== 'both') draft.fields.targetAttackDiceApplies = e.applies;
  return undefined;
}

/**
 * Rules text, sentence by sentence (rules-text.ts): a sentence read whole gives its effects; one not read
 * is classed by what it touches (sentence-forms/form.ts) and stops only the questions that use it. A
 * model's sentence that touches rolls against it stops the model as a target; one that touches its own
 * attacks stops each weapon in its hands ("MODEL with WEAPON", a duel side's carrier); an unclear one
 * stops both. A weapon's sentence (`isWeapon`) stops the weapon unless it touches no roll. Every sentence
 * not read is listed with its class (`profiles --explain`); a text none of whose sentences speaks of the
 * odds is listed once, shortened, unless `listUnread` is false (an ability's name already says it).
 */
function addText(
  draft: Draft,
  sentences: readonly string[],
  text: string,
  from: string,
  /** `before`: the sentence before it in the same text, which one that restates or carries on a rule reads. */
  read: (sentence: string, previous: SentenceClass | undefined, before: string | undefined) => SentenceReading,
  { listUnread, isWeapon, fieldSpec }: { readonly listUnread: boolean; readonly isWeapon: boolean; readonly fieldSpec: TextContext['fieldSpec'] },
): void {
  const readAs: string[] = [];
  const listed: Unmodelled[] = [];
  /** Whether a sentence not read speaks of the odds (was classed by more than the absence of their words). */
  let spoke = false;
  /** A lead-in not read ("... the following special rules, which apply until ...:"): what follows it is under its condition. */
  let under: { readonly text: string; readonly touches: SentenceClass } | undefined;
  let previous: SentenceClass | undefined;
  /** A lead-in to another model's rules or commands: what follows its colon is that model's. */
  let othersUnder: string | undefined;
  /** A sentence that opens an option (a spell, a choice before the game): the rest of the text is what it does. */
  let optionUnder: { readonly sentence: string; readonly ofItsAttacks: boolean } | undefined;
  /** An ACTION the model may take: what the sentences after it do to an attack holds only when it is taken. */
  let choiceUnder: string | undefined;
  for (const [i, sentence] of sentences.entries()) {
    const own = read(sentence, previous, sentences[i - 1]);
    const reading: SentenceReading =
      optionUnder !== undefined
        ? { kind: 'classed', touches: 'option', why: `what the option does: it holds only when ${JSON.stringify(shown(optionUnder.sentence))} is taken`, ...(optionUnder.ofItsAttacks ? { ofItsAttacks: true as const } : {}) }
        : othersUnder !== undefined && own.kind === 'classed'
          ? { kind: 'classed', touches: 'none', why: `another model's: it is under ${JSON.stringify(shown(othersUnder))}` }
          : choiceUnder !== undefined && own.kind === 'classed' && own.touches !== 'none' && own.touches !== 'unclear'
            ? { kind: 'classed', touches: 'option', why: `what the ACTION does: it holds only when ${JSON.stringify(shown(choiceUnder))} is taken`, ...(own.touches === 'attacker' ? { ofItsAttacks: true as const } : {}) }
            : underLeadIn(own, under);
    if (reading.kind === 'classed' && reading.optionFollows) optionUnder ??= { sentence, ofItsAttacks: reading.ofItsAttacks === true };
    if (reading.kind === 'classed' && reading.choiceFollows) choiceUnder ??= sentence;
    if (sentence.endsWith(':') && reading.kind !== 'read') {
      if (reading.kind === 'classed' && reading.othersFollow) othersUnder ??= sentence;
      else under ??= { text: sentence, touches: reading.touches };
    }
    if (reading.kind === 'read') {
      previous = isWeapon ? 'weapon' : 'target';
      const problem = reading.effects.map((e) => addEffect(draft, e, `${from}: ${JSON.stringify(shown(sentence))}`, fieldSpec)).find((p) => p !== undefined);
      if (problem === undefined) {
        readAs.push(...reading.effects.map(effectText));
        // The case it does not hold in, which the answer takes and says (an option line at use).
        if (reading.notTaken) listed.push({ text: shown(sentence), from, why: `read for the rest; not taken: ${reading.notTaken}`, stops: false, touches: 'option', notTaken: reading.notTaken });
        if (reading.notTaken) spoke = true;
        continue;
      }
      listed.push({ text: shown(sentence), from, why: problem, stops: true, touches: 'target' });
      spoke = true;
      continue;
    }
    previous = reading.touches;
    if (reading.why !== NO_WORD_OF_THE_ODDS) spoke = true;
    const why = reading.touches === 'unclear' ? reading.why : `${CLASS_TEXT[reading.touches]}: ${reading.why}`;
    const item: Unmodelled = { text: shown(sentence), from, why, stops: reading.touches !== 'none' && reading.touches !== 'option', touches: reading.touches };
    // What follows an attack in a fight stops the entry in duels and sequences: its own item, as a target's.
    // An option about its own attacks is said with each weapon in its hands as well.
    if (reading.touches === 'option' && reading.ofItsAttacks && !isWeapon) draft.ownAttackText.push(item);
    if (isWeapon || reading.touches === 'none' || reading.touches === 'target' || reading.touches === 'fight' || reading.touches === 'option') {
      listed.push(item);
      continue;
    }
    // Its own attacks (or unclear): each weapon in its hands stops; the model as a target only if unclear.
    draft.ownAttackText.push(item);
    listed.push(reading.touches === 'unclear' ? item : { ...item, why: `${item.why}: it stops each "${draft.name} with ..." and not the model as a target`, stops: false });
  }
  const item = rulesTextItem(text, from);
  if (readAs.length) draft.unmodelled.push({ ...item, why: `read as ${readAs.join(', ')}` });
  if (spoke) draft.unmodelled.push(...listed);
  else if (listUnread && !readAs.length) draft.unmodelled.push(item);
}

/** A model's ability text or an item's rules text the model carries (addText). */
function addModelText(draft: Draft, text: string, from: string, context: TextContext, listUnread = true): void {
  addText(draft, sentencesOf(text), text, from, (sentence, previous) => readModelSentence(sentence, context, previous), { listUnread, isWeapon: false, fieldSpec: context.fieldSpec });
}

/**
 * A weapon's rules text (addText), but for the sentences that restate a token of the Keywords with its
 * condition: those are read into the weapon's alternative profiles, so the text is not listed as unread.
 */
function addWeaponText(draft: Draft, text: string, sentences: readonly RulesSentence[], restated: boolean, context: TextContext): void {
  addText(draft, sentences.map((x) => x.sentence), text, 'rules text', (sentence, previous, before) => readWeaponSentence(sentence, context, previous, before), { listUnread: !restated, isWeapon: true, fieldSpec: context.fieldSpec });
}

/**
 * A roster read into profiles by a rule table: the scenario's (its edition's or a variant's). A
 * catalogue is read the same way, as a roster of everything it offers (src/import/catalogue.ts).
 */
export function rosterProfiles(tree: RosterTree, rules: RuleTable, source: 'roster' | 'catalogue' = 'roster'): Profiles {
  const system = rosterSystem(tree);
  const armourTable = editionTable(system, system.defaultEdition);
  const costType = tree.costTypes[0] ?? tree.forces.flatMap((f) => f.selections.flatMap((s) => s.costs.map((c) => c.name)))[0];
  const tokens = (text: string, role: ProfileRole) =>
    splitKeywords(text).flatMap((t) => {
      const read = readToken(t, rules, system, role);
      return read.kind === 'unknown' ? (splitRunTogether(t, rules, system, role) ?? [read]) : [read];
    });
  const nameTokens = (names: readonly string[], role: ProfileRole) => names.map((n) => readToken(n, rules, system, role));
  const keywordTable = (rules.keywords ?? {}) as Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  const effectKeywords = effectKeywordPattern(Object.keys(keywordTable).filter((k) => Object.keys(keywordTable[k]!).length > 0));
  /** What rules text is read against: the entry's names and the rule table's keywords. */
  const textContext = (names: readonly string[]): TextContext => ({ names, keyword: (name) => tableName(keywordTable, normaliseToken(name)), effectKeywords, fieldSpec: (field) => system.fields.find((f) => f.name === field) });
  // Options that carry the Unit profile of the model above them (see modelProfileOf): part of that model.
  const borrowed = new Set<RosterSelection>();
  const isModel = (s: RosterSelection) => !borrowed.has(s) && modelProfileOf(s) !== undefined;
  const isWeapon = (s: RosterSelection) => !isModel(s) && visible(s).some(isWeaponProfile);
  const weaponsAt: Draft[] = [];
  const models: Draft[] = [];
  const unplaced: Unmodelled[] = [];
  /**
   * A catalogue's weapon profiles that a modifier shows only when an option is chosen ("Alchemical
   * Jezzail" with its ammunition): a catalogue chooses no options, so they are listed, not read.
   */
  const noteAlternatives = (s: RosterSelection) => {
    for (const p of s.profiles) {
      if (p.hidden && p.shownWhen && isWeaponProfile(p)) unplaced.push({ text: p.name, from: `weapon profile of ${s.name}`, why: 'shown only when an option is chosen (a modifier with a condition); no option is chosen in a catalogue, so it is not read', stops: false, leftOut: 'option-profile' });
    }
  };

  // A weapon profile on a model's own selection (claws, a built-in gun) is named by the profile, and the model's rules stay the model's.
  const weaponDrafts = (s: RosterSelection, profiles: readonly RosterProfile[], costs?: CostParts): Draft[] =>
    profiles.flatMap((p) => {
      const draft: Draft = {
        // A selection named as a question ("Include Weapon Profile?", an option that adds an item's weapon) is no weapon's name.
        name: profiles.length === 1 && !isModel(s) && !/\?\s*$/.test(s.name) ? s.name : p.name || s.name,
        role: 'weapon',
        fields: {},
        keywords: [],
        unmodelled: [...(costs?.offsets ?? [])],
        ownAttackText: [],
        sources: [],
        weapons: [],
        ...pricing(s, costs),
        ...(s.catalogueIds ? { origins: s.catalogueIds } : {}),
      };
      const range = (characteristic(p, 'range') ?? '').toLowerCase();
      const type = (characteristic(p, 'type') ?? '').toLowerCase();
      // A distance is a ranged weapon, even when it also says Melee (a pistol): --attack-type melee picks the other use.
      if (/\d/.test(range)) draft.fields.attackType = RANGED;
      else if (range.includes(MELEE) || type.includes(MELEE)) draft.fields.attackType = MELEE;
      else draft.unmodelled.push({ text: `Range ${characteristic(p, 'range') || '(none)'}`, from: 'range', why: 'neither a distance nor Melee: the scenario\'s attack type applies', stops: false });
      const rulesText = rulesOf(p);
      const conditional: { token: Token & { kind: 'modifier' }; condition: string; takenAway: boolean }[] = [];
      const sentences = rulesText ? rulesSentences(rulesText) : [];
      /** The sentences that restate a token with its condition: read, as the alternative profiles below. */
      const restating = new Set<RulesSentence>();
      let lookups = 0;
      for (const c of ['keywords', 'modifiers']) {
        const read = tokens(characteristic(p, c) ?? '', 'weapon');
        for (const t of read) {
          if (t.kind !== 'modifier' || sentences.length === 0 || lookups++ >= MAX_CONDITIONAL_LOOKUPS) continue;
          const wanted = normaliseToken(t.text);
          for (const sentence of sentences) {
            const found = conditionOfToken(wanted, sentence);
            if (!found) continue;
            conditional.push({ token: t, ...found });
            restating.add(sentence);
            break;
          }
        }
        addTokens(draft, read.filter((t) => !conditional.some((x) => x.token === t && !x.takenAway)), 'keywords', true);
      }
      if (rulesText) addWeaponText(draft, rulesText, sentences.filter((x) => !restating.has(x)), restating.size > 0, textContext([draft.name]));
      if (!isModel(s)) {
        // What is selected under a weapon (special ammunition, a bayonet's keywords) is part of it: its
        // keywords are read as the weapon's own.
        for (const item of itemsUnder(s)) {
          for (const ip of visible(item)) addTokens(draft, tokens(characteristic(ip, 'keywords') ?? '', 'weapon'), 'keywords', true);
        }
        for (const r of [s, ...itemsUnder(s)].flatMap((n) => n.rules)) addRuleLink(draft, r.name);
      }
      // A modifier of the Keywords that the rules text gives only under a condition (the real catalogue's
      // Heavy Shotgun: "+1 INJURY DICE" in its Keywords, "at Short Range" in its rules): two profiles, the
      // weapon without it and "NAME (CONDITION)" with it, so both answers are there and none is guessed.
      // One the text takes away under a condition (a flail's +1 DICE, not as an Off-Hand Weapon): the
      // weapon with it, and "NAME (CONDITION)" without it.
      const withConditions = conditional.map(({ token, condition, takenAway }) => {
        const alt: Draft = { ...draft, name: `${draft.name} (${condition})`, fields: { ...draft.fields }, keywords: [...draft.keywords], unmodelled: [...draft.unmodelled], sources: [...draft.sources] };
        if (takenAway) {
          alt.sources.push({ effect: `${token.field} ${signed(-token.value)}`, from: `the rules text takes ${JSON.stringify(token.text)} away ${condition}` });
          alt.fields[token.field] = ((alt.fields[token.field] as number | undefined) ?? 0) - token.value;
          if (alt.fields[token.field] === 0) delete alt.fields[token.field];
        } else addTokens(alt, [token], 'keywords', true);
        const why = takenAway ? `the rules text takes it away ${condition}: ${JSON.stringify(alt.name)} is without it` : `the rules text gives it only ${condition}: read into ${JSON.stringify(alt.name)}`;
        draft.unmodelled.push({ text: token.text, from: 'keywords', why, stops: false });
        return alt;
      });
      return [draft, ...withConditions];
    });
  /** The selections under a weapon that are neither weapons nor models: its items. */
  const itemsUnder = (s: RosterSelection): RosterSelection[] => {
    const out: RosterSelection[] = [];
    const stack = [...s.selections];
    for (let node = stack.shift(); node; node = stack.shift()) {
      if (isModel(node) || isWeapon(node)) continue;
      out.push(node);
      stack.push(...node.selections);
    }
    return out;
  };
  /** The weapons and models under a weapon: read on their own. */
  const beneathWeapon = (s: RosterSelection): RosterSelection[] => {
    const out: RosterSelection[] = [];
    const stack = [...s.selections];
    for (let node = stack.shift(); node; node = stack.shift()) {
      if (isModel(node) || isWeapon(node)) out.push(node);
      else stack.push(...node.selections);
    }
    return out;
  };

  /** Walks a model's subtree: its weapons, and the keywords of its items and abilities. */
  const readModel = (s: RosterSelection): Draft => {
    const { profile, from } = modelProfileOf(s)!;
    if (from !== s) borrowed.add(from);
    const costs = costParts(subtreeCosts(s, isModel), costType);
    const draft: Draft = { name: s.name, role: 'model', fields: {}, keywords: [], injuryDiceUnless: [], unmodelled: [...costs.offsets, ...loadoutNotes(s.loadout)], ownAttackText: [], sources: [], weapons: [], dice: {}, ...pricing(s, costs), ...(s.loadout ? { loadout: s.loadout } : {}) };
    let hasShield = false;
    let shieldItem: string | undefined;
    /** Armour items met in the model's tree ("Reinforced Armour"), wherever they sit. */
    const armourItems: ArmourItem[] = [];
    /** A shield or an armour item among a selection's profiles: a shield can sit in a weapon's selection ("Polearm and Shield"). */
    const noteProtection = (p: RosterProfile) => {
      const type = (characteristic(p, 'type') ?? '').toLowerCase();
      if (type === 'shield') {
        hasShield = true;
        shieldItem ??= p.name;
      }
      else if (type === 'armour' || type === 'armor') {
        const modifier = tokens(characteristic(p, 'keywords') ?? '', 'model').find((t) => t.kind === 'modifier' && t.armourModifier);
        armourItems.push({ name: p.name, ...(modifier?.kind === 'modifier' ? { modifier: modifier.value } : {}) });
      }
    };
    // What its text may call it: the roster's names, the catalogue entry's (a renamed model keeps its rules) and its Unit profile's.
    const selfNames = [...new Set([s.name, s.entryName, from.name, from.entryName, profile.name].filter((n): n is string => n !== undefined && n !== ''))];
    const stack: RosterSelection[] = [s];
    for (let node = stack.pop(); node; node = stack.pop()) {
      if (node !== s && isWeapon(node)) {
        noteAlternatives(node);
        draft.weapons.push(...weaponDrafts(node, visible(node).filter(isWeaponProfile), costParts(subtreeCosts(node, () => false), costType)));
        for (const item of [node, ...itemsUnder(node)]) for (const p of visible(item)) if (!isWeaponProfile(p)) noteProtection(p);
        // A weapon's items are the weapon's (weaponDrafts); a weapon or model under it is read on its own.
        stack.push(...beneathWeapon(node).reverse());
        continue;
      }
      if (node !== s && isModel(node)) {
        models.push(readModel(node));
        continue;
      }
      for (const p of visible(node)) {
        if (isAbility(p)) {
          const named = nameTokens([p.name], 'model');
          addTokens(draft, named, 'ability', false);
          // An ability its name already maps ("-1 Injury Dice", "Tough") is not read twice from its text.
          const text = characteristic(p, 'description') ?? rulesOf(p);
          if (text && named.every((t) => t.kind === 'unknown')) addModelText(draft, text, `text of ability ${p.name}`, textContext(selfNames), false);
        } else if (p !== profile && !isWeaponProfile(p)) {
          noteProtection(p);
          // An item's injury modifier (armour, a shield) is in the model's Armour characteristic already.
          const itemTokens = tokens(characteristic(p, 'keywords') ?? '', 'model').filter((t) => !(t.kind === 'modifier' && t.armourModifier));
          addTokens(draft, itemTokens, `keywords of ${p.name}`, false);
          const rulesText = rulesOf(p);
          if (rulesText) addModelText(draft, rulesText, `rules text of ${p.name}`, textContext([...selfNames, p.name, node.name]));
        }
      }
      if (node === s) {
        for (const p of visible(node).filter(isWeaponProfile)) draft.weapons.push(...weaponDrafts(node, [p]));
      }
      addTokens(draft, nameTokens(node.categories.map((c) => c.name), 'model'), 'category', false);
      addTokens(draft, nameTokens(node.rules.map((r) => r.name), 'model'), 'rule', false);
      stack.push(...[...node.selections].reverse());
    }
    const armour = readArmour(characteristic(profile, ARMOUR) ?? '', hasShield, armourTable, armourItems);
    Object.assign(draft.fields, armour.fields);
    if (armour.from) draft.sources.push({ effect: `armour ${String(armour.fields.armour)}`, from: armour.from });
    if (armour.fields.shield === true) draft.sources.push({ effect: 'shield', from: `shield item ${JSON.stringify(shieldItem)}` });
    if (armour.problem) draft.unmodelled.push({ text: `Armour ${characteristic(profile, ARMOUR) ?? ''}`, from: 'armour', why: armour.problem, stops: true });
    Object.assign(draft.dice!, { [MELEE]: characteristic(profile, MELEE) ?? '', [RANGED]: characteristic(profile, RANGED) ?? '' });
    return draft;
  };

  const walk = (selections: readonly RosterSelection[]) => {
    for (const s of selections) {
      if (isModel(s)) {
        models.push(readModel(s));
      } else if (isWeapon(s)) {
        noteAlternatives(s);
        weaponsAt.push(...weaponDrafts(s, visible(s).filter(isWeaponProfile), costParts(subtreeCosts(s, () => false), costType)));
        walk(beneathWeapon(s));
      } else {
        // An upgrade of the warband (a banner, a blessing) belongs to no model: listed with what it carries.
        if (visible(s).length > 0 || s.rules.length > 0) {
          const carries = [...visible(s).map((p) => p.name), ...s.rules.map((r) => r.name)].filter((n) => n !== s.name);
          unplaced.push({ text: s.name, from: 'selection', why: `neither a model nor a weapon${carries.length ? `; it carries ${carries.join(', ')}` : ''}`, stops: false, leftOut: 'selection' });
        }
        walk(s.selections);
      }
    }
  };
  const forces = [...tree.forces];
  for (let f = forces.shift(); f; f = forces.shift()) {
    walk(f.selections);
    for (const r of f.rules) unplaced.push({ text: r.name, from: `rule of ${f.name || 'the warband'}`, why: 'a warband rule', stops: false, leftOut: 'warband-rule' });
    for (const n of f.notRead ?? []) unplaced.push({ text: n.text, from: `catalogue ${f.name}`, why: n.why, stops: false, leftOut: n.kind });
    for (const h of f.hiddenEntries ?? []) unplaced.push({ text: h, from: `entry of ${f.name}`, why: 'hidden for every faction: no modifier shows it, so it is not read', stops: false, leftOut: 'hidden' });
    forces.push(...f.forces);
  }

  const weaponProfiles = uniqueNames([...weaponsAt, ...models.flatMap((m) => m.weapons)]);
  const modelProfiles = uniqueNames(models);
  const carried = modelProfiles.flatMap((m) => uniqueNames(m.weapons).map((w) => modelWith(m, w, rules, system)));
  const toProfile = (d: Draft): Profile => {
    // A value out of a field's range ("+12 DICE") stops the commands that use the profile, as an unknown token does.
    // The field is left out (with --allow-unmodelled, the profile is used without it).
    const fields = { ...d.fields };
    const unmodelled = [...d.unmodelled];
    for (let problem = checkProfileFields(system, d.role, fields); problem; problem = checkProfileFields(system, d.role, fields)) {
      unmodelled.push({ text: `${problem.field} ${String(problem.value)}`, from: 'keywords sum', why: `out of range; allowed: ${problem.allowed}`, stops: true });
      delete fields[problem.field];
    }
    return {
      name: d.name,
      role: d.role,
      fields,
      keywords: d.keywords,
      ...(d.injuryDiceUnless?.length ? { injuryDiceUnless: d.injuryDiceUnless } : {}),
      ...(d.cost === undefined ? {} : { cost: d.cost }),
      ...(d.otherCosts ? { otherCosts: d.otherCosts } : {}),
      ...(d.priceOf === undefined ? {} : { description: `the price of ${d.priceOf}` }),
      ...(unmodelled.length ? { unmodelled } : {}),
      ...(d.sources.length ? { sources: d.sources } : {}),
      ...(d.role === 'weapon' && d.dice ? { attackerDice: diceNumbers(d.dice) } : {}),
      ...(d.role === 'model' ? carrierOf(d) : {}),
    };
  };
  const weapons = new Map<string, Profile>();
  const weaponDraftsByName = uniqueNames([...weaponProfiles, ...carried]);
  for (const d of weaponDraftsByName) weapons.set(d.name, toProfile(d));
  /**
   * A catalogue model's loadout as the names of the weapon profiles read from the links it may take: every
   * profile of each (a faction's price "Rifle (Cinder Choir)", a conditional "Heavy Shotgun (at Short Range)").
   */
  const loadoutNames = (weaponIds: readonly string[]): string[] => {
    const offered = new Set(weaponIds);
    return weaponDraftsByName.filter((w) => w.origins?.some((id) => offered.has(id))).map((w) => w.name);
  };
  /**
   * A roster model's loadout: the weapons it holds in the roster, each also read as "MODEL with WEAPON"
   * (its cost the model's, kit and all). The roster says what the model carries and what it paid: paired
   * with a weapon it does not hold, a model would be priced at a cost that buys other kit.
   */
  const heldBy = (model: string): string[] => [...weapons.keys()].filter((w) => weapons.has(`${model} with ${w}`));
  return {
    system,
    file: tree.file,
    source,
    weapons,
    models: new Map(modelProfiles.map((d) => [d.name, { ...toProfile(d), ...(d.loadout?.weapons ? { loadout: loadoutNames(d.loadout.weapons) } : source === 'roster' ? { loadout: heldBy(d.name) } : {}) }] as const)),
    ...(unplaced.length ? { unmodelled: unplaced } : {}),
    noEffect: noEffectKeywords(rules),
  };
}

/**
 * What a model brings to a weapon in its hands that is not its own "MODEL with WEAPON" (a duel's side:
 * src/input/sides.ts): its Melee and Ranged dice, and what stops its attacks. A characteristic that is
 * no number of dice ("N/A" on a model that cannot shoot) stops only weapons of its attack type, as it
 * stops only the "MODEL with WEAPON"s that read it (modelWith).
 */
function carrierOf(model: Draft): Pick<Profile, 'characteristicDice' | 'ownAttackText'> {
  const dice: Record<string, number> = {};
  const stops: Unmodelled[] = [...model.ownAttackText];
  for (const [type, value] of Object.entries(model.dice ?? {})) {
    const n = readDice(value);
    if (n === undefined) stops.push({ text: `${type === MELEE ? 'Melee' : 'Ranged'} ${value}`, from: 'characteristic', why: 'not a number of dice, such as +1 DICE', stops: true, attackType: type });
    else if (n !== 0) dice[type] = n;
  }
  return { ...(Object.keys(dice).length ? { characteristicDice: dice } : {}), ...(stops.length ? { ownAttackText: stops } : {}) };
}

function diceNumbers(dice: Readonly<Record<string, string>>): Readonly<Record<string, number>> {
  return Object.fromEntries(Object.entries(dice).map(([k, v]) => [k, readDice(v) ?? 0]));
}

/**
 * "MODEL with WEAPON": the weapon's fields and keywords, the model's own Melee and Ranged dice (added to
 * the weapon's attack dice for the attack type the scenario ends with) and the model's FEAR as the
 * attacker's. Its cost is the model's (the weapon is part of it).
 */
function modelWith(model: Draft, weapon: Draft, rules: RuleTable, system: SystemSpec): Draft {
  const unmodelled = [...weapon.unmodelled];
  // Only the characteristic the weapon's attack reads: a melee weapon never reads Ranged ("N/A" on a
  // model that cannot shoot). A weapon of no known attack type reads either.
  const reads = weapon.fields.attackType === MELEE || weapon.fields.attackType === RANGED ? [weapon.fields.attackType] : [MELEE, RANGED];
  const diceSources: EffectSource[] = [];
  for (const [type, value] of Object.entries(model.dice ?? {})) {
    if (!reads.includes(type)) continue;
    const characteristicName = type === MELEE ? 'Melee' : 'Ranged';
    const dice = readDice(value);
    if (dice === undefined) unmodelled.push({ text: `${characteristicName} ${value}`, from: `${model.name}'s characteristic`, why: 'not a number of dice, such as +1 DICE', stops: true });
    else if (dice !== 0) diceSources.push({ effect: `attackDice ${signed(dice)} (${type} attacks)`, from: `${model.name}'s ${characteristicName} characteristic ${JSON.stringify(value)}` });
  }
  // What the model's own text says of its attacks and is not read stops the weapon in its hands.
  for (const stop of model.ownAttackText) if (!unmodelled.some((u) => u.text === stop.text && u.from === stop.from)) unmodelled.push({ ...stop, from: `${model.name}'s ${stop.from}` });
  // The model's keywords as the table maps them: one that gives the model fear, or makes it immune to
  // FEAR, makes it an attacker a FEAR target does not hinder.
  // A keyword the table refuses stops this row, never the whole file (one entry's sentence once refused every faction).
  let immune = false;
  try {
    immune = fearlessAttacker(rules, system, model.keywords, `model ${showValue(model.name)}`);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    unmodelled.push({ text: model.keywords.join(', '), from: `${model.name}'s keywords`, why: e.message, stops: true });
  }
  const fields = { ...weapon.fields, ...(immune ? { attackerFear: true } : {}) };
  return {
    name: `${model.name} with ${weapon.name}`,
    role: 'weapon',
    fields,
    keywords: weapon.keywords,
    unmodelled,
    ownAttackText: [],
    sources: [
      ...weapon.sources,
      ...diceSources,
      ...(immune ? [{ effect: 'attackerFear', from: `${model.name}'s keywords ${fearlessKeywords(model.keywords).join(', ') || '(FEAR)'}` }] : []),
    ],
    weapons: [],
    ...(model.cost === undefined ? {} : { cost: model.cost }),
    ...(model.otherCosts ? { otherCosts: model.otherCosts } : {}),
    ...(model.dice ? { dice: model.dice } : {}),
  };
}

/** The same of a profile, for telling a repeated selection from a different one of the same name. */
const sameness = (d: Draft) => JSON.stringify([d.fields, d.keywords, d.injuryDiceUnless, d.cost, d.otherCosts, d.unmodelled, d.ownAttackText, d.dice, d.weapons.map((w) => w.name), d.loadout?.weapons]);

/** A catalogue model's loadout notes (what could not be evaluated) as not modelled: listed, never stopping. */
const loadoutNotes = (loadout: CatalogueLoadout | undefined): Unmodelled[] => (loadout?.notes ?? []).map((n) => ({ text: n.text, from: 'loadout', why: n.why, stops: false }));

/**
 * `NAME (n)` for the first n from `from` that no profile has, real or made here: a selection really named
 * "Trooper (2)" keeps its name, and the second kind of "Trooper" becomes "Trooper (3)", so no profile
 * replaces another.
 */
function unusedName(name: string, from: number, taken: ReadonlySet<string>): string {
  let n = from;
  while (taken.has(`${name} (${n})`)) n += 1;
  return `${name} (${n})`;
}

/**
 * Names made unique: selections of the same name that read the same are one profile (three identical
 * troopers are one "Trooper"; an item two factions price alike is one, "the price of A, B"); ones that
 * differ get " (2)", " (3)", ... in roster order (the next number no other profile is called), or the
 * faction whose price they have: "Rifle (B)".
 */
function uniqueNames(drafts: readonly Draft[]): Draft[] {
  const out: Draft[] = [];
  const seen = new Map<string, { same: string; at: number }[]>();
  const taken = new Set(drafts.map((d) => d.name));
  for (const d of drafts) {
    const kinds = seen.get(d.name) ?? [];
    const same = sameness(d);
    const earlier = kinds.find((k) => k.same === same);
    if (earlier) {
      let kept = out[earlier.at]!;
      if (d.priceOf !== undefined && !kept.priceOf?.split(', ').includes(d.priceOf)) kept = { ...kept, priceOf: kept.priceOf ? `${kept.priceOf}, ${d.priceOf}` : d.priceOf };
      // One profile for both: a loadout that names either names it.
      if (d.origins?.some((id) => !kept.origins?.includes(id))) kept = { ...kept, origins: [...new Set([...(kept.origins ?? []), ...d.origins])] };
      out[earlier.at] = kept;
      continue;
    }
    kinds.push({ same, at: out.length });
    seen.set(d.name, kinds);
    if (kinds.length === 1) {
      out.push(d);
      continue;
    }
    const by = d.priceOf ?? d.offeredBy ?? d.catalogue;
    const byPrice = by === undefined ? undefined : `${d.name} (${by})`;
    const name = byPrice !== undefined && !taken.has(byPrice) ? byPrice : unusedName(d.name, kinds.length, taken);
    taken.add(name);
    out.push({ ...d, name });
  }
  return out;
}
