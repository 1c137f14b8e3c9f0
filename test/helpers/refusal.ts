import { UsageError } from '../../src/errors.js';

/** The one line a user mistake is refused with (a UsageError's message), or "accepted"; any other error is thrown on. */
export function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  return 'accepted';
}
