/**
 * The duels of `npm run bench` (issue 24): how long an exact 10-round duel takes, under fixed policies and
 * under `optimal` (both sides), and how many simulated duels one worker plays per second.
 */
import { fastestExactSolve } from './exact-timing.js';
import { parseScenario } from '../src/input/scenario.js';
import { simulate } from '../src/pool/simulate.js';

/** Issue 24's targets, tightened by issue 39: an exact fixed-policy duel under 50 ms warm, optimal under 50 ms (200 by ledges), 5 M simulated duels per second per worker. */
export const DUEL_TARGETS = { exactMs: 50, optimalMs: 50, optimalLedgeMs: 200, duelsPerSecond: 5e6 };

const duel = (a: Record<string, unknown>, b: Record<string, unknown>) => parseScenario({ kind: 'duel', rounds: 10, a, b }, 'bench');

export const OPTIMAL_DUEL = 'duel, 10 rounds, both optimal';
export const OPTIMAL_LEDGE_DUEL = 'duel, 10 rounds, both optimal, both by 6-inch ledges';

/** Two Tough models in standard armour, one attack an activation each, as the README's example. */
const tough = { armour: 'standard', tough: true };
export const DUEL_CASES = [
  { label: 'duel, 10 rounds, policies none', scenario: duel(tough, tough), optimal: false },
  { label: 'duel, 10 rounds, policies injury', scenario: duel({ ...tough, policy: 'injury' }, { ...tough, policy: 'injury' }), optimal: false },
  { label: OPTIMAL_DUEL, scenario: duel({ ...tough, policy: 'optimal' }, { ...tough, policy: 'optimal' }), optimal: true },
  // Ruling D9: each Down of a standing side by a ledge splits into its success roll and the fall.
  { label: 'duel, 10 rounds, policies injury, both by 6-inch ledges', scenario: duel({ ...tough, policy: 'injury', ledgeInches: 6 }, { ...tough, policy: 'injury', ledgeInches: 6 }), optimal: false },
  { label: OPTIMAL_LEDGE_DUEL, scenario: duel({ ...tough, policy: 'optimal', ledgeInches: 6 }, { ...tough, policy: 'optimal', ledgeInches: 6 }), optimal: true },
  {
    label: 'd20 duel, 10 rounds, 3 attacks and 5 wounds each',
    scenario: parseScenario({ system: 'd20-warband', kind: 'duel', rounds: 10, a: { attacks: 3, wounds: 5 }, b: { attacks: 3, wounds: 5 } }, 'bench'),
    optimal: false,
  },
];

export interface DuelTiming {
  label: string;
  /** Fastest of `repeats` exact solves after one warm-up, in milliseconds. */
  milliseconds: number;
  target: number;
}

export function duelExactTimings(repeats: number): DuelTiming[] {
  return DUEL_CASES.map(({ label, scenario, optimal }) => ({
    label,
    milliseconds: fastestExactSolve(scenario, repeats),
    target: !optimal ? DUEL_TARGETS.exactMs : label === OPTIMAL_LEDGE_DUEL ? DUEL_TARGETS.optimalLedgeMs : DUEL_TARGETS.optimalMs,
  }));
}

/** Simulated duels per second of wall clock on one worker thread (plain sides, policies none), best of `repeats`. */
export async function duelsPerSecond(repeats: number, trials: number): Promise<{ label: string; perSecond: number; scenario: ReturnType<typeof duel> }> {
  const scenario = duel({}, {});
  await simulate(scenario, { trials: trials / 10, seed: 99, workers: 1 });
  let best = 0;
  for (let i = 0; i < repeats; i++) {
    const run = await simulate(scenario, { trials, seed: 1, workers: 1 });
    best = Math.max(best, trials / run.seconds);
  }
  return { label: 'simulated duels, 10 rounds, plain sides, 1 worker', perSecond: best, scenario };
}
