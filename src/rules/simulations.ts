import type { KindSimulation, Scenario } from '../model/types.js';
import { D20_WARBAND } from './d20-warband/kinds.js';
import { d20WarbandSimulations } from './d20-warband/simulation.js';
import { TRENCH_CRUSADE } from './trench-crusade/kinds.js';
import { trenchCrusadeSimulations } from './trench-crusade/simulation.js';

/**
 * Every kind's layout and simulator, by system: what a simulation worker loads (src/sim/chunks.ts),
 * without the exact engines, fields and rule specs that ./registry.ts brings. A new system adds its
 * line here as well as in ./registry.ts.
 */
const bySystem: Readonly<Record<string, readonly KindSimulation[]>> = {
  [TRENCH_CRUSADE]: trenchCrusadeSimulations,
  [D20_WARBAND]: d20WarbandSimulations,
};

/** The layout and simulator of a validated scenario's kind (validation guarantees both exist). */
export function kindSimulation(scenario: Scenario): KindSimulation {
  const kind = bySystem[scenario.system]?.find((k) => k.id === scenario.kind);
  if (!kind) throw new Error(`unvalidated scenario: ${scenario.system}/${scenario.kind}`);
  return kind;
}
