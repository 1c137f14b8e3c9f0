/**
 * The exact side of a sequence of attacks: the target's state, the attacker's decisions, and the exact
 * transition of one attack. The single-roll code (../exact.ts) decides what each roll is (dice, modifier,
 * edition rules) so that a one-attack sequence is the `attack` kind by construction; the kept-dice sums
 * come from src/exact/keep.ts because hoarding policies can roll pools of a hundred dice.
 */
import type { Dist } from '../../../exact/dist.js';
import { toNumber } from '../../../exact/fraction.js';
import { attackDiceOf, planInjuryRoll, successRollDist, type InjuryRollInput } from '../exact.js';
import type { TrenchCrusadeScenario } from '../fields.js';
import { extraMarkersPerRoll } from '../tables.js';
import type { TrenchCrusadeRules } from '../rule-spec.js';
import { keptSumCounts, keptSumCountsWithTopFace } from '../../../exact/keep.js';
import {
  attacksPerActivationOf,
  bloodbathCost,
  markerCapOf,
  markersByRow,
  mostMarkersPlaced,
  riskyStrings,
  type BlessingPolicy,
  type Policy,
} from './rules.js';

/** A row of exact weights over a denominator, with the probabilities as doubles for the float DP. */
export interface Row {
  readonly w: readonly bigint[];
  /** Always a power of six: den = 6^exp. */
  readonly den: bigint;
  readonly exp: number;
  readonly p: Float64Array;
}

function makeRow(w: bigint[], den: bigint): Row {
  const p = new Float64Array(w.length);
  for (let i = 0; i < w.length; i++) p[i] = toNumber({ num: w[i]!, den });
  let exp = 0;
  for (let d = den; d > 1n; d /= 6n) {
    if (d % 6n !== 0n) throw new Error('internal: a roll denominator that is not a power of 6');
    exp++;
  }
  return { w, den, exp, p };
}

/** A success roll's row: miss, hit, critical (MISS, HIT, CRIT). */
export function successRowOf(dist: Dist<'miss' | 'hit' | 'critical'>): Row {
  return makeRow([dist.weight('miss'), dist.weight('hit'), dist.weight('critical')], dist.total);
}

export const ABSORBED = -1;
/** Injury table rows, in the order of Row.w for an injury roll. */
export const NO_EFFECT = 0;
export const MINOR = 1;
export const DOWN = 2;
export const OUT = 3;
/** Success roll rows. */
export const MISS = 0;
export const HIT = 1;
export const CRIT = 2;

/**
 * The target's state between attacks, packed into one index: markers m, Down d, Tough still to save it
 * tl, blessing markers still held bl. idx = ((m * 2 + d) * 2 + tl) * 2 + bl.
 */
export const stateIndex = (m: number, d: number, tl: number, bl: number): number => ((m * 2 + d) * 2 + tl) * 2 + bl;
export const markersOf = (idx: number): number => idx >> 3;
export const downOf = (idx: number): number => (idx >> 2) & 1;
export const toughLeftOf = (idx: number): number => (idx >> 1) & 1;
export const blessingLeftOf = (idx: number): number => idx & 1;
export const standUp = (idx: number): number => idx & ~4;

/**
 * The attacker's choice on an injury roll, packed: s markers as +1 injury dice each, and whether to pay
 * for a Bloodbath. code = s * 2 + bloodbath.
 */
export const choiceCode = (s: number, bloodbath: boolean): number => s * 2 + (bloodbath ? 1 : 0);
export const choiceDice = (code: number): number => code >> 1;
export const choiceBloodbath = (code: number): boolean => (code & 1) === 1;

/** One attack's decisions: markers on the attack roll, then the injury choice on a hit and on a critical. */
export interface Decision {
  readonly a: number;
  readonly hit: number;
  readonly crit: number;
}

