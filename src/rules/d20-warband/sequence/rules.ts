/**
 * Rule tables of the d20 warband `turns` kind: how an injured target recovers between the attacker's
 * turns (000_87078d30a64c9030.txt, Injury Types). Shared by the exact chain and the simulator; nothing
 * here computes a probability.
 *
 * "Stunned units will recover to Dazed in the controlling player's next Upkeep phase"; "Dazed units will
 * recover to Staggered in the controlling player's next Upkeep phase"; Staggered lasts "until the end of
 * the current turn. So if a unit recovered from Dazed to Staggered, they would recover from Staggered at
 * the end of the controlling player's turn". Wounds never come back.
 */
import { DAZED, NONE, STAGGERED, STUNNED, type Severity } from '../tables.js';

export const MIN_TURNS = 1;
export const MAX_TURNS = 20;
export const DEFAULT_TURNS = 5;

/**
 * Where the attack falls in the target's turn:
 * - `shared` (default): one game turn holds both sides' phases, so each turn is Upkeep (the target
 *   recovers one step), then the attack, then the end of the turn (Staggered clears). A target that
 *   recovered to Staggered is attacked while Staggered.
 * - `separate`: the target's own turn, Upkeep and end, lies between two attacks, so a Dazed target has
 *   recovered completely (Dazed -> Staggered -> uninjured) by the next attack.
 */
export const TARGET_TURNS = ['shared', 'separate'] as const;
export type TargetTurn = (typeof TARGET_TURNS)[number];

/** One Upkeep: Stunned -> Dazed, Dazed -> Staggered. */
export function upkeep(state: Severity): Severity {
  return state === STUNNED ? DAZED : state === DAZED ? STAGGERED : state;
}

/** End of the target's turn: Staggered clears. */
export function endOfTurn(state: Severity): Severity {
  return state === STAGGERED ? NONE : state;
}

/**
 * The target's state at the next attack, given its state after this attack. `shared`: the end of this
 * turn, then the next Upkeep. `separate`: the end of this turn, then the target's own turn (Upkeep, end).
 */
export function betweenAttacks(state: Severity, mode: TargetTurn): Severity {
  const after = upkeep(endOfTurn(state));
  return mode === 'shared' ? after : endOfTurn(after);
}
