import { histogramOffset, meanOffset, tallyOffsets } from '../../model/tally.js';
import type { Dice, SimKernel } from '../../model/types.js';
import { attackLayout, attacksMadeMean, checkLayout, naturalTwentyMean } from './layout.js';
import type { D20WarbandScenario, OneActionKind } from './fields.js';
import type { D20WarbandRules } from './rule-spec.js';
import {
  DAZED,
  DIE_SIDES,
  INCAPACITATED,
  NONE,
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
 * path shows up in `check`. Every number comes from the scenario's rule table (`s.rules`): when a kernel is
 * built, it reads the table into small lookups by die face (does this die pass, is it a Critical Hit, which
 * injury does it make), so the loops look a die up and allocate nothing.
 */

/**
 * What a player needs on the die after modifiers. A "-" stat makes no roll at all (see `rollsNothing`);
 * improved, it reads dashFirstImproved (20 in the rules) for the first point and one less for each point
 * after (stats file, Stats with Dashes). The need can be any integer, even below 1, so "no roll" is a
 * separate flag, not a sentinel.
 */
function needOnDie(stat: number | null, improvement: number, rules: D20WarbandRules): number {
  if (stat === null) return rules.dashFirstImproved + 1 - improvement;
  return stat - improvement;
}

/**
 * For each face of the kept die (index 1-20), 1 if a check needing `need` passes on it: a face of
 * naturalSuccessMin or more always passes, one of naturalFailMax or less always fails, any other passes
 * when it reaches the need.
 */
function checkPassesByFace(need: number, rules: D20WarbandRules): Uint8Array {
  const passes = new Uint8Array(DIE_SIDES + 1);
  for (let face = 1; face <= DIE_SIDES; face++) {
    if (face >= rules.naturalSuccessMin) passes[face] = 1;
    else if (face <= rules.naturalFailMax) passes[face] = 0;
    else passes[face] = face >= need ? 1 : 0;
  }
  return passes;
}

function rollsNothing(stat: number | null, improvement: number): boolean {
  return stat === null && improvement <= 0;
}

/** One d20, or the better/worse of two: `lean` +1 advantage, -1 disadvantage, 0 neither (or both). */
function rollD20(rng: Dice, lean: number): number {
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
  const rules = s.rules;
  const stat = statValue(s.stat);
  const noRoll = rollsNothing(stat, s.modifier);
  const passesOn = checkPassesByFace(needOnDie(stat, s.modifier, rules), rules);
  // The reported mean: how often the kept die is a natural that always succeeds (naturalSuccessMin or more).
  const alwaysSucceeds = rules.naturalSuccessMin;
  const lean = leanOf(s.advantage === true, s.disadvantage === true);
  const layout = checkLayout(s);
  const failAt = tallyOffsets(layout).outcomes + layout.outcomes.indexOf('fail');
  const successAt = tallyOffsets(layout).outcomes + layout.outcomes.indexOf('success');
  const naturalsAt = meanOffset(layout, naturalTwentyMean(rules).id);
  return {
    run(rng, trials, tally) {
      if (noRoll) {
        tally[failAt]! += trials; // every check fails and no die is rolled, so no natural that always succeeds either
        return;
      }
      let successes = 0;
      let sureSuccesses = 0;
      for (let t = 0; t < trials; t++) {
        const die = rollD20(rng, lean);
        successes += passesOn[die]!;
        if (die >= alwaysSucceeds) sureSuccesses++;
      }
      tally[failAt]! += trials - successes;
      tally[successAt]! += successes;
      // The natural-20 mean (naturalSuccessMin or more) is of a 0/1 quantity, so its sum of squares is its sum.
      tally[naturalsAt]! += sureSuccesses;
      tally[naturalsAt + 1]! += sureSuccesses;
    },
  };
}

function injuryRollSimulator(s: D20WarbandScenario<'injury-roll' | 'fall'>): SimKernel {
  const rules = s.rules;
  let add = s.modifier;
  if (s.kind === 'fall') {
    // +modifierPerInch for every full inch fallen above freeInches (+2 above 2" in the rules).
    const { freeInches, modifierPerInch } = rules.fall;
    for (let inch = freeInches + 1; inch <= s.heightInches; inch++) add += modifierPerInch;
  }
  // The Injury Roll Table row of each face (0 no effect, 1 Dazed, 2 Stunned, 3 Incapacitated): a band
  // holds every total from its lowest up to the next band's.
  const table = rules.injuryRollTable;
  const rowOf = new Uint8Array(DIE_SIDES + 1);
  for (let face = 1; face <= DIE_SIDES; face++) {
    const total = face + add;
    rowOf[face] = total >= table.incapacitated ? 3 : total >= table.stunned ? 2 : total >= table.dazed ? 1 : 0;
  }
  const lean = leanOf(s.advantage === true, s.disadvantage === true);
  return {
    run(rng, trials, tally) {
      // The injury-roll layout's outcomes are the table's rows, in order, from the tally's start.
      for (let t = 0; t < trials; t++) tally[rowOf[rollD20(rng, lean)]!]! += 1;
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
export type AttackAction = (rng: Dice, target: ActionTarget) => void;

/**
 * The attack action the scenario's `attack` fields describe, resolved as the simulator's header says.
 * The `attack` kind makes one; `turns` makes one per turn, the target recovering in between.
 */
export function attackActionOf(s: D20WarbandScenario<'attack' | 'turns'>): AttackAction {
  const rules = s.rules;
  const melee = s.attackType === 'melee';
  const attacks = s.attacks;
  const explode = s.explode === true;
  const advantage = s.advantage === true;
  const disadvantage = s.disadvantage === true;
  const modifier = s.modifier;
  const attackNeed = needOnDie(statValue(s.stat), modifier, rules);
  // Pierce "reduces the opponent's Defence roll by 1" per point: the same as worsening the stat it must reach.
  const defenceStat = statValue(s.defence);
  const defenceImprovement = s.defenceModifier - modifierValue(s.pierce);
  const defended = checkPassesByFace(needOnDie(defenceStat, defenceImprovement, rules), rules);
  const defenceRolls = !rollsNothing(defenceStat, defenceImprovement);
  const injuryAdd = modifierValue(s.injury) + (s.attackModifierToInjury === true ? modifier : 0);
  // The attack die, face by face. A face of criticalHitMin or more is a Critical Hit: a hit whatever the
  // stat, and with explode one more attack owed. Any other face is a check like any other.
  const attackCheck = checkPassesByFace(attackNeed, rules);
  const hits = new Uint8Array(DIE_SIDES + 1);
  const owesAnother = new Uint8Array(DIE_SIDES + 1);
  // The Injury Check of a hit, by the attack die: the die plus Injury on the chart, each band from its
  // lowest total up (below Stunned, Dazed).
  const injuryOf = new Uint8Array(DIE_SIDES + 1);
  const chart = rules.injuryCheckTable;
  for (let face = 1; face <= DIE_SIDES; face++) {
    const critical = face >= rules.criticalHitMin;
    hits[face] = critical ? 1 : attackCheck[face]!;
    owesAnother[face] = critical && explode ? 1 : 0;
    const value = face + injuryAdd;
    injuryOf[face] = value >= chart.incapacitated ? INCAPACITATED : value >= chart.stunned ? STUNNED : DAZED;
  }
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
      owed += owesAnother[die]!; // critical hit: one more attack, resolved after this
      if (hits[die] === 0) continue;
      if (defenceRolls && (melee || seen !== STUNNED || stunnedDefends)) {
        if (defended[rollD20(rng, seen === STAGGERED || staggeredThroughout ? -1 : 0)] === 1) continue;
      }
      if (melee && seen === DAZED) {
        state = INCAPACITATED;
        continue;
      }
      if (wounds > 0) {
        wounds--;
        if (wounds > 0) continue;
      }
      const injury = injuryOf[die]! as Severity;
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
  // Where each part goes, from the layout's one owner (src/model/tally.ts); outcomes in ATTACK_OUTCOMES' order.
  const layout = attackLayout(s);
  const outcomesAt = tallyOffsets(layout).outcomes;
  const attacksAt = meanOffset(layout, attacksMadeMean.id);
  const lostAt = histogramOffset(layout, 'woundsLost');

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
        tally[outcomesAt + outcome]! += 1;
        tally[attacksAt]! += made;
        tally[attacksAt + 1]! += made * made;
        tally[lostAt + lost]! += 1;
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
