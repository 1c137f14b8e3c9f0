import type { Profile, Profiles, Renamed } from './profiles.js';

/**
 * My roster against their catalogue (issue 48): the profiles of a roster and of catalogue files, read
 * together as one file. A name both hold is never shadowed one by the other: the roster's keeps its name
 * (it is the warband the user brought, and "MODEL with WEAPON" names are built on it), the catalogue's is
 * named NAME (catalogue), and the scenario says so in a note (warbandNote). What the catalogue's profiles
 * name of their own is renamed with them: a model's loadout, and a "MODEL with WEAPON" whose model or
 * weapon was renamed, so that a catalogue model still pairs with its own weapons and with no other.
 */

/** What a catalogue's profile is named when the roster holds its name. */
export const CATALOGUE_SUFFIX = ' (catalogue)';

/**
 * The roster's profiles and the catalogue's as one Profiles, or the name a renaming would give that the
 * catalogue or the roster already holds (then nothing is joined: the caller refuses it in one line).
 */
export function joinWarbandProfiles(roster: Profiles, catalogue: Profiles): { profiles: Profiles } | { clash: Renamed } {
  const renamed: Renamed[] = [];
  const modelName = new Map<string, string>();
  for (const name of catalogue.models.keys()) modelName.set(name, roster.models.has(name) ? `${name}${CATALOGUE_SUFFIX}` : name);
  const bareWeaponName = (name: string) => (roster.weapons.has(name) ? `${name}${CATALOGUE_SUFFIX}` : name);
  /** The catalogue's model a "MODEL with WEAPON" of the catalogue belongs to, and its weapon, if it is one. */
  const pairing = (name: string): [string, string] | undefined => {
    for (const model of catalogue.models.keys()) if (name.startsWith(`${model} with `)) return [model, name.slice(model.length + ' with '.length)];
    return undefined;
  };
  const weaponName = new Map<string, string>();
  for (const name of catalogue.weapons.keys()) {
    const parts = pairing(name);
    if (parts === undefined) {
      weaponName.set(name, bareWeaponName(name));
      continue;
    }
    // A pairing follows its parts: the bare weapon renamed and the pairing not, the catalogue model would
    // be paired with its weapon twice (price's field takes "MODEL with WEAPON" for "MODEL" and "WEAPON").
    const [model, weapon] = parts;
    const next = `${modelName.get(model)!} with ${catalogue.weapons.has(weapon) ? bareWeaponName(weapon) : weapon}`;
    weaponName.set(name, next === name ? bareWeaponName(name) : next);
  }
  for (const [role, names, own, other] of [
    ['model', modelName, roster.models, catalogue.models],
    ['weapon', weaponName, roster.weapons, catalogue.weapons],
  ] as const) {
    for (const [from, to] of names) {
      if (from === to) continue;
      const change = { role, from, to };
      // "Knife (catalogue)" already a name of either file: two profiles under one name.
      if (own.has(to) || other.has(to)) return { clash: change };
      renamed.push(change);
    }
  }
  const rename = (p: Profile, to: string, loadout: readonly string[] | undefined): Profile => ({ ...p, name: to, ...(loadout ? { loadout: loadout.map((w) => weaponName.get(w) ?? w) } : {}) });
  const weapons = new Map<string, Profile>(roster.weapons);
  for (const [name, p] of catalogue.weapons) weapons.set(weaponName.get(name)!, rename(p, weaponName.get(name)!, undefined));
  const models = new Map<string, Profile>(roster.models);
  // A catalogue model without a loadout goes with every weapon of its catalogue, as it does read alone:
  // never with the roster's (a roster's model has the weapons it holds as its loadout, so it never takes the catalogue's).
  const catalogueWeapons = [...catalogue.weapons.keys()];
  for (const [name, p] of catalogue.models) models.set(modelName.get(name)!, rename(p, modelName.get(name)!, p.loadout ?? catalogueWeapons));
  // A name the roster holds as one role and the catalogue as the other is no shadowing: a scenario names a weapon and a model apart.
  const unmodelled = [...(roster.unmodelled ?? []), ...(catalogue.unmodelled ?? [])];
  return {
    profiles: {
      system: roster.system,
      file: `${roster.file} with ${catalogue.file}`,
      weapons,
      models,
      ...(unmodelled.length ? { unmodelled } : {}),
      ...(roster.noEffect ? { noEffect: roster.noEffect } : {}),
      // The roster's models keep their names: as fielded, they are the roster's still.
      ...(roster.fielded ? { fielded: roster.fielded } : {}),
      warband: { roster: roster.file, catalogue: catalogue.file, rosterModels: new Set(roster.models.keys()), renamed },
    },
  };
}

/** The note a joined file's scenario carries where a name is in both: which of the catalogue's were renamed. */
export function warbandNote(profiles: Profiles): string | undefined {
  const renamed = profiles.warband?.renamed ?? [];
  if (renamed.length === 0) return undefined;
  const shown = renamed.map((r) => `${r.role} ${JSON.stringify(r.from)} is named ${JSON.stringify(r.to)}`).join(', ');
  return `the roster ${JSON.stringify(profiles.warband!.roster)} and the catalogue files ${JSON.stringify(profiles.warband!.catalogue)} both name ${renamed.length === 1 ? 'a profile' : `${renamed.length} profiles`}: the roster's keeps its name, the catalogue's ${shown}`;
}
