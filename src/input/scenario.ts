import { dirname, isAbsolute, join } from 'node:path';
import { showValue } from '../errors.js';
import { refusal } from '../messages.js';
import { terminalSafe } from '../terminal-safe.js';
import { readJsonInput } from '../json-input.js';
import type { AnyScenario } from '../rules/registry.js';
import { readVariantFile } from './read-files.js';
import { readCatalogueFilesOnce, readProfilesFileOnce, readRosterFileOnce } from './read-once.js';
import { NO_VARIANT, parseScenarioWith, resolveInputsWith, type ResolvedInputs, type ScenarioFiles } from './scenario-core.js';

/**
 * Scenarios as the CLI and the library read them: the parser of src/input/scenario-core.ts with the
 * files a scenario names read from disk. Everything else of scenario-core is exported from here too, so
 * Node callers import scenarios from one module; code that must bundle for a browser imports
 * scenario-core.
 */
export * from './scenario-core.js';

/** Warnings printed in this run, so that a sweep's every cell does not repeat one. */
const warned = new Set<string>();

/** A new command line starts with no warnings given (the CLI's in-process test harness runs several in one process). */
export function resetUnmodelledWarnings(): void {
  warned.clear();
}

/** The files a scenario names, read from disk: profiles files, rosters and catalogues once per process while they stay as they are (a sweep parses this for every cell). */
export const diskScenarioFiles: ScenarioFiles = {
  variant: (path) => readVariantFile(path),
  profiles: (path) => readProfilesFileOnce(path),
  roster: (path) => readRosterFileOnce(path),
  catalogue: (paths) => readCatalogueFilesOnce(paths),
  // What --allow-unmodelled left out: one warning line on stderr, once per run.
  notice: (line) => {
    if (warned.has(line)) return;
    warned.add(line);
    process.stderr.write(`injury-lab: warning: ${terminalSafe(line)}\n`);
  },
};

/** Reads the files a scenario's raw fields name from disk (see ResolvedInputs); refuses a raw value that is no object. */
export function resolveInputs(raw: unknown, origin = ''): ResolvedInputs {
  return resolveInputsWith(raw, diskScenarioFiles, origin);
}

/**
 * Turns raw fields (from a JSON file, flags or a report) into a validated scenario with every field of
 * its kind filled, the files they name read from disk. Throws UsageError with one line naming the field,
 * the value and what is allowed.
 */
export function parseScenario(raw: unknown, origin = ''): AnyScenario {
  return parseScenarioWith(raw, diskScenarioFiles, origin);
}

/** Reads a scenario file (JSON). Missing, special, huge, malformed or too deep files are user mistakes, reported in one line. */
export function readScenarioFile(path: string): Record<string, unknown> {
  const parsed = readJsonInput(path, { label: `scenario file ${showValue(path)}`, what: 'a scenario file', missing: 'no such file' }).value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw refusal(`scenario file ${showValue(path)}`, `must hold one JSON object of scenario fields, got ${Array.isArray(parsed) ? 'an array' : showValue(parsed)}`);
  }
  return rulesRelativeTo(parsed as Record<string, unknown>, path);
}

/** The variant, profiles, roster and catalogue files a file names (a scenario file, a report definition) are read from that file's folder. */
export function rulesRelativeTo(raw: Record<string, unknown>, file: string): Record<string, unknown> {
  const out = { ...raw };
  const relative = (path: unknown) => (typeof path === 'string' && path !== NO_VARIANT && !isAbsolute(path) ? join(dirname(file), path) : path);
  for (const key of ['rules', 'profiles', 'roster', 'catalogue']) {
    if (raw[key] !== undefined) out[key] = Array.isArray(raw[key]) ? raw[key].map(relative) : relative(raw[key]);
  }
  return out;
}
