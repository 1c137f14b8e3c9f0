import type { KindSimulation } from '../../model/types.js';
import type { OneRollScenario, TrenchCrusadeScenario } from './fields.js';
import { attackLayout, injuryLayout } from './layout.js';
import { SEQUENCE_KIND } from './sequence/fields.js';
import type { SequenceScenario } from './sequence/model.js';
import { sequenceLayout } from './sequence/layout.js';
import { sequenceSimulator } from './sequence/simulate.js';
import { trenchCrusadeSimulator } from './simulate.js';

/** The system's id, declared once: its SystemSpec and the simulation workers' registry read it here. */
export const TRENCH_CRUSADE = 'trench-crusade';

function oneRoll<K extends OneRollScenario['kind']>(id: K, layout: ReturnType<KindSimulation['layout']>): KindSimulation<TrenchCrusadeScenario<K>> {
  return { id, layout: () => layout, simulator: (s) => trenchCrusadeSimulator(s) };
}

export const injurySimulation = oneRoll('injury', injuryLayout);
export const attackSimulation = oneRoll('attack', attackLayout);
export const fallSimulation = oneRoll('fall', injuryLayout);
export const sequenceSimulation: KindSimulation<SequenceScenario> = { id: SEQUENCE_KIND, layout: sequenceLayout, simulator: sequenceSimulator };

/**
 * Each kind's layout and simulator: all a simulation worker loads of this system (the exact engine
 * comes with it only where a simulator plays a policy the exact chain solved: the sequence's optimal).
 */
export const trenchCrusadeSimulations: readonly KindSimulation<TrenchCrusadeScenario>[] = [injurySimulation, attackSimulation, fallSimulation, sequenceSimulation];
