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

/** JSON text from a file or a pipe, refused in one line starting with `label` if invalid or too deep. */
export function parseJsonText(text: string, label: string): JsonInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw refusal(label, `not valid JSON (${jsonProblem(text, (e as Error).message)})`);
  }
  checkJsonDepth(value, label);
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
