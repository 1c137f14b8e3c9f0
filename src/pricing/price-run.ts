import { readProfilesFileOnce } from '../input/read-once.js';
import { fieldFromProfiles } from './field.js';
import { type PriceResult, priceField } from './price.js';
import type { SolveDuelMatrixOptions } from './duel-matrix.js';
import type { PriceSettings } from './price-settings.js';

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

export async function priceOfSettings(settings: PriceSettings, options: PriceRunOptions = {}): Promise<PricedField> {
  const profiles = readProfilesFileOnce(settings.profiles);
  const { models, weapons } = settings;
  const field = fieldFromProfiles(profiles, { attackType: settings.attackType, ...(models ? { models } : {}), ...(weapons ? { weapons } : {}) });
  const result = await priceField(field, {
    base: { system: profiles.system.id, profiles: settings.profiles, ...(settings.edition !== undefined ? { edition: settings.edition } : {}) },
    rounds: settings.rounds,
    policy: settings.policy,
    objective: settings.objective,
    line: settings.line,
    tolerancePercent: settings.tolerance,
    prior: settings.prior,
    ...(settings.anchor !== undefined ? { anchor: settings.anchor } : {}),
    ...options,
  });
  const narrowed = models || weapons ? ` (${[models ? `models: ${models.join(', ')}` : '', weapons ? `weapons: ${weapons.join(', ')}` : ''].filter(Boolean).join('; ')})` : '';
  // What each profile could not model, as the profiles file says it (a catalogue's or roster's export
  // writes "not modelled: ..." into the description): every duel leaves it out.
  const used = new Set(field.flatMap((e) => [String(e.side.model), String(e.side.weapon)]));
  const leftOut = [...profiles.models.values(), ...profiles.weapons.values()]
    .filter((p) => used.has(p.name) && p.description !== undefined && /not modelled/i.test(p.description))
    .map((p) => ({ name: p.name, note: p.description! }));
  return {
    result,
    field: `every model with every ${settings.attackType} weapon of ${settings.profiles}${narrowed}`,
    system: String(result.matrix.scenario.system),
    edition: String(result.matrix.scenario.edition),
    leftOut,
  };
}
