import { sideCost, type Profiles } from '../model/profiles.js';
import { notOneOf, refusal } from '../messages.js';
import type { DuelEntry } from './duel-matrix.js';

/** The attack type that takes every weapon: a battle's field, where a rifle matters before the charge lands. */
export const ANY_ATTACK_TYPE = 'any';

export interface ProfileFieldOptions {
  /** The weapons taken: those of this attack type, or every weapon (`any`). Default 'melee' (a duel is a melee fight). */
  readonly attackType?: string;
  /** Only these models (by name), in the file's order; default every model. */
  readonly models?: readonly string[];
  /** Only these weapons (by name, "MODEL with WEAPON" ones too); default every weapon of the attack type. */
  readonly weapons?: readonly string[];
}

/**
 * The field of every model of a profiles file with each weapon of one attack type it may carry, model by
 * model: a model with a `loadout` (a catalogue's reading of what it may carry, or one written by hand)
 * with those weapons alone, so a pairing the game forbids is neither priced nor allowed to distort the
 * ratings of every other entry; a model without one (a hand-written file, a roster) with every weapon:
 * named "MODEL with WEAPON", the side `{ model, weapon }` (so the base scenario must name the same
 * file), priced by sideCost (a model's cost plus its weapon's; a roster's model at its own price),
 * unpriced when a part has none. A weapon that states no attack type is melee, the attackType field's
 * default in every system. A weapon named "MODEL with WEAPON" (a roster's or catalogue's weapon in that
 * model's hands, priced as the whole model) goes with that model alone, under its own name. Names given
 * in `models` or `weapons` that the file lacks, or that leave no entry, are refused in one line.
 */
export function fieldFromProfiles(profiles: Profiles, options: ProfileFieldOptions = {}): DuelEntry[] {
  const attackType = options.attackType ?? 'melee';
  const allModels = [...profiles.models.keys()];
  for (const name of options.models ?? []) if (!profiles.models.has(name)) throw notOneOf('--models', name, 'a model of the profiles file', allModels);
  for (const name of options.weapons ?? []) if (!profiles.weapons.has(name)) throw notOneOf('--weapons', name, 'a weapon of the profiles file', [...profiles.weapons.keys()]);
  const models = options.models ? allModels.filter((m) => options.models!.includes(m)) : allModels;
  const weapons = [...profiles.weapons.values()].filter((w) => (attackType === ANY_ATTACK_TYPE || (w.fields.attackType ?? 'melee') === attackType) && (!options.weapons || options.weapons.includes(w.name)));
  /** The model a "MODEL with WEAPON" weapon belongs to, if it is one. */
  const holder = (weapon: string) => allModels.find((m) => weapon.startsWith(`${m} with `));
  const field = models.flatMap((model) =>
    weapons.flatMap((w) => {
      const owner = holder(w.name);
      if (owner !== undefined && owner !== model) return [];
      // The model's own reading of this weapon (the catalogue's "MODEL with WEAPON", its dice and rules
      // folded in) stands for the pair: the bare weapon in its hands would be a second, wrong reading
      // of the same entry under the same name.
      if (owner === undefined && profiles.weapons.has(`${model} with ${w.name}`)) return [];
      const loadout = profiles.models.get(model)!.loadout;
      if (owner === undefined && loadout !== undefined && !loadout.includes(w.name)) return [];
      // A side that costs nothing (a model that comes free with another, "Trench Dog (Guard Dog) with
      // Bite" at 0 ducats) is rated but has no place on a line of rating against ln(price): unpriced.
      const price = sideCost(profiles, { model, weapon: w.name });
      return [{ name: owner === undefined ? `${model} with ${w.name}` : w.name, side: { model, weapon: w.name }, ...(price !== undefined && price > 0 ? { price } : {}) }];
    }),
  );
  if (field.length === 0) throw refusal('field', `no model with a ${attackType === ANY_ATTACK_TYPE ? '' : `${attackType} `}weapon${options.models || options.weapons ? ' among those named' : ''}`, 'allowed: a profiles file with models and weapons of that attack type');
  return field;
}
