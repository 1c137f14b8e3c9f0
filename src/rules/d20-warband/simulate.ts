import type { SimKernel } from '../../model/types.js';
import type { D20WarbandScenario, OneActionKind } from './fields.js';
import type { Rng } from '../../sim/rng.js';
import {
  CHECK_DAZED_MAX,
  CHECK_STUNNED_MAX,
  DASH_FIRST_IMPROVED,
  DAZED,
  FALL_FREE_INCHES,
  FALL_MODIFIER_PER_INCH,
  INCAPACITATED,
  NATURAL_FAIL_MAX,
  NATURAL_SUCCESS,
  NONE,
  ROLL_DAZED_MAX,
  ROLL_NO_EFFECT_MAX,
  ROLL_STUNNED_MAX,
  STAGGERED,
  STATE_SEVERITY,
  STUNNED,
  modifierValue,
  statValue,
  type Severity,
} from './tables.js';

/**
 * The d20 warband simulator. It shares the rule tables with the exact engine and none of its code: it
 * plays the rules the way players at the table do - roll a d20 (two for advantage or disadvantage), look
 * at the die, resolve one attack after another, keep a count of attacks still owed - so a mistake in either
 * path shows up in `check`.
 */

/**
 * What a player needs on the die after modifiers. A "-" stat makes no roll at all (see `rollsNothing`);
 * improved, it reads 20 for the first point and one less for each point after (stats file, Stats with
 * Dashes). The need can be any integer, even below 1, so "no roll" is a separate flag, not a sentinel.
 */
function needOnDie(stat: number | null, improvement: number): number {
  if (stat === null) return DASH_FIRST_IMPROVED + 1 - improvement;
  return stat - improvement;
}

function rollsNothing(stat: number | null, improvement: number): boolean {
  return stat === null && improvement <= 0;
}

/** One d20, or the better/worse of two: `lean` +1 advantage, -1 disadvantage, 0 neither (or both). */
function rollD20(rng: Rng, lean: number): number {
  const first = rng.d20();
  if (lean === 0) return first;
  const second = rng.d20();
  if (lean > 0) return second > first ? second : first;
  return second < first ? second : first;
}

function leanOf(advantage: boolean, disadvantage: boolean): number {
  if (advantage && !disadvantage) return 1;
  if (disadvantage && !advantage) return -1;
  return 0;
}

function checkSimulator(s: D20WarbandScenario<'check'>): SimKernel {
  const stat = statValue(s.stat);
  const noRoll = rollsNothing(stat, s.modifier);
  const need = needOnDie(stat, s.modifier);
  const lean = leanOf(s.advantage === true, s.disadvantage === true);
  return {
    run(rng, trials, tally) {
      if (noRoll) {
        tally[0]! += trials; // every check fails and no die is rolled, so no natural 20 either
        return;
      }
      let fails = 0;
      let successes = 0;
      let twenties = 0;
      for (let t = 0; t < trials; t++) {
        const die = rollD20(rng, lean);
        if (die === NATURAL_SUCCESS) {
          successes++;
          twenties++;
        } else if (die > NATURAL_FAIL_MAX && die >= need) successes++;
        else fails++;
      }
      tally[0]! += fails;
      tally[1]! += successes;
      // The natural-20 mean is of a 0/1 quantity, so its sum of squares is its sum.
      tally[2]! += twenties;
      tally[3]! += twenties;
    },
  };
}

function injuryRollSimulator(s: D20WarbandScenario<'injury-roll' | 'fall'>): SimKernel {
  let add = s.modifier;
  if (s.kind === 'fall') {
    const fullInchesAbove = Math.floor(s.heightInches - FALL_FREE_INCHES);
    if (fullInchesAbove > 0) add += FALL_MODIFIER_PER_INCH * fullInchesAbove;
  }
  const lean = leanOf(s.advantage === true, s.disadvantage === true);
  return {
    run(rng, trials, tally) {
      let none = 0;
      let dazed = 0;
      let stunned = 0;
      let incapacitated = 0;
      for (let t = 0; t < trials; t++) {
        const total = rollD20(rng, lean) + add;
        if (total <= ROLL_NO_EFFECT_MAX) none++;
        else if (total <= ROLL_DAZED_MAX) dazed++;
        else if (total <= ROLL_STUNNED_MAX) stunned++;
        else incapacitated++;
      }
      tally[0]! += none;
      tally[1]! += dazed;
      tally[2]! += stunned;
      tally[3]! += incapacitated;
    },
  };
}

/** The target of attack actions, updated in place by an AttackAction: one per kernel, never reallocated. */
export interface ActionTarget {
  state: Severity;
  wounds: number;
  /** Attacks made on it so far. */
  made: number;
}

/** One attack action on the target as it is now, rolled die by die. */
export type AttackAction = (rng: Rng, target: ActionTarget) => void;

/**
 * The attack action the scenario's `attack` fields describe, resolved as the simulator's header says.
 * The `attack` kind makes one; `turns` makes one per turn, the target recovering in between.
 */
