/**
 * What the opened files are to a scenario, as the answer's worker read them, and the weapons and models
 * the scenario's profiles source offers: the form's pickers and the grid's matrix read them.
 */
import type { OpenedFile } from '../engine.js';
import { input, type Input } from './state.js';

export const PROFILE_SOURCES = ['profiles', 'roster', 'catalogue'] as const;

/** What each opened file is to a scenario, as the exact worker read it. */
export let opened: readonly OpenedFile[] = [];

export function setOpened(files: readonly OpenedFile[]): void {
  opened = files;
}

/** The weapons and models the scenario's profiles source offers, as the opened files listed them. */
export function profileNames(): { weapons: readonly string[]; models: readonly string[]; about: OpenedFile['profiles']; imported: boolean } | undefined {
  const source = PROFILE_SOURCES.find((k) => input[k] !== undefined);
  if (!source) return undefined;
  const name = source === 'catalogue' ? (Array.isArray(input.catalogue) ? input.catalogue[0] : input.catalogue) : input[source];
  const f = opened.find((o) => o.name === name && !o.problem);
  return f ? { weapons: f.weapons ?? [], models: f.models ?? [], about: f.profiles, imported: source !== 'profiles' } : undefined;
}

/** The scenario without its picked weapon and target: a matrix varies both. */
export function withoutPicks(raw: Input): Input {
  const { weapon: _w, target: _t, ...rest } = raw;
  return rest;
}

/** A profile as a picker lists it: its name, cost and keywords ("Great Hammer (12): IGNORE ARMOUR"). */
export function profileLabel(name: string, about: OpenedFile['profiles']): string {
  const p = about?.[name];
  if (!p) return name;
  return `${name}${p.cost !== undefined ? ` (${p.cost})` : ''}${p.keywords.length ? `: ${p.keywords.join(', ')}` : ''}`;
}
