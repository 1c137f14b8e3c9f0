import { keywordMisuse, parseInjuryDiceUnless, parseKeyword, roleFields, type InjuryDiceUnless } from '../model/keywords.js';
import type { FieldValue, ProfileRole, RuleTable, SystemSpec } from '../model/types.js';
import { suggestFlags } from '../suggest.js';

/**
 * A keywords string as a roster prints it ("HEAVY, +1 DICE, ARMOUR-PIERCING 1, BLAST 3\"") read token by
 * token against the scenario's rule table: a modifier ("+1 DICE") gives a field, a name the table knows
 * gives that keyword, anything else is unknown and said so, never dropped.
 */

/**
 * Modifiers written as a signed number and words, and the field each gives a weapon or a model. Which
 * side a modifier is on decides the field: "-1 INJURY DICE" on a weapon is its own injury dice, on a
 * model (an ability) the dice of injury rolls against it. `+N TO HIT` is a flat modifier on the success
 * roll (DICE add dice; a "to hit" number is added to the total).
 */
const MODIFIERS: readonly { readonly words: RegExp; readonly weapon?: string; readonly model?: string; readonly armour?: true }[] = [
  { words: /^(DICE|DIE)( TO HIT| ON (THE )?SUCCESS ROLLS?)?$/, weapon: 'attackDice' },
  // "+1D Injury", "+1D to Injure", "+2D to Injury Rolls": the community catalogue's shorthand (a D after the number is DICE).
  { words: /^(INJURY (DICE|DIE)|(DICE|DIE) (TO )?(INJURY|INJURIES|INJURE)( ROLLS?)?)$/, weapon: 'injuryDice', model: 'targetInjuryDice' },
  // What armour and shields give: already in a model's Armour characteristic, never added again from the item.
  { words: /^INJURY MODIFIERS?$/, weapon: 'injuryModifier', model: 'targetInjuryModifier', armour: true },
  // "+1 to Injuries", "+1 to Injury Rolls": a number added to the injury roll, as its rules text says ("a roll of 7 becomes 8").
  { words: /^TO (INJURY|INJURIES)( ROLLS?)?$/, weapon: 'injuryModifier' },
  { words: /^(TO HIT|HIT MODIFIERS?|SUCCESS (ROLL )?MODIFIERS?)$/, weapon: 'attackModifier' },
];

export type Token =
  /** A modifier: a field and the number it adds. */
  | { readonly kind: 'modifier'; readonly text: string; readonly field: string; readonly value: number; readonly armourModifier: boolean }
  /** A keyword of the table, as the table names it ("ARMOUR PIERCING 2"). */
  | { readonly kind: 'keyword'; readonly text: string; readonly keyword: string }
  /** A model's "-1 INJURY DICE UNLESS FIRE": dice that hold unless the attacking weapon has a keyword named. */
  | { readonly kind: 'injuryDiceUnless'; readonly text: string; readonly condition: InjuryDiceUnless }
  | { readonly kind: 'unknown'; readonly text: string; readonly why: string };

/** The tokens of a keywords string: split at commas, semicolons and line breaks; "-" and blanks are no token. */
export function splitKeywords(text: string): string[] {
  return text
    .split(/[,;\n]/)
    .map((t) => t.trim())
    .filter((t) => t !== '' && t !== '-' && t !== '—');
}

