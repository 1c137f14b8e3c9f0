import { showValue } from '../errors.js';
import type { Profile, Unmodelled } from '../model/profiles.js';

/**
 * What an imported profile says that nothing models, when a command uses it: a token of a weapon's
 * keywords string stops the command (one line naming the token and the profile) unless the user allowed
 * it; then what was left out is a notice the host gives (the CLI's warning line, the page's note), never
 * printed from here: this code runs in a browser too.
 */

/**
 * The items of a profile that stop a command using it: in a kind whose models fight on (`fightsOn`: a
 * sequence, a duel), text about what follows an attack too; in one attack, not.
 */
export function stoppingItems(profile: Profile, fightsOn = true): readonly Unmodelled[] {
  return (profile.unmodelled ?? []).filter((u) => u.stops && (fightsOn || u.touches !== 'fight'));
}

/** How the CLI lets a user go on without what nothing models; a page says its own control instead. */
export const ALLOW_UNMODELLED_FLAG = 'give --allow-unmodelled';

/** One line for the first item that stops a command, naming the item, its profile and the way out (`allow`: "give --allow-unmodelled"). */
export function unmodelledMessage(profile: Profile, key: string, item: Unmodelled, allow = ALLOW_UNMODELLED_FLAG): string {
  const what = item.from === 'keywords' ? `its keyword ${showValue(item.text)}` : showValue(item.text);
  return `${key}: ${showValue(profile.name)}: ${what} is not modelled (${item.why}); ${allow} to leave it out, or edit the roster`;
}

/** The notice for what was left out of a profile: weapon "Bell Hammer": left out, not modelled: "Quake 2". */
export function leftOutNotice(profile: Profile, items: readonly Unmodelled[]): string {
  return `${profile.role} ${showValue(profile.name)}: left out, not modelled: ${items.map((u) => showValue(u.text)).join(', ')}`;
}

/**
 * The sentences of a profile that offer a choice or name a situation the question does not take (class
 * `option`: a spell cast when it is hurt, an option chosen before the game): the answer is without them,
 * and says so in one line per profile and run.
 */
export function optionItems(profile: Profile): readonly Unmodelled[] {
  // A model's option about its own attacks is said with the weapons in its hands (ownAttackText), not when it is the target.
  const ofItsAttacks = (u: Unmodelled) => profile.role === 'model' && (profile.ownAttackText ?? []).some((a) => a.text === u.text && a.from === u.from);
  return (profile.unmodelled ?? []).filter((u) => u.touches === 'option' && !ofItsAttacks(u));
}

/**
 * The line that says what an answer was taken without, one choice or situation per text it is in:
 * model "Faceless": answered without what these give (a choice or situation not taken): text of ability
 * Ceaseless Destruction ("As long as ..."), ...
 */
export function optionNotice(profile: Profile, items: readonly Unmodelled[]): string {
  const byText = new Map<string, Unmodelled[]>();
  for (const u of items) byText.set(u.from, [...(byText.get(u.from) ?? []), u]);
  const said = [...byText].map(([from, us]) => `${from} (${showValue(us[0]!.text)}${us.length > 1 ? ` and ${us.length - 1} more sentence${us.length > 2 ? 's' : ''}` : ''})${us[0]!.notTaken ? `, read but for: ${us[0]!.notTaken}` : ''}`);
  return `${profile.role} ${showValue(profile.name)}: answered without what these give (a choice or situation not taken): ${said.join('; ')}`;
}
