import { diskScenarioFiles } from '../input/scenario.js';
import type { SystemSpec } from '../model/types.js';
import { parseDimensionWith, type Dimension, type VarySpec } from './dimension-core.js';

/**
 * Grid dimensions as the CLI reads them: src/analysis/dimension-core.ts (which reads no file) with a rules
 * dimension's variant files read from disk. Everything of dimension-core is exported from here too, so
 * Node callers import dimensions from one module; code that must bundle for a browser imports
 * dimension-core.
 */
export * from './dimension-core.js';

/** parseDimensionWith, a rules dimension's variant files read from disk. */
export function parseDimension(spec: VarySpec, system: SystemSpec, kind: string): Dimension {
  return parseDimensionWith(spec, system, kind, diskScenarioFiles);
}
