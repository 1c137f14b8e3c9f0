import type { KindSpec, Scenario, SystemSpec } from '../model/types.js';
import type { D20WarbandScenario } from './d20-warband/fields.js';
import type { TrenchCrusadeScenario } from './trench-crusade/fields.js';
import { trenchCrusade } from './trench-crusade/system.js';
import { d20Warband } from './d20-warband/system.js';

/** A validated scenario of any system and kind: what parseScenario returns; narrow it by system and kind. */
export type AnyScenario = TrenchCrusadeScenario | D20WarbandScenario;

/** The system of a scenario, variant or profiles file that names none. */
export const DEFAULT_SYSTEM = 'trench-crusade';

/** Every rule system injury-lab knows. Add a system by adding its folder and one line here. */
export const systems: readonly SystemSpec[] = [trenchCrusade, d20Warband];

export function findSystem(id: string): SystemSpec | undefined {
  return systems.find((s) => s.id === id);
}

/** The system and kind of a validated scenario (validation guarantees both exist). */
export function resolveKind(scenario: Scenario): { system: SystemSpec; kind: KindSpec } {
  const system = findSystem(scenario.system);
  const kind = system?.kinds.find((k) => k.id === scenario.kind);
  if (!system || !kind) throw new Error(`unvalidated scenario: ${scenario.system}/${scenario.kind}`);
  return { system, kind };
}