export interface SequenceModel {
  readonly scenario: SequenceScenario;
  /** The rule table every number comes from. */
  readonly rules: TrenchCrusadeRules;
  readonly policy: Policy;
  readonly blessingPolicy: BlessingPolicy;
  readonly attacks: number;
  /** Attacks per activation; 0 when the sequence is one activation. */
  readonly perActivation: number;
  /** A miss ends the rest of the activation (a RISKY string: riskyStrings). */
  readonly risky: boolean;
  /**
   * The state a new activation of the attacker starts in: between activations the target has had its
   * own, standing up and removing its REGENERATE markers.
   */
  activationStart(idx: number): number;
  readonly startMarkers: number;
  readonly blessingMarkers: number;
  /** Markers a model can carry (Infinity: no cap). */
  readonly cap: number;
  /** Most markers on one attack roll (playtest). */
  readonly attackRollMarkers: number;
  readonly bloodbathAllowed: boolean;
  /** The state the sequence starts in. */
  readonly start: number;
  /** Most markers the finite chain can see: min(cap, start + P N), P the most one result places (2). */
  readonly maxMarkers: number;
  /** The most markers one injury roll places (a result's and the weapon's FIRE, GAS, SHRAPNEL). */
  readonly mostPlaced: number;
  /** Markers each injury-table row places on a target not Down (index 0) or Down (index 1), the weapon's FIRE, GAS and SHRAPNEL included. */
  readonly placed: readonly (readonly [number, number, number, number])[];
  successRow(a: number): Row;
  /** Injury roll on a hit (crit 0) or critical (crit 1) against a target Down or not, with the attacker's choice and the blessing markers spent. */
  injuryRow(crit: number, down: number, bloodbath: boolean, dice: number, blessingSpent: number): Row;
  /** Markers a Bloodbath costs in this state (Infinity if the edition has none). */
  bloodbathCost(down: number): number;
  /** The ledge the target fights by (a duel side's, ruling D9); absent for none. */
  readonly ledge?: LedgeRows;
  /**
   * What the target's one save makes of an Out of Action (the state's "Tough left"): Tough's Down, or the
   * first Out of Action's No Effect (firstOutOfActionNoEffect, ruling T28), which leaves it as it stood.
   */
  readonly saveIsNoEffect: boolean;
}

/**
 * A target fighting by a ledge (core: "Take a Success Roll for the model before it is taken Down ... If
 * the roll is a Failure, the model Falls from the nearest ledge and is then taken Down"): the success
 * roll's weights, and the fall's injury roll as a table row (STANDFAST and GOLEM read into it; Tough is
 * the state's). Only a standing target is taken Down, so only a Down result on one rolls (ruling D9).
 */
export interface LedgeRows {
  /** The plain success roll: weights of passing and failing over rollDen. */
  readonly pass: bigint;
  readonly fail: bigint;
  readonly rollDen: bigint;
  /** The fall's injury roll: no effect, minor hit, down, out of action. */
  readonly fall: Row;
}

/** An injury roll's outcomes as a table row (no effect, minor hit, down, out of action). */
export function injuryRowOf(dist: Dist<'no-effect' | 'minor-hit' | 'down' | 'out-of-action'>): Row {
  return makeRow([dist.weight('no-effect'), dist.weight('minor-hit'), dist.weight('down'), dist.weight('out-of-action')], dist.total);
}

export type SequenceScenario = TrenchCrusadeScenario<'sequence'>;

/**
 * The injury roll of one state of a sequence, with no markers spent (the chain adds them to the net
 * dice one for one): the scenario's weapon and target, and the state's Bloodbath and Down.
 */
