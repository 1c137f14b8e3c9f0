import { profilesOfSource } from '../input/profile-source.js';
import { type Profile, type Profiles, unmodelledText } from '../model/profiles.js';
import { fieldFromProfiles } from './field.js';
import { parseWhere } from './where.js';
import type { DuelEntry } from './duel-matrix.js';
import { parseScenario } from '../input/scenario.js';
import { DUEL_KIND } from '../rules/duel-report.js';
import { duelSideFields } from '../rules/trench-crusade/duel/sides.js';
import { showValue } from '../errors.js';
import { refusal } from '../messages.js';
import { type PriceResult, priceField } from './price.js';
import type { SolveDuelMatrixOptions } from './duel-matrix.js';
import { type DuelPriceSettings, priceSourceText } from './price-settings.js';

/**
 * One price asked with its settings, as `injury-lab price` and a report's `price` analysis both ask it:
 * the profiles file read, the field built and narrowed, every duel solved, the field rated and priced,
 * and what the verdicts rest on besides the numbers (what the field is, what every duel leaves out).
 */
export interface PricedField {
  readonly result: PriceResult;
  /** The field as the user named it: "every model with every melee weapon of examples/profiles.json (models: A, B)". */
  readonly field: string;
  readonly system: string;
  readonly edition: string;
  /** What the profiles could not model, by the model or weapon it belongs to: left out of every duel. */
  readonly leftOut: readonly { readonly name: string; readonly note: string }[];
}

/** Where and how the duels are solved (the exact threads, a queue's hosts; how many at once; Ctrl-C), and progress. */
export type PriceRunOptions = Pick<SolveDuelMatrixOptions, 'solver' | 'signal' | 'atOnce' | 'onProgress'>;

/**
 * What a profile could not model, as a note: a roster's or catalogue's items read now ("not modelled:
 * ..."), or what an exported profiles file wrote into its description when it was read from one.
 */
function leftOutNote(profile: Profile): string | undefined {
  if (profile.unmodelled?.length) return `not modelled: ${profile.unmodelled.map(unmodelledText).join('; ')}`;
  return profile.description !== undefined && /not modelled/i.test(profile.description) ? profile.description : undefined;
}

/**
 * The entries that meet every condition of --where, each read as its duels read it: its side parsed once
 * in a duel against a bare opponent (its profiles, keywords and the model's own dice resolved), its
 * keywords its model's and weapon's. None left is refused in one line, before any duel.
 */
export function meetingAll(field: readonly DuelEntry[], where: readonly string[], profiles: Profiles, duelBase: Record<string, unknown>): DuelEntry[] {
  const conditions = where.map((text) => parseWhere(text, duelSideFields, '--where'));
  const kept = field.filter((entry) => {
    const parsed = parseScenario({ ...duelBase, kind: DUEL_KIND, a: entry.side, b: {} }, `entry ${showValue(entry.name)}`) as unknown as { a: Record<string, unknown> };
    const keywords = [...(profiles.models.get(String(entry.side.model))?.keywords ?? []), ...(profiles.weapons.get(String(entry.side.weapon))?.keywords ?? [])];
    const read = { ...(entry.price !== undefined ? { price: entry.price } : {}), keywords, side: parsed.a };
    return conditions.every((c) => c.meets(read));
  });
  if (kept.length === 0) throw refusal('--where', `no entry of the field's ${field.length} meets ${where.map((w) => showValue(w)).join(' and ')}`, 'allowed: conditions some entry meets');
  return kept;
}

/** What each profile of the field could not model, by its name: every duel or battle leaves it out. */
export function leftOutOf(profiles: Profiles, field: readonly DuelEntry[]): { name: string; note: string }[] {
  const used = new Set(field.flatMap((e) => [String(e.side.model), String(e.side.weapon)]));
  return [...profiles.models.values(), ...profiles.weapons.values()].flatMap((p) => {
    const note = used.has(p.name) ? leftOutNote(p) : undefined;
    return note === undefined ? [] : [{ name: p.name, note }];
  });
}

export async function priceOfSettings(settings: DuelPriceSettings, options: PriceRunOptions = {}): Promise<PricedField> {
  const { profiles, base } = profilesOfSource(settings);
  const { models, weapons, where } = settings;
  const duelBase = { system: profiles.system.id, ...base, ...(settings.edition !== undefined ? { edition: settings.edition } : {}) };
  const whole = fieldFromProfiles(profiles, { attackType: settings.attackType, ...(models ? { models } : {}), ...(weapons ? { weapons } : {}) });
  const field = where ? meetingAll(whole, where, profiles, duelBase) : whole;
  const result = await priceField(field, {
    base: duelBase,
    rounds: settings.rounds,
    policy: settings.policy,
    objective: settings.objective,
    line: settings.line,
    tolerancePercent: settings.tolerance,
    prior: settings.prior,
    ...(settings.anchor !== undefined ? { anchor: settings.anchor } : {}),
    ...options,
  });
  const narrowings = [models ? `models: ${models.join(', ')}` : '', weapons ? `weapons: ${weapons.join(', ')}` : '', where ? `where ${where.join(' and ')}` : ''].filter(Boolean);
  const narrowed = narrowings.length ? ` (${narrowings.join('; ')})` : '';
  const leftOut = leftOutOf(profiles, field);
  return {
    result,
    field: `every model with every ${settings.attackType} weapon of ${priceSourceText(settings)}${narrowed}`,
    system: String(result.matrix.scenario.system),
    edition: String(result.matrix.scenario.edition),
    leftOut,
  };
}
