/**
 * A mistake in what the user asked for (a flag, a scenario file, a report definition). The CLI prints
 * its message as one line on stderr and exits with code 2; it never shows a stack trace.
 * Messages name the field, the value given and what is allowed.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Renders a user-supplied value for a message: strings quoted, everything else as JSON. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function listAllowed(values: readonly unknown[]): string {
  return values.map((v) => String(v)).join(', ');
}