export function sequenceInjuryInput(
  s: SequenceScenario,
  state: { readonly bloodbath: boolean; readonly targetDown: boolean; readonly toughSaves: boolean },
): InjuryRollInput {
  return {
    rules: s.rules,
    fallInches: undefined,
    attackType: s.attackType,
    injuryDice: s.injuryDice,
    targetInjuryDice: s.targetInjuryDice,
    markerDice: 0,
    criticalInjuryDice: s.criticalInjuryDice,
    injuryModifier: s.injuryModifier,
    targetInjuryModifier: s.targetInjuryModifier,
    armour: s.armour,
    shield: s.shield,
    ignoreArmour: s.ignoreArmour,
    ignoreArmourOnCritical: s.ignoreArmourOnCritical,
    armourPiercing: s.armourPiercing,
    impervious: s.impervious,
    armourWhenIgnored: s.armourWhenIgnored,
    modifierCap: s.modifierCap,
    bloodbath: state.bloodbath,
    bloodbathDie: s.bloodbathDie,
    deadly: s.deadly,
    deadlyBloodbathKeep: s.deadlyBloodbathKeep,
    targetDown: state.targetDown,
    saveIsNoEffect: s.firstOutOfActionNoEffect,
    ignoreArmourIfDown: s.ignoreArmourIfDown,
    injuryDiceIfDown: s.injuryDiceIfDown,
    coverInjuryDice: s.targetInCover ? s.injuryDiceInCover : 0,
    downBonus: s.downBonus,
    toughSaves: state.toughSaves,
    minorAsDown: s.minorAsDown,
    sixAgainstArmoured: s.sixAgainstArmoured,
    downBecomesMinor: s.downBecomesMinor,
    golem: s.golem,
  };
}

/** The sequence's exact model. Cheap to build; rows are computed on first use and cached. */
export function buildModel(s: SequenceScenario): SequenceModel {
  const rules = s.rules;
  const attacks = s.attacks;
  const startMarkers = s.bloodMarkers;
  const cap = markerCapOf(s.markerCap);
  const blessingPolicy = s.blessingPolicy;
  const blessingMarkers = s.blessingMarkers;
  const bloodbathAllowed = rules.bloodbath.available;
  // The one save of an Out of Action: Tough's, or the first Out of Action's No Effect (never both: system.ts).
  const toughLeft = (s.tough === true || s.firstOutOfActionNoEffect === true) && s.toughUsed !== true ? 1 : 0;
  const blessingLeft = blessingPolicy === 'all' && blessingMarkers > 0 ? 1 : 0;
  const extra = extraMarkersPerRoll(s);
  // The weapon's multiplier of a result's own markers (ruling T36).
  const times = s.bloodMarkersMultiplier;

  const successRows = new Map<number, Row>();
  const injuryRows = new Map<string, Row>();
  // The plan of each roll with no markers spent; markers add to its net dice one for one.
  const plans = new Map<string, ReturnType<typeof planInjuryRoll>>();
  const planFor = (crit: number, down: number, bloodbath: boolean) => {
    const key = `${crit}${down}${bloodbath ? 1 : 0}`;
    let plan = plans.get(key);
    if (!plan) {
      // Tough is tracked by the chain's state, not by the roll.
      plan = planInjuryRoll(sequenceInjuryInput(s, { bloodbath, targetDown: down === 1, toughSaves: false }), crit === 1);
      plans.set(key, plan);
    }
    return plan;
  };

  return {
    scenario: s,
    rules,
    policy: s.policy,
    blessingPolicy,
    attacks,
    perActivation: attacksPerActivationOf(s.attacksPerActivation),
    risky: riskyStrings(s),
    activationStart: (idx) => {
      const m = markersOf(idx);
      return s.regenerate === 0 || m === 0 ? standUp(idx) : stateIndex(Math.max(0, m - s.regenerate), 0, toughLeftOf(idx), blessingLeftOf(idx));
    },
    startMarkers,
    blessingMarkers,
    cap,
    attackRollMarkers: s.attackRollMarkers,
    bloodbathAllowed,
    start: stateIndex(startMarkers, s.targetDown === true ? 1 : 0, toughLeft, blessingLeft),
    maxMarkers: Math.min(cap, startMarkers + mostMarkersPlaced(rules, extra, times) * attacks),
    mostPlaced: mostMarkersPlaced(rules, extra, times),
    placed: [markersByRow(rules, 0, extra, times), markersByRow(rules, 1, extra, times)],
    saveIsNoEffect: s.firstOutOfActionNoEffect === true,
    successRow(a) {
      let row = successRows.get(a);
      if (!row) {
        row = successRowOf(successRollDist(attackDiceOf(s) + a * rules.markers.attackDicePerMarker, s.attackModifier, rules.successRoll, s.criticalOn, s.autoHit, s.criticalThreshold, s.rerollFailedSuccess));
        successRows.set(a, row);
      }
      return row;
    },
    injuryRow(crit, down, bloodbath, dice, blessingSpent) {
      const plan = planFor(crit, down, bloodbath);
      // Markers become dice at the table's rate (one each in the rules).
      const net = plan.netDice + dice * rules.markers.injuryDicePerMarker - blessingSpent * rules.blessings.injuryDicePerMarker;
      // The modifier is part of the key: a critical that ignores armour has its own.
      const key = `${plan.baseDice}/${plan.extraD6}/${net}/${plan.modifier}/${plan.golemSaves ? 1 : 0}/${plan.minorAsDown ? 1 : 0}/${plan.sixAside ? 1 : 0}`;
      let row = injuryRows.get(key);
      if (!row) {
        row = injuryTableRow(plan.baseDice + Math.abs(net), plan.baseDice, net < 0, plan.extraD6, plan.modifier, rules.injuryTable, plan.minorAsDown, plan.downBecomesMinor, plan.golemSaves, plan.sixAside);
        injuryRows.set(key, row);
      }
      return row;
    },
    bloodbathCost: (down) => bloodbathCost(rules, down === 1),
  };
}

