import { checkBattleSettings, resolveBattle } from '../src/input/battle.js';
import { tallyLength } from '../src/model/tally.js';
import { simulateSource } from '../src/pool/simulate.js';
import { battlePlanOf } from '../src/rules/trench-crusade/battle/resolved.js';
import { battleLayoutOf } from '../src/rules/trench-crusade/battle/report.js';
import type { KernelSource } from '../src/sim/protocol.js';

/** Issue 50: at least 10,000 battles a second on one core, 10 models a side over 6 turns. */
export const BATTLE_TARGET = 10_000;

/**
 * Ten models a side of the example profiles, riflemen, shields and a Tough brute, each side advancing
 * and spending its markers on injuries, over the default 6 turns, 24" apart, a quarter of shots into cover.
 */
const A = 'Unarmoured Trooper with Bolt-action Rifle + Trench Club x6, Shield Bearer with Trench Club x2, Machine Brute with Great Hammer x2';
const B = "Reinforced Veteran with Bolt-action Rifle + Trench Club x6, Shield Bearer with Great Hammer x2, Machine Brute with Executioner's Axe x2";

export function benchBattle(): { label: string; source: KernelSource; length: number } {
  const settings = checkBattleSettings({ profiles: 'examples/profiles.json', a: A, b: B, coverChance: 0.25 }, (n) => n);
  const { battle } = resolveBattle(settings);
  return { label: 'battles, 10 models a side, 6 turns, 1 worker', source: { type: 'battle', battle }, length: tallyLength(battleLayoutOf(battlePlanOf(battle))) };
}

/** Battles a second on one worker thread: the best of `repeats` runs of `trials` after a warm-up. */
export async function battlesPerSecond(repeats: number, trials: number): Promise<{ label: string; perSecond: number; source: KernelSource }> {
  const { label, source, length } = benchBattle();
  await simulateSource(source, length, { trials: trials / 10, seed: 99, workers: 1 });
  let best = 0;
  for (let i = 0; i < repeats; i++) {
    const run = await simulateSource(source, length, { trials, seed: 1 + i, workers: 1 });
    best = Math.max(best, trials / run.seconds);
  }
  return { label, perSecond: best, source };
}
