import { DEFAULT_SYSTEM, systems } from '../rules/registry.js';
import type { SystemSpec } from '../model/types.js';

/**
 * The per-system part of a published JSON Schema (scenario, variant and profiles files): one if/then
 * branch per system, keyed on the file's `system`, where a file without one is of the default system.
 */
export function perSystem(then: (system: SystemSpec) => Record<string, unknown>): Record<string, unknown>[] {
  return systems.map((system) => ({
    if:
      system.id === DEFAULT_SYSTEM
        ? { anyOf: [{ not: { required: ['system'] } }, { properties: { system: { const: system.id } } }] }
        : { required: ['system'], properties: { system: { const: system.id } } },
    then: then(system),
  }));
}
