import { showValue } from '../errors.js';
import type { Profile, Unmodelled } from '../model/profiles.js';

/**
 * What an imported profile says that nothing models, when a command uses it: a token of a weapon's
 * keywords string stops the command (one line naming the token and the profile) unless the user allowed
 * it with --allow-unmodelled; then one warning line on stderr says what was left out.
 */

/** The items of a profile that stop a command using it. */
export function stoppingItems(profile: Profile): readonly Unmodelled[] {
  return (profile.unmodelled ?? []).filter((u) => u.stops);
}

/** One line for the first item that stops a command, naming the item, its profile and the way out. */
export function unmodelledMessage(profile: Profile, key: string, item: Unmodelled): string {
  const what = item.from === 'keywords' ? `its keyword ${showValue(item.text)}` : showValue(item.text);
  return `${key}: ${showValue(profile.name)}: ${what} is not modelled (${item.why}); give --allow-unmodelled to leave it out, or edit the roster`;
}

/** Warnings printed in this run, so that a sweep's every cell does not repeat one. */
const warned = new Set<string>();

/** Prints one warning line for what --allow-unmodelled leaves out of a profile, once per run. */
export function warnUnmodelled(profile: Profile, items: readonly Unmodelled[]): void {
  const message = `injury-lab: warning: ${profile.role} ${showValue(profile.name)}: left out, not modelled: ${items.map((u) => showValue(u.text)).join(', ')}\n`;
  if (warned.has(message)) return;
  warned.add(message);
  process.stderr.write(message);
}

/** A new command line starts with no warnings given (the CLI's in-process test harness runs several in one process). */
export function resetUnmodelledWarnings(): void {
  warned.clear();
}
