import { Ajv } from 'ajv';
import { useAjv } from '../model/ajv.js';
import { openedFiles } from '../input/opened-files.js';
import { parseScenarioWith, type ScenarioFiles } from '../input/scenario-core.js';
import type { AnyScenario } from '../rules/registry.js';

/**
 * The engine as the web page bundles it (esbuild, platform browser): the very modules the CLI runs, none
 * of which imports node: or reads a file. What the page needs and nothing of the CLI:
 * - the systems, their kinds and fields (systems, findSystem) and the scenario JSON Schema;
 * - scenario parsing (parseScenarioWith) over a ScenarioFiles reader: the page's own over the files the
 *   user opened, built from the same parsers the CLI's reader uses (parseJsonText, parseVariant,
 *   parseProfiles, battleScribeDocument, rosterFromDocument, catalogueTree), or pageScenario's default,
 *   which refuses every file;
 * - exact answers (evaluateParsed) and the JSON document `exact --format json` prints (exactJson);
 * - simulation in the page's workers: compileKernel and playChunks over chunks of CHUNK_SIZE trials,
 *   into a tally of tallyLength(layout) numbers, then summarize and crossCheck (wilson for intervals).
 * test/browser-safe.test.ts bundles this file and fails on any Node import.
 */

// The CLI loads ajv on first use through Node's require; a bundle has none, so it is given here.
useAjv(Ajv);

export { UsageError } from '../errors.js';
export { systems, findSystem, DEFAULT_SYSTEM, type AnyScenario } from '../rules/registry.js';
export { parseScenarioWith, resolveInputsWith, validateScenario, scenarioJsonSchema, scenarioRecord, NO_VARIANT, type ScenarioFiles, type ResolvedInputs } from '../input/scenario-core.js';
export { parseJsonText, MAX_JSON_BYTES, MAX_JSON_DEPTH, type JsonInput } from '../json-text.js';
export { parseVariant, variantJsonSchema, type Variant } from '../input/variant.js';
export { parseProfiles, profilesJsonSchema } from '../input/profiles-file.js';
export type { Profiles, Profile } from '../model/profiles.js';
export { battleScribeDocument, rosterFromDocument, MAX_ROSTER_BYTES, type BattleScribeDocument, type RosterTree } from '../import/read-roster.js';
export { catalogueTree, MAX_CATALOGUE_TOTAL_BYTES, type CatalogueDocument } from '../import/catalogue.js';
export { evaluateParsed, manifestFor, type ExactResult, type ExactOutcome, type ExactValue, type Manifest } from '../exact-result.js';
export { exactJson } from '../present/exact-json.js';
export { compileKernel, playChunks, type CompiledKernel } from '../sim/chunks.js';
export { CHUNK_SIZE, type ChunkRange, type KernelSource } from '../sim/protocol.js';
export { Rng } from '../sim/rng.js';
export { tallyLength } from '../model/tally.js';
export { summarize, crossCheck, wilson, type SimSummary, type CrossCheckReport } from '../stats/index.js';
export { formatFraction, toNumber, type Fraction } from '../exact/fraction.js';
export { toolVersion } from '../version.js';
export { openedFiles, describeOpened, type OpenedFiles, type OpenedFile } from '../input/opened-files.js';
export { describeAllowed } from '../model/field-schema.js';
export { fieldTitle, orWorseLabel, outcomeLabel } from '../labels.js';
export { DEFAULT_SEED, DEFAULT_TRIALS, parseSeed, parseTrials } from '../sim/run-limits.js';
export type { Scenario, ExactAnswer, ReportLayout, KindSpec, SystemSpec, FieldSpec, SimKernel } from '../model/types.js';

/**
 * The reader a page starts with: it has opened no file, so a scenario naming one (a variant, profiles, a
 * roster, catalogues) is refused in one line, `rules: "x.json" has not been opened in this page`.
 */
export const unopenedFiles: ScenarioFiles = openedFiles(new Map());

/**
 * A scenario from raw fields as the page has them, the files it names read by `files` (by default none:
 * unopenedFiles). The same parser as the CLI's parseScenario, with another reader.
 */
export function pageScenario(raw: unknown, files: ScenarioFiles = unopenedFiles, origin = ''): AnyScenario {
  return parseScenarioWith(raw, files, origin);
}
