import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { showValue } from '../errors.js';
import { readJsonInput } from '../json-input.js';
import type { Profiles } from '../model/profiles.js';
import { parseProfiles } from './profiles-file.js';
import { parseVariant, type Variant } from './variant.js';

/**
 * Variant and profiles files read from disk for the CLI: the JSON read and bounded (src/json-input.ts),
 * then checked by parseVariant and parseProfiles, which read no file (a page in a browser hands them the
 * files the user opened).
 */

/** Reads a variant file; `relativeTo` is the file that names it (a relative path is read from its folder). */
export function readVariantFile(path: string, relativeTo?: string): Variant {
  const full = relativeTo && !isAbsolute(path) ? resolve(dirname(relativeTo), path) : path;
  const label = `variant file ${showValue(path)}`;
  const { value } = readJsonInput(full, { label, what: 'a variant file', missing: 'no such file' });
  return parseVariant(value, label, basename(path).replace(/\.json$/i, ''));
}

/** Reads a profiles file (JSON, at most 1 MiB). */
export function readProfilesFile(path: string): Profiles {
  const label = `profiles file ${showValue(path)}`;
  return parseProfiles(readJsonInput(path, { label, what: 'a profiles file', missing: 'no such file' }).value, label, path);
}
