import { refusal } from '../messages.js';
import type { EditionSpec, KindExact, Scenario } from '../model/types.js';
import { d20WarbandExactKinds } from './d20-warband/exact-kinds.js';
import { D20_WARBAND } from './d20-warband/kinds.js';
import { D20_WARBAND_EDITIONS } from './d20-warband/tables.js';
import { trenchCrusadeExactKinds } from './trench-crusade/exact-kinds.js';
import { TRENCH_CRUSADE } from './trench-crusade/kinds.js';
import { TRENCH_CRUSADE_EDITIONS } from './trench-crusade/tables.js';

/**
 * Every kind's layout and exact engine, and every edition, by system: what an exact worker loads
 * (workers/exact.ts), without the simulators, fields and rule specs that ./registry.ts brings. A new
 * system adds its line here as well as in ./registry.ts and ./simulations.ts.
 */
const bySystem: Readonly<Record<string, { readonly kinds: readonly KindExact[]; readonly editions: readonly EditionSpec[] }>> = {
  [TRENCH_CRUSADE]: { kinds: trenchCrusadeExactKinds, editions: TRENCH_CRUSADE_EDITIONS },
  [D20_WARBAND]: { kinds: d20WarbandExactKinds, editions: D20_WARBAND_EDITIONS },
};

/** The layout and exact engine of a validated scenario's kind (validation guarantees both exist). */
export function kindExact(scenario: Scenario): KindExact {
  const system = bySystem[scenario.system];
  if (!system) throw new Error(`unvalidated scenario: ${scenario.system}/${scenario.kind}`);
  const kind = system.kinds.find((k) => k.id === scenario.kind);
  // Validation guarantees the kind exists: one without an exact engine is simulated only (a battle).
  if (!kind) throw noExactAnswer(scenario.kind);
  return kind;
}

/** The refusal of an exact answer to a kind that is simulated only (a battle). */
export function noExactAnswer(kind: string): Error {
  return refusal('kind', `"${kind}" has no exact answer: it is simulated only`, 'allowed: injury-lab simulate, or sweep and compare (which simulate it)');
}

/** The edition a validated scenario names, with its rule files. */
export function editionOf(scenario: Scenario): EditionSpec | undefined {
  return bySystem[scenario.system]?.editions.find((e) => e.id === scenario.edition);
}
