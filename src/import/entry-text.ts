import { injuryDiceUnlessText, parseKeyword } from '../model/keywords.js';
import type { Unmodelled } from '../model/profiles.js';
import type { Draft } from './draft.js';
import { NO_WORD_OF_THE_ODDS, onlyRestates, readModelSentence, readWeaponSentence, sentencesOf, type SentenceReading, type TextContext, type TextEffect } from './rules-text.js';
import { CLASS_TEXT, type SentenceClass } from './sentence-forms/form.js';
import { normaliseToken, type Token } from './weapon-keywords.js';

/**
 * What an entry's words give its draft: the tokens of its Keywords (modifiers, keywords, the rest not
 * modelled), the rules it links, and its rules text sentence by sentence (rules-text.ts reads a
 * sentence; here its effects are added, or it is classed and listed, under the lead-ins, options and
 * conditions before it), with the conditions under which a weapon's text gives or takes away a token of
 * its Keywords. Apart from roster.ts because it reads one profile's words into one draft, whatever the
 * roster around it.
 */

/**
 * The condition under which a sentence of a weapon's rules text gives a token of its Keywords (`wanted`, as
 * normaliseToken writes it) ("Add +1
 * INJURY DICE to rolls ... at Short Range." gives "at Short Range"), or takes it away ("The +1 DICE Keyword
 * does not apply when this Weapon is used as an Off-Hand Weapon": `takenAway`), where the sentence says
 * that and nothing else (onlyRestates); otherwise undefined.
 */
export function conditionOfToken(wanted: string, sentence: RulesSentence): { readonly condition: string; readonly takenAway: boolean } | undefined {
  if (!sentence.normalised.includes(wanted)) return undefined;
  const m = /\b(at (?:short|long) range|within \d+\S*|against [^.,;]+|if [^.,;]+|when [^.,;]+|unless [^.,;]+)/i.exec(sentence.sentence);
  if (!m) return undefined;
  // The token as the sentence writes it: its number and words, spacing and case aside ("+1 INJURY DICE").
  const tokenPattern = new RegExp(wanted.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s-]+'), 'i');
  if (!onlyRestates(sentence.sentence, tokenPattern, m[1]!)) return undefined;
  return { condition: m[1]!.trim(), takenAway: /\b(does not|do not|doesn't|don't|never|no longer)\b/i.test(sentence.sentence) };
}

export interface RulesSentence {
  readonly sentence: string;
  readonly normalised: string;
}

/** A rules text's sentences (rules-text.ts), each with its normalised form (read once per profile, whatever its number of tokens). */
export const rulesSentences = (text: string): RulesSentence[] => sentencesOf(text).map((sentence) => ({ sentence, normalised: normaliseToken(sentence) }));

/** A weapon's modifiers looked for in its rules text: a real weapon has a few; a hostile file's thousands are not. */
export const MAX_CONDITIONAL_LOOKUPS = 16;

/** A number with its sign, as the game writes modifiers: "+1", "-2". */
export const signed = (n: number) => `${n > 0 ? '+' : ''}${n}`;

/** A sentence as a listing shows it: whole up to 200 characters (a message names the sentence that stops). */
const shown = (text: string) => (text.length > 200 ? `${text.slice(0, 197)}...` : text);

/** Rules text of which no sentence speaks of the odds: listed, shortened, as not modelled. */
function rulesTextItem(text: string, from: string): Unmodelled {
  return { text: text.length > 80 ? `${text.slice(0, 77)}...` : text, from, why: 'no sentence of it speaks of rolls, dice, injuries, armour or markers', stops: false };
}

/** Adds what tokens give to a draft: modifiers summed into fields, keywords once each, the rest not modelled. */
export function addTokens(draft: Draft, tokens: readonly Token[], from: string, stops: boolean): void {
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
/**
 * A rule a weapon links (an infoLink to the game's shared rules) is not a keyword: the weapon's Keywords
 * characteristic is. The real catalogue links "Ignore Armour" to weapons whose own text gives it only
 * after a critical success (a sniper's "Bull's Eye") or only against a Down target: read as a keyword,
 * the link gave IGNORE ARMOUR on every attack (25.5% Out of Action instead of 11.2%). So a link the
 * Keywords already name adds nothing, and any other is listed, never read as an effect.
 */
export function addRuleLink(draft: Draft, name: string): void {
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
export function addModelText(draft: Draft, text: string, from: string, context: TextContext, listUnread = true): void {
  addText(draft, sentencesOf(text), text, from, (sentence, previous) => readModelSentence(sentence, context, previous), { listUnread, isWeapon: false, fieldSpec: context.fieldSpec });
}

/**
 * A weapon's rules text (addText), but for the sentences that restate a token of the Keywords with its
 * condition: those are read into the weapon's alternative profiles, so the text is not listed as unread.
 */
export function addWeaponText(draft: Draft, text: string, sentences: readonly RulesSentence[], restated: boolean, context: TextContext): void {
  addText(draft, sentences.map((x) => x.sentence), text, 'rules text', (sentence, previous, before) => readWeaponSentence(sentence, context, previous, before), { listUnread: !restated, isWeapon: true, fieldSpec: context.fieldSpec });
}