/** Injury-table row of a roll: kept sum (plus extra D6s) plus modifier, before Tough. */
function injuryTableRow(pool: number, keep: number, lowest: boolean, extraD6: number, modifier: number, table: TrenchCrusadeRules['injuryTable'], minorAsDown: boolean, downBecomesMinor: boolean, golemSaves: boolean, sixAside: boolean): Row {
  // A die put aside as a 6 (sixAgainstArmoured) is in the pool but not rolled.
  let sums = sixAside ? keptSumCountsWithTopFace(pool, keep, lowest) : keptSumCounts(pool, keep, lowest);
  let den = 6n ** BigInt(sixAside ? pool - 1 : pool);
  for (let i = 0; i < extraD6; i++) {
    const wider = new Array<bigint>(sums.length + 6).fill(0n);
    sums.forEach((w, t) => {
      for (let f = 1; f <= 6; f++) wider[t + f]! += w;
    });
    sums = wider;
    den *= 6n;
  }
  const w = [0n, 0n, 0n, 0n];
  sums.forEach((weight, t) => {
    const total = t + modifier;
    // STANDFAST turns the table's Down into a Minor Hit; Tough's Down (from OUT) is the chain's to make.
    // GOLEM outside a Bloodbath: Out of Action is a Down (a rule's Down, which STANDFAST leaves alone).
    // The weapon's Minor Hit as a Down (minorAsDown) comes first, and STANDFAST then reads that Down too (ruling T33).
    const down = downBecomesMinor ? MINOR : DOWN;
    const minor = minorAsDown ? down : MINOR;
    const out = golemSaves ? DOWN : OUT;
    w[total < table.minorHit ? NO_EFFECT : total < table.down ? minor : total < table.outOfAction ? down : out]! += weight;
  });
  return makeRow(w, den);
}

/** One exact transition: weights over `den` for each next state (ABSORBED: out of action). */
export interface Transition {
  readonly next: readonly number[];
  readonly w: readonly bigint[];
  readonly den: bigint;
  /** Sum over outcomes of weight x markers the attacker spent, over den. */
  readonly spent: bigint;
  /** Did the cap take away markers a possible result placed? */
  readonly capped: boolean;
  /**
   * With a RISKY string (riskyStrings), a miss ends the activation: its state and weight (over den)
   * are kept here, out of next and w, so the chain can skip the rest of the string. Absent otherwise.
   */
  readonly miss?: { readonly next: number; readonly w: bigint };
}

