import type { Profiles } from '../model/profiles.js';
import { readCatalogueProfilesOnce, readProfilesFileOnce, readRosterProfilesOnce, scenarioProfilesOnce } from './read-once.js';

/** Where a command reads its models and weapons: a profiles file alone, or a roster and catalogue files, one or both. */
export interface ProfileSource {
  readonly profiles?: string;
  readonly roster?: string;
  readonly catalogue?: readonly string[];
  readonly allowUnmodelled?: boolean;
}

/**
 * The profiles a command's entries are read from, and the scenario fields that name the same files, so
 * every scenario it then parses reads its sides where the entries were found. A roster or catalogue is
 * read once per process (./read-once.ts).
 */
export function profilesOfSource(source: ProfileSource): { profiles: Profiles; base: Record<string, unknown> } {
  const allow = source.allowUnmodelled === true ? { allowUnmodelled: true } : {};
  if (source.roster !== undefined && source.catalogue !== undefined) {
    const base = { roster: source.roster, catalogue: source.catalogue };
    return { profiles: scenarioProfilesOnce(base)!, base: { ...base, ...allow } };
  }
  if (source.roster !== undefined) return { profiles: readRosterProfilesOnce(source.roster), base: { roster: source.roster, ...allow } };
  if (source.catalogue !== undefined) return { profiles: readCatalogueProfilesOnce(source.catalogue), base: { catalogue: source.catalogue, ...allow } };
  return { profiles: readProfilesFileOnce(source.profiles!), base: { profiles: source.profiles, ...allow } };
}
