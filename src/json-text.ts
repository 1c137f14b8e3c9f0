import { refusal } from './messages.js';

/**
 * JSON text the user gave, parsed and bounded, with no file reading: src/json-input.ts reads files and
 * standard input for the CLI and hands the text here, and a page in a browser hands the text of a file
 * the user opened. Kept apart so the engine bundles for the browser without node:fs.
 */

/** Scenario files and report definitions are a few KB. */
export const MAX_JSON_BYTES = 1024 * 1024;
/** A scenario is 1-2 levels deep, a report definition about 6. */
export const MAX_JSON_DEPTH = 64;

export interface JsonInput {
  readonly text: string;
  readonly value: unknown;
}

/** How messages name a definition piped in (`report -`). */
export const STANDARD_INPUT = 'standard input';

/** Depth of nested arrays and objects (a scalar is 0, `[]` is 1), with an explicit stack: never recurses. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [v, depth] = top;
    if (typeof v !== 'object' || v === null) continue;
    const d = depth + 1;
    if (d > max) max = d;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, d]);
  }
  return max;
}

/** Refuses JSON nested deeper than MAX_JSON_DEPTH, in one line starting with `label`. */
export function checkJsonDepth(value: unknown, label: string): void {
  const depth = jsonDepth(value);
  if (depth > MAX_JSON_DEPTH) throw refusal(label, `JSON nested ${depth} deep`, `at most ${MAX_JSON_DEPTH} levels are allowed`);
}

/**
 * Keys no input may hold: JSON.parse keeps `"__proto__"` as an own key, but the first copy by assignment
 * (`out[key] = value`, Object.assign) sets the copy's prototype instead, and its fields are then read
 * through it, given by nobody (`{"__proto__": {"armour": "machine"}}` answered as Machine Armour).
 * `constructor` and `prototype` reach the same places by other paths.
 */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** Is this key one no input may hold (FORBIDDEN_KEYS)? */
export const isForbiddenKey = (key: string): boolean => FORBIDDEN_KEYS.includes(key);

/** The path ("a.__proto__", "analyses.0.constructor") of the first key of `value` that no input may hold, or undefined. With an explicit stack: never recurses. */
export function forbiddenKeyIn(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [v, path] = top;
    if (typeof v !== 'object' || v === null) continue;
    // Object.keys lists an own "__proto__" as JSON.parse leaves it.
    for (const key of Object.keys(v)) {
      const at = path ? `${path}.${key}` : key;
      if (isForbiddenKey(key)) return at;
      stack.push([(v as Record<string, unknown>)[key], at]);
    }
  }
  return undefined;
}

/** The words that refuse a key no input may hold, at `path`. */
export function forbiddenKeyProblem(path: string): { problem: string; remedy: string } {
  const key = path.split('.').pop()!;
  return { problem: `key ${JSON.stringify(key)}${path === key ? '' : ` (at ${path})`} is not allowed: it would reach an object's prototype`, remedy: `allowed: any key but ${FORBIDDEN_KEYS.map((k) => JSON.stringify(k)).join(', ')}` };
}

/** Refuses JSON that holds a key no input may hold (FORBIDDEN_KEYS), in one line starting with `label`. */
export function checkJsonKeys(value: unknown, label: string): void {
  const path = forbiddenKeyIn(value);
  if (path === undefined) return;
  const { problem, remedy } = forbiddenKeyProblem(path);
  throw refusal(label, problem, remedy);
}

/** JSON text from a file or a pipe, refused in one line starting with `label` if invalid, too deep or holding a key that reaches a prototype. */
export function parseJsonText(text: string, label: string): JsonInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw refusal(label, `not valid JSON (${jsonProblem(text, (e as Error).message)})`);
  }
  checkJsonDepth(value, label);
  checkJsonKeys(value, label);
  return { text, value };
}

/**
 * What is wrong with JSON text, by line and column, never quoting it: V8's message quotes the text's
 * first bytes ("Unexpected token 'r', \"root:x:0:0\"... is not valid JSON"), and a report definition
 * may name any file, which the user did not write on the command line (/etc/passwd).
 */
export function jsonProblem(text: string, message: string): string {
  if (/^Unexpected end of JSON input/.test(message)) return 'it ends before the JSON does';
  const at = /at position (\d+)/.exec(message);
  const what = message
    .replace(/ JSON at position \d+.*$/s, ' the JSON')
    .replace(/ in the JSON$/, '')
    .replace(/^Unexpected token.*$/s, 'an unexpected character');
  return `${what.charAt(0).toLowerCase()}${what.slice(1)} at ${lineAndColumn(text, at ? Number(at[1]) : badCharacterAt(text))}`;
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/**
 * Where an unexpected character is, when V8 says only which: the longest prefix that is still the
 * start of some JSON (it parses, or fails only for ending early) ends just before it. Prefixes that
 * start JSON are shorter than those that cannot, so a binary search finds it in about 20 parses.
 */
function badCharacterAt(text: string): number {
  const startsJson = (n: number): boolean => {
    try {
      JSON.parse(text.slice(0, n));
      return true;
    } catch (e) {
      const m = (e as Error).message;
      const at = /at position (\d+)/.exec(m);
      return /^Unexpected end of JSON input/.test(m) || (at !== null && Number(at[1]) >= n);
    }
  };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (startsJson(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
