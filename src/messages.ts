import { UsageError, listAllowed, showValue } from './errors.js';
import { terminalSafe } from './terminal-safe.js';
import { suggestFlags } from './suggest.js';

/**
 * Every refusal a user sees is built here, in one shape:
 *
 *   WHERE: PROBLEM; REMEDY
 *
 * WHERE names what was wrong: the field or key ("armour", "rules.keywords.FIRE"), the flag ("--out"),
 * or the file with the key inside it ("scenario file \"a.json\": armour"). PROBLEM says what is wrong,
 * with the value as given (showValue quotes it) where there is one. REMEDY says what is allowed
 * ("allowed: none, standard") or what to do ("name another folder"). The whole is one line whatever the
 * user gave: a value holding a newline or an escape sequence is shown escaped (terminalSafe), so the CLI
 * prints exactly one line on stderr for every user mistake (test/messages.test.ts checks the set).
 */

/** The general shape: `WHERE: PROBLEM; REMEDY` (no remedy: `WHERE: PROBLEM`). */
export function refusal(where: string, problem: string, remedy?: string): UsageError {
  return usageError(where, problem, remedy);
}

/** The one place a UsageError is made: `ruleForbidden` marks a combination the rules forbid (forbiddenByRules). */
function usageError(where: string, problem: string, remedy: string | undefined, ruleForbidden?: string): UsageError {
  const text = `${where ? `${where}: ` : ''}${problem}${remedy ? `; ${remedy}` : ''}`;
  return new UsageError(terminalSafe(text), ruleForbidden === undefined ? undefined : terminalSafe(ruleForbidden));
}

/**
 * refusal for code that passes its WHERE on as a prefix, `LABEL: ` or '' for none (the readers of a file
 * thread `scenario file "a.json": ` through their checks): `LABEL: PROBLEM; REMEDY`, or `PROBLEM; REMEDY`.
 */
export function refusalAt(at: string, problem: string, remedy?: string): UsageError {
  return refusal('', `${at}${problem}`, remedy);
}

/**
 * A combination the rules forbid, as the system's check says it (SystemSpec.checkCombination: machine
 * armour with a shield, a fall in an edition without falling rules): refusalAt's line, word for word,
 * marked with the rules' reason (UsageError.ruleForbidden). A one-off run refuses it as any other; a
 * sweep leaves that cell out as "not allowed" and runs the rest, unless it is --strict.
 */
export function forbiddenByRules(at: string, problem: string): UsageError {
  return usageError('', `${at}${problem}`, undefined, problem);
}

/** A value its field does not take: `WHERE: VALUE is not allowed; allowed: ALLOWED`. */
export function notAllowed(where: string, value: unknown, allowed: string, guess = ''): UsageError {
  return refusal(where, `${showValue(value)} is not allowed${guess}`, `allowed: ${allowed}`);
}

/** " (did you mean "standard"?)" for a misspelt word of a known set, or nothing. */
export function didYouMean(value: unknown, allowed: readonly unknown[]): string {
  // A letter or two is no misspelling to guess at ("c" for a duel's first side is a or b by one edit each).
  if (typeof value !== 'string' || value.length < 3) return '';
  const guess = suggestFlags(value, allowed.filter((a): a is string => typeof a === 'string'));
  return guess.length ? ` (did you mean ${guess.map((g) => showValue(g)).join(' or ')}?)` : '';
}

/** A name that is not one of a known set: `WHERE: VALUE is not WHAT (did you mean B?); allowed: A, B, C` (long lists shortened). */
export function notOneOf(where: string, value: unknown, what: string, allowed: readonly unknown[]): UsageError {
  return refusal(where, `${showValue(value)} is not ${what}${didYouMean(value, allowed)}`, `allowed: ${listAllowed(allowed)}`);
}

/**
 * A value the rules forbid with another: `WHERE: VALUE cannot be combined with OTHER; allowed: ALLOWED`. OTHER
 * may carry the rule's reason in brackets ("armour \"machine\" (Machine Armour ...)").
 */
export function cannotCombine(where: string, value: unknown, other: string, allowed: string): UsageError {
  return refusal(where, `${showValue(value)} cannot be combined with ${other}`, `allowed: ${allowed}`);
}