/**
 * The exact transition of one attack from state `idx` (after any standing up) under `decision`, with
 * markers above `cap` lost. Spent markers leave the target; blessing markers are all spent on the first
 * injury roll when the target's policy is `all`.
 */
export function transition(model: SequenceModel, idx: number, decision: Decision, cap: number): Transition {
  const m = markersOf(idx);
  const d = downOf(idx);
  const tl = toughLeftOf(idx);
  const bl = blessingLeftOf(idx);
  const m1 = m - decision.a;
  const success = model.successRow(decision.a);
  // A standing target by a ledge splits each Down into the ledge's rolls: every weight gains their denominator.
  const ledge = d === 0 ? model.ledge : undefined;
  const ledgeDen = ledge ? ledge.rollDen * ledge.fall.den : 1n;
  const blessingSpent = bl === 1 ? model.blessingMarkers : 0;
  const rows: (Row | undefined)[] = [undefined, undefined];
  const codes = [decision.hit, decision.crit];
  let common = 1n;
  for (let c = 0; c < 2; c++) {
    if (success.w[HIT + c] === 0n) continue;
    const code = codes[c]!;
    rows[c] = model.injuryRow(c, d, choiceBloodbath(code), choiceDice(code), blessingSpent);
    common = lcmPow(common, rows[c]!.den);
  }
  const out = new Map<number, bigint>();
  const putScaled = (next: number, w: bigint) => {
    if (w !== 0n) out.set(next, (out.get(next) ?? 0n) + w);
  };
  const put = (next: number, w: bigint) => putScaled(next, w * ledgeDen);
  let capped = false;
  const placeMarkers = (m2: number, placed: number, w: bigint): number => {
    if (m2 + placed > cap && w !== 0n) capped = true;
    return Math.min(m2 + placed, cap);
  };
  const missNext = stateIndex(m1, d, tl, bl);
  const missW = success.w[MISS]! * common * ledgeDen;
  if (!model.risky) putScaled(missNext, missW);
  let spent = BigInt(decision.a) * success.den * common * ledgeDen;
  /**
   * The standing target taken Down (a Down result, or Tough's save) with m2 markers on it, Tough left
   * tl2, weight w: by a ledge, the success roll, and on a failure the fall's result in full, then the
   * Down in full on the model as the fall left it (ruling D9).
   */
  const takenDown = (m2: number, tl2: number, w: bigint) => {
    const downMarkers = model.placed[0]![DOWN];
    if (!ledge) return put(stateIndex(placeMarkers(m2, downMarkers, w), 1, tl2, 0), w);
    const fall = ledge.fall;
    const againMarkers = model.placed[1]![DOWN];
    const rules = model.rules.markers;
    const stayed = w * (ledge.pass * fall.den + ledge.fail * fall.w[NO_EFFECT]!);
    putScaled(stateIndex(placeMarkers(m2, downMarkers, stayed), 1, tl2, 0), stayed);
    const fell = w * ledge.fail;
    const minor = fell * fall.w[MINOR]!;
    putScaled(stateIndex(placeMarkers(placeMarkers(m2, rules.minorHit, minor), downMarkers, minor), 1, tl2, 0), minor);
    const down = fell * fall.w[DOWN]!;
    putScaled(stateIndex(placeMarkers(placeMarkers(m2, rules.down, down), againMarkers, down), 1, tl2, 0), down);
    // Out of Action from the fall: Tough, if still there, makes it a Down in full; the first Out of
    // Action's No Effect makes the fall a No Effect, and the Down it fell into follows in full.
    const out = fell * fall.w[OUT]!;
    const savedFall = model.saveIsNoEffect ? placeMarkers(m2, downMarkers, out) : placeMarkers(placeMarkers(m2, rules.down, out), againMarkers, out);
    putScaled(tl2 === 1 ? stateIndex(savedFall, 1, 0, 0) : ABSORBED, out);
  };
  for (let c = 0; c < 2; c++) {
    const row = rows[c];
    if (!row) continue;
    const code = codes[c]!;
    const cost = (choiceBloodbath(code) ? model.bloodbathCost(d) : 0) + choiceDice(code);
    const m2 = m1 - cost;
    const scale = success.w[HIT + c]! * (common / row.den);
    spent += BigInt(cost) * scale * row.den * ledgeDen;
    const placed = model.placed[d]!;
    // Every row the target survives also gets the weapon's FIRE, GAS and SHRAPNEL markers (in `placed`).
    put(stateIndex(placeMarkers(m2, placed[NO_EFFECT], row.w[NO_EFFECT]!), d, tl, 0), row.w[NO_EFFECT]! * scale);
    put(stateIndex(placeMarkers(m2, placed[MINOR], row.w[MINOR]!), d, tl, 0), row.w[MINOR]! * scale);
    // Tough: the first Out of Action is a Down result in full, markers and all (004_…: "apply the
    // appropriate Result from the Injury Roll Table in full").
    const out = row.w[OUT]!;
    if (tl === 1 && model.saveIsNoEffect) {
      // The first Out of Action is a No Effect result in full: the weapon's markers, and it stays as it was.
      put(stateIndex(placeMarkers(m2, placed[NO_EFFECT], out), d, 0, 0), out * scale);
      if (d === 0) takenDown(m2, tl, row.w[DOWN]! * scale);
      else put(stateIndex(placeMarkers(m2, placed[DOWN], row.w[DOWN]!), 1, tl, 0), row.w[DOWN]! * scale);
    } else if (d === 0) {
      takenDown(m2, tl, row.w[DOWN]! * scale);
      if (tl === 1) takenDown(m2, 0, out * scale);
      else put(ABSORBED, out * scale);
    } else {
      put(stateIndex(placeMarkers(m2, placed[DOWN], row.w[DOWN]!), 1, tl, 0), row.w[DOWN]! * scale);
      put(tl === 1 ? stateIndex(placeMarkers(m2, placed[DOWN], out), 1, 0, 0) : ABSORBED, out * scale);
    }
  }
  // Blessing markers only go when an injury roll is made: a miss keeps them (the miss entry above uses
  // bl), an injury roll spends them all (bl is only ever 1 under the blessing policy `all`).
  const next = [...out.keys()];
  return {
    next,
    w: next.map((k) => out.get(k)!),
    den: success.den * common * ledgeDen,
    spent,
    capped,
    ...(model.risky && missW !== 0n ? { miss: { next: missNext, w: missW } } : {}),
  };
}

/** lcm of two denominators that are both powers of 6 (asserted), i.e. the larger one. */
function lcmPow(a: bigint, b: bigint): bigint {
  const [small, big] = a < b ? [a, b] : [b, a];
  if (big % small !== 0n) throw new Error('internal: denominators are not powers of 6');
  return big;
}

/** The decision a fixed policy makes in a state (after standing up); `optimal` has tables instead. */
export function fixedDecision(model: SequenceModel, idx: number): Decision {
  const m = markersOf(idx);
  const d = downOf(idx);
  const a = Math.min(model.attackRollMarkers, m);
  const left = m - a;
  switch (model.policy) {
    case 'all':
      return { a, hit: choiceCode(left, false), crit: choiceCode(left, false) };
    case 'bloodbath': {
      const code = left >= model.bloodbathCost(d) ? choiceCode(0, true) : choiceCode(0, false);
      return { a, hit: code, crit: code };
    }
    default:
      return { a, hit: 0, crit: 0 };
  }
}
