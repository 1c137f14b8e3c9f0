import { terminalSafe } from './terminal-safe.js';

/**
 * A mistake in what the user asked for (a flag, a scenario file, a report definition). The CLI prints
 * its message as one line on stderr and exits with code 2; it never shows a stack trace.
 * Messages name the field, the value given and what is allowed.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /**
   * Set on the refusal of a combination the rules forbid (src/messages.ts, forbiddenByRules): the
   * rules' reason, as the message says it after its WHERE. A sweep leaves such a cell out as "not
   * allowed" (src/analysis/sweep.ts); every other refusal is the user's mistake and ends the run.
   */
  readonly ruleForbidden?: string;

  constructor(message: string, ruleForbidden?: string) {
    super(message);
    if (ruleForbidden !== undefined) this.ruleForbidden = ruleForbidden;
  }
}

/**
 * Renders a user-supplied value for a message: strings quoted, everything else as JSON. JSON escapes
 * C0 controls but leaves DEL, C1, bidi controls and line separators raw, so the quoted text is made
 * terminalSafe as well (its escapes are JSON's own: the quoted string still reads back as the value).
 */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return terminalSafe(JSON.stringify(value));
  if (value === undefined) return 'nothing';
  try {
    return terminalSafe(JSON.stringify(value) ?? String(value));
  } catch {
    return terminalSafe(String(value));
  }
}

/**
 * Lists longer than this come from the user's files (a profiles file can name 40,000 weapons), never
 * from the rules (their longest, a system's fields, has 52): a message lists their first few and a count.
 */
const MOST_LISTED = 100;
const FIRST_LISTED = 5;

export function listAllowed(values: readonly unknown[]): string {
  const shown = (vs: readonly unknown[]) => vs.map((v) => terminalSafe(String(v))).join(', ');
  if (values.length <= MOST_LISTED) return shown(values);
  return `${shown(values.slice(0, FIRST_LISTED))} and ${(values.length - FIRST_LISTED).toLocaleString('en-US')} more`;
}
