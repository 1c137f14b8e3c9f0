import type { KindExact, KindSimulation, KindSpec, Scenario } from './types.js';

/** A kind whole: its simulation (a system's simulation.ts) and its exact engine (its exact-kinds.ts), over one layout. */
export function wholeKind<S extends Scenario>(simulation: KindSimulation<S>, exact: KindExact<S>, description: string): KindSpec<S> {
  return { ...simulation, exact: exact.exact, description };
}