/** Upper case, hyphens as spaces, one space between words, "(2)" and 2" as 2: how a token is matched. */
export function normaliseToken(text: string): string {
  return text
    .toUpperCase()
    // Between letters a hyphen joins words (ARMOUR-PIERCING); before a number it is a sign (-1 DICE).
    .replace(/(?<=\p{L})[-_‐–](?=\p{L})/gu, ' ')
    .replace(/\((\d+)\)/g, ' $1')
    // A distance is its number: BLAST 3" is BLAST 3.
    .replace(/(\d)\s*("|”|''|INCH(ES)?\b)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
    // A sentence's full stop is no part of a keyword ("ignore armour.").
    .replace(/(?<=\p{L})\.$/u, '');
}

/** Plural and singular are the same word here: IGNORES ARMOUR is IGNORE ARMOUR. */
const sameWord = (a: string, b: string) => a === b || a === `${b}S` || b === `${a}S` || a === `${b}ES` || b === `${a}ES`;

/** The table's name for `name`: itself, else the one name that differs from it only in plurals. */
export function tableName(keywords: Readonly<Record<string, unknown>>, name: string): string | undefined {
  if (name in keywords) return name;
  const words = name.split(' ');
  const close = Object.keys(keywords).filter((k) => {
    const kw = k.split(' ');
    return kw.length === words.length && kw.every((w, i) => sameWord(w, words[i]!));
  });
  return close.length === 1 ? close[0] : undefined;
}

/**
 * A token the table does not know that is keywords it does know with a comma missing between them (the
 * real catalogue's "AUTOMATIC 2 GAS", "SCATTER SHRAPNEL"): those keywords, each with its number if the
 * table gives it one. Undefined unless the whole token splits into two or more known keywords.
 */
export function splitRunTogether(text: string, rules: RuleTable, system: SystemSpec, role: ProfileRole): Token[] | undefined {
  const words = normaliseToken(text).split(' ');
  // A keyword is a few words and its number: a part longer than the table's longest name and a number is
  // no keyword, and a token of many words is prose, never split (a hostile file's thousand-word "keyword"
  // would otherwise cost a reading per pair of words).
  const longest = Math.max(0, ...Object.keys(rules.keywords ?? {}).map((k) => k.split(' ').length)) + 1;
  if (words.length < 2 || words.length > 4 * longest) return undefined;
  // best[i]: a split of words[i..] into known keywords, or undefined.
  const best: (Token[] | undefined)[] = new Array(words.length + 1);
  best[words.length] = [];
  for (let i = words.length - 1; i >= 0; i--) {
    for (let j = Math.min(words.length, i + longest); j > i; j--) {
      if (i === 0 && j === words.length) continue;
      const rest = best[j];
      if (rest === undefined) continue;
      const part = readToken(words.slice(i, j).join(' '), rules, system, role);
      if (part.kind === 'keyword') {
        best[i] = [part, ...rest];
        break;
      }
    }
  }
  return best[0];
}

/**
 * The number a catalogue means by a keyword written without one. The game system file's own Armour
 * Piercing rule says a weapon with it "reduces the target's total -INJURY MODIFIER ... by 1", and its
 * Infested Rifle writes `ARMOUR-PIERCING` bare: that is ARMOUR PIERCING 1. Any other keyword that needs
 * its number and has none is not modelled.
 */
const BARE_NUMBER: Readonly<Record<string, number>> = { 'ARMOUR PIERCING': 1 };

/** One token of a weapon's keywords string, or a model's category, rule or ability name. */
export function readToken(text: string, rules: RuleTable, system: SystemSpec, role: ProfileRole): Token {
  // "+1D": a D straight after the number is DICE.
  const token = normaliseToken(text).replace(/^([+-]\s*\d+)D\b/, '$1 DICE');
  // A footnote mark: the weapon's rules text qualifies the token (the Holy Grenade's "+1D Injury*" is
  // only against BLACK GRAIL or DEMONIC targets). Never read as if it held on every attack.
  if (token.endsWith('*')) return { kind: 'unknown', text, why: "marked with *: the weapon's rules text qualifies it, so it is not read" };
  const own = roleFields(system, role);
  // A model's "-1 INJURY DICE UNLESS FIRE": whether it acts depends on the weapon used, so it is kept as the condition it is.
  const unless = role === 'model' ? parseInjuryDiceUnless(token) : undefined;
  if (unless) {
    const table = rules.keywords as Readonly<Record<string, unknown>> | undefined;
    const unknown = unless.unless.find((k) => !table || !(k in table));
    if (unknown !== undefined) return { kind: 'unknown', text, why: `${unknown} (after UNLESS) is not a keyword of the rule table` };
    return { kind: 'injuryDiceUnless', text, condition: unless };
  }
  const modifier = /^([+-])\s*(\d+)\s+(.+)$/.exec(token);
  if (modifier) {
    const value = Number(modifier[2]) * (modifier[1] === '-' ? -1 : 1);
    const found = MODIFIERS.find((m) => m.words.test(modifier[3]!));
    const field = found?.[role];
    if (field !== undefined && own.has(field)) return { kind: 'modifier', text, field, value, armourModifier: found?.armour === true };
    return { kind: 'unknown', text, why: found ? `a modifier that a ${role} does not give` : 'a modifier of nothing injury-lab models' };
  }
  const table = rules.keywords;
  if (typeof table !== 'object' || table === null) return { kind: 'unknown', text, why: `${system.id} has no keywords in its rule table` };
  const { name, n } = parseKeyword(token);
  const key = tableName(table, name);
  if (key === undefined) {
    // A weapon's misspelt keyword ("CRITCAL") is named, never read as the keyword it may mean. Not for a
    // model's category or ability names, which are names, not misspellings ("Hide" is not FIRE).
    const guess = role === 'weapon' && name.length >= 5 ? suggestFlags(name, Object.keys(table)) : [];
    return { kind: 'unknown', text, why: `not a keyword of the rule table${guess.length ? ` (did you mean ${guess.join(' or ')}?)` : ''}` };
  }
  const effects = table[key] as Readonly<Record<string, FieldValue>>;
  // The same checks as keywordFields (src/model/keywords.ts) makes when the profile is used, made here
  // so that a token it would refuse is reported as not modelled rather than stopping every command.
  const bare = n === undefined ? BARE_NUMBER[key] : undefined;
  if (bare !== undefined && keywordMisuse(effects, bare, own) === undefined) return { kind: 'keyword', text, keyword: `${key} ${bare}` };
  const misuse = keywordMisuse(effects, n, own);
  if (misuse?.problem === 'needs a number') return { kind: 'unknown', text, why: `${key} needs its number` };
  if (misuse?.problem === 'takes no number') return { kind: 'unknown', text, why: `${key} takes no number` };
  if (misuse?.problem === 'other side') return { kind: 'unknown', text, why: `${key} gives ${misuse.field}, not a ${role} field` };
  return { kind: 'keyword', text, keyword: n === undefined ? key : `${key} ${n}` };
}
