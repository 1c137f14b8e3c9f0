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
    throw refusal(label, `not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
  checkJsonDepth(value, label);
  return { text, value };
}