export function attackActionOf(s: D20WarbandScenario<'attack' | 'turns'>): AttackAction {
  const melee = s.attackType === 'melee';
  const attacks = s.attacks;
  const explode = s.explode === true;
  const advantage = s.advantage === true;
  const disadvantage = s.disadvantage === true;
  const modifier = s.modifier;
  const attackNeed = needOnDie(statValue(s.stat), modifier);
  // Pierce "reduces the opponent's Defence roll by 1" per point: the same as worsening the stat it must reach.
  const defenceStat = statValue(s.defence);
  const defenceImprovement = s.defenceModifier - modifierValue(s.pierce);
  const defenceNeed = needOnDie(defenceStat, defenceImprovement);
  const defenceRolls = !rollsNothing(defenceStat, defenceImprovement);
  const injuryAdd = modifierValue(s.injury) + (s.attackModifierToInjury === true ? modifier : 0);
  const changesAtOnce = s.injuryTiming !== 'end-of-action';
  const stunnedDefends = s.stunnedDefends !== false;
  const staggerPersists = s.staggerPersists !== false;
  // The attack roll's advantage by the injury the attacker sees (Dazed targets give advantage), looked up
  // rather than worked out for every die: this is the innermost loop of both d20 simulators.
  const attackLean = new Int8Array(INCAPACITATED + 1);
  for (let seen = NONE; seen <= INCAPACITATED; seen++) attackLean[seen] = leanOf(advantage || seen === DAZED, disadvantage);

  return (rng, target) => {
    const begin = target.state;
    let state = begin;
    let wounds = target.wounds;
    let made = target.made;
    // Staggered's disadvantage runs "until the end of the current turn", past a worse injury (by default).
    const staggeredThroughout = staggerPersists && begin === STAGGERED;
    let owed = attacks;
    while (owed > 0 && state !== INCAPACITATED) {
      owed--;
      made++;
      // Which injury the attacker sees: the one it has now, or the one it had when the action began.
      const seen = changesAtOnce ? state : begin;
      if (melee && seen === STUNNED) {
        state = INCAPACITATED; // attacked in melee while Stunned: no checks at all
        break;
      }
      const die = rollD20(rng, attackLean[seen]!);
      if (explode && die === NATURAL_SUCCESS) owed++; // critical hit: one more attack, resolved after this
      const hit = die === NATURAL_SUCCESS || (die > NATURAL_FAIL_MAX && die >= attackNeed);
      if (!hit) continue;
      let defended = false;
      if (defenceRolls && (melee || seen !== STUNNED || stunnedDefends)) {
        const d = rollD20(rng, seen === STAGGERED || staggeredThroughout ? -1 : 0);
        defended = d === NATURAL_SUCCESS || (d > NATURAL_FAIL_MAX && d >= defenceNeed);
      }
      if (defended) continue;
      if (melee && seen === DAZED) {
        state = INCAPACITATED;
        continue;
      }
      if (wounds > 0) {
        wounds--;
        if (wounds > 0) continue;
      }
      const value = die + injuryAdd;
      const injury = value <= CHECK_DAZED_MAX ? DAZED : value <= CHECK_STUNNED_MAX ? STUNNED : INCAPACITATED;
      if (injury > state) state = injury; // never less severe than what the target already has
    }
    target.state = state;
    target.wounds = wounds;
    target.made = made;
  };
}

function attackSimulator(s: D20WarbandScenario<'attack'>): SimKernel {
  const action = attackActionOf(s);
  const start = STATE_SEVERITY[s.state];
  const startWounds = s.wounds;
  const target: ActionTarget = { state: start, wounds: startWounds, made: 0 };
  // Tally layout: 6 outcomes, then sum and sum of squares of attacks made, then wounds-lost bins.
  const ATTACKS_SUM = 6;
  const LOST_BINS = 8;

  return {
    run(rng, trials, tally) {
      for (let t = 0; t < trials; t++) {
        target.state = start;
        target.wounds = startWounds;
        target.made = 0;
        action(rng, target);
        const { state, wounds, made } = target;
        const lost = startWounds - wounds;
        let outcome: number;
        if (state === INCAPACITATED) outcome = 5;
        else if (state === STUNNED) outcome = 4;
        else if (state === DAZED) outcome = 3;
        else if (state === STAGGERED) outcome = 2;
        else if (state === NONE && lost > 0) outcome = 1;
        else outcome = 0;
        tally[outcome]! += 1;
        tally[ATTACKS_SUM]! += made;
        tally[ATTACKS_SUM + 1]! += made * made;
        tally[LOST_BINS + lost]! += 1;
      }
    },
  };
}

export function d20WarbandSimulator(s: D20WarbandScenario<OneActionKind>): SimKernel {
  switch (s.kind) {
    case 'check':
      return checkSimulator(s);
    case 'attack':
      return attackSimulator(s);
    default:
      return injuryRollSimulator(s);
  }
}
