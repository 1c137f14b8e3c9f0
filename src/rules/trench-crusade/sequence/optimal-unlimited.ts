/**
 * The `optimal` blood-marker policy with unlimited attacks: the stationary spending that minimises the
 * expected attacks to Out of Action, by policy iteration over the unlimited chain (./chain.ts). The
 * search explores in doubles and takes an improvement only when it is clear in doubles or confirmed by
 * fractions (MARGIN), so it ends on a policy that is optimal exactly.
 *
 * A miss goes on to the next phase like any other result, except with a RISKY string (model.risky),
 * where it ends the activation: the chain goes to the next activation's start (phase 0), and the
 * string's other attacks, lost, count as attacks made (chain.ts's missNode and eliminateBlocks).
 */
import { type Fraction, ONE, ZERO, add, compare, fraction, mul } from '../../../exact/fraction.js';
import { solveUnlimited, unlimitedStart, type UnlimitedValues } from './chain.js';
import { type Option, injuryNext, injuryOptions } from './injury-options.js';
import {
  HIT,
  MISS,
  NO_EFFECT,
  OUT,
  type SequenceModel,
  blessingLeftOf,
  choiceBloodbath,
  choiceDice,
  downOf,
  fixedDecision,
  markersOf,
  stateIndex,
  toughLeftOf,
} from './model.js';
import { type PolicyTable, emptyPolicyTable, innerIndex, tableDecision } from './policy-table.js';

/** Relative gap below which an improvement found in doubles is confirmed exactly (values >= 1; see ./candidates.ts for the error argument). */
const MARGIN = 1e-9;

/** The optimal stationary policy: table row p holds the decisions for an attack after p others in the activation. */
export interface UnlimitedOptimal extends PolicyTable {
  /** Its expected attacks to Out of Action, from every state. */
  readonly values: UnlimitedValues;
  readonly phases: number;
  /** Policy-iteration rounds it took. */
  readonly iterations: number;
  readonly notes: string[];
}

const unlimitedCache = new WeakMap<SequenceModel, UnlimitedOptimal>();

/**
 * The stationary policy that minimises the expected attacks to Out of Action, by policy iteration:
 * evaluate the policy exactly (chain.ts), improve every decision that is strictly better against those
 * values, repeat until nothing improves. Improvements are found in doubles; a decision within a
 * relative MARGIN of the current value is only taken if exact arithmetic confirms it is strictly
 * better, so the loop ends with a policy that satisfies Bellman's equation exactly, which for this
 * kind of chain (every step costs one attack) makes it optimal.
 */
export function optimalUnlimited(model: SequenceModel, limit: number): UnlimitedOptimal {
  const hit = unlimitedCache.get(model);
  if (hit && hit.values.limit === limit) return hit;
  const phases = model.perActivation > 0 ? model.perActivation : 1;
  const wrapStands = model.perActivation > 0;
  const stride = (limit + 1) * 8;
  const start = unlimitedStart(model, limit);
  const tl0 = toughLeftOf(start);
  const bl0 = blessingLeftOf(start);
  const table = emptyPolicyTable(phases, stride);
  const { attack, inner } = table;
  const notes: string[] = [];

  // Start from `all`, or `bloodbath` if only it makes Out of Action certain.
  const seed = (policy: 'all' | 'bloodbath') => {
    const m = { ...model, policy };
    for (let p = 0; p < phases; p++)
      for (let idx = 0; idx < stride; idx++) {
        const dcs = fixedDecision(m, idx);
        attack[p * stride + idx] = dcs.a;
        const left = stateIndex(markersOf(idx) - dcs.a, downOf(idx), toughLeftOf(idx), blessingLeftOf(idx));
        inner[innerIndex(stride, p, left, 0)] = dcs.hit;
        inner[innerIndex(stride, p, left, 1)] = dcs.crit;
      }
  };
  const decide = (idx: number, p: number) => tableDecision(table, p, idx);
  // Whether a value is infinite is decided on the transition graph, exactly, in either precision.
  seed('all');
  let values = solveUnlimited(model, limit, decide, 'approx');
  if (!Number.isFinite(values.approx(start, 0)) && model.bloodbathAllowed) {
    seed('bloodbath');
    values = solveUnlimited(model, limit, decide, 'approx');
  }
  const nextNode = (y: number, p: number) => (p + 1 < phases ? { idx: y, p: p + 1 } : { idx: wrapStands ? model.activationStart(y) : y, p: 0 });
  const hApprox = (y: number, p: number) => {
    const to = nextNode(y, p);
    return values.approx(to.idx, to.p);
  };
  const hExact = (y: number, p: number): Fraction | undefined => {
    const to = nextNode(y, p);
    return values.value(to.idx, to.p);
  };
  // After a miss at phase p: as after any other result, or, ending a RISKY string, the attacks it loses
  // (phases - 1 - p) and then the next activation from its start.
  const missStart = (y: number) => (wrapStands ? model.activationStart(y) : y);
  const missApprox = (y: number, p: number): number => (model.risky ? phases - 1 - p + values.approx(missStart(y), 0) : hApprox(y, p));
  const missExact = (y: number, p: number): Fraction | undefined => {
    if (!model.risky) return hExact(y, p);
    const h = values.value(missStart(y), 0);
    return h && add(h, fraction(BigInt(phases - 1 - p), 1n));
  };

  // First explore in doubles (cheap evaluations, improvements taken only when clearly better), then
  // confirm in exact arithmetic; the exact rounds usually find nothing more to improve.
  let exactRounds = false;
  let iterations = 1;
  for (; iterations < 200; iterations++) {
    let improved = false;
    for (let p = 0; p < phases; p++) {
      // Injury choices: minimise the expected attacks still to come after the roll.
      const innerVal = new Float64Array(stride * 2);
      for (let m = 0; m <= limit; m++)
        for (let d = 0; d < 2; d++)
          for (let tl = 0; tl <= tl0; tl++)
            for (let bl = 0; bl <= bl0; bl++)
              for (let crit = 0; crit < 2; crit++) {
                const key = innerIndex(stride, p, stateIndex(m, d, tl, bl), crit);
                const opts = injuryOptions(model, m, d, bl, crit);
                const val = (opt: Option) => {
                  const next = injuryNext(model, limit, m - opt.cost, d, tl);
                  let v = 0;
                  for (let o = NO_EFFECT; o <= OUT; o++) if (opt.row.p[o] !== 0 && next[o]! >= 0) v += opt.row.p[o]! * hApprox(next[o]!, p);
                  return v;
                };
                const exactVal = (opt: Option): Fraction | undefined => {
                  const next = injuryNext(model, limit, m - opt.cost, d, tl);
                  let v = ZERO;
                  for (let o = NO_EFFECT; o <= OUT; o++) {
                    if (opt.row.w[o] === 0n || next[o]! < 0) continue;
                    const h = hExact(next[o]!, p);
                    if (!h) return undefined;
                    v = add(v, mul(fraction(opt.row.w[o]!, opt.row.den), h));
                  }
                  return v;
                };
                const current = opts.find((o) => o.code === inner[key]) ?? opts[0]!;
                const curVal = val(current);
                let best = current;
                let bestVal = curVal;
                for (const opt of opts) {
                  const v = val(opt);
                  if (v < bestVal) (best = opt), (bestVal = v);
                }
                innerVal[key - p * stride * 2] = curVal;
                if (best === current) continue;
                const margin = MARGIN * Math.max(1, Math.abs(curVal));
                if (bestVal < curVal - margin) {
                  inner[key] = best.code;
                  innerVal[key - p * stride * 2] = bestVal;
                  improved = true;
                  continue;
                }
                // Near tie: switch only on an exact strict improvement (not while exploring in doubles).
                if (!exactRounds) continue;
                const curExact = exactVal(current);
                for (const opt of opts) {
                  if (opt === current || val(opt) > curVal + margin) continue;
                  const v = exactVal(opt);
                  if (v && (!curExact || compare(v, curExact) < 0)) {
                    inner[key] = opt.code;
                    improved = true;
                    break;
                  }
                }
              }
      // Markers on the attack roll.
      for (let idx = 0; idx < stride; idx++) {
        if (toughLeftOf(idx) > tl0 || blessingLeftOf(idx) > bl0) continue;
        if (wrapStands && p === 0 && downOf(idx) === 1 && idx !== start) continue;
        const m = markersOf(idx);
        const maxA = Math.min(model.attackRollMarkers, m);
        if (maxA === 0) continue;
        const d = downOf(idx);
        const tl = toughLeftOf(idx);
        const bl = blessingLeftOf(idx);
        const q = (a: number) => {
          const sr = model.successRow(a);
          const left = stateIndex(m - a, d, tl, bl);
          let v = 1;
          if (sr.p[MISS] !== 0) v += sr.p[MISS]! * missApprox(left, p);
          for (let c = 0; c < 2; c++) if (sr.p[HIT + c] !== 0) v += sr.p[HIT + c]! * innerVal[left * 2 + c]!;
          return v;
        };
        const cur = attack[p * stride + idx]!;
        const curQ = q(cur);
        let bestA = cur;
        let bestQ = curQ;
        for (let a = 0; a <= maxA; a++) {
          const v = q(a);
          if (v < bestQ) (bestA = a), (bestQ = v);
        }
        if (bestA === cur) continue;
        const margin = MARGIN * Math.max(1, Math.abs(curQ));
        if (bestQ < curQ - margin) {
          attack[p * stride + idx] = bestA;
          improved = true;
          continue;
        }
        if (!exactRounds) continue;
        const curExact = values.value(idx, p);
        for (let a = 0; a <= maxA; a++) {
          if (a === cur || q(a) > curQ + margin) continue;
          const v = exactAttackValue(model, limit, a, m, d, tl, bl, p, table, hExact, missExact);
          if (v && (!curExact || compare(v, curExact) < 0)) {
            attack[p * stride + idx] = a;
            improved = true;
            break;
          }
        }
      }
    }
    if (!improved) {
      if (exactRounds) break;
      exactRounds = true;
    }
    values = solveUnlimited(model, limit, decide, exactRounds ? 'exact' : 'approx');
  }
  if (!values.value(start, 0)) notes.push('Unlimited attacks: no spending rule makes Out of Action certain from the start, so the expected attacks are infinite');
  const result: UnlimitedOptimal = { ...table, values, phases, iterations, notes };
  unlimitedCache.set(model, result);
  return result;
}

/**
 * Exact expected attacks from (m, d, tl, bl) at phase p when a markers go on the attack roll and the
 * table makes the injury choices; undefined if infinite. hExact: the expected attacks after a result
 * (next phase), missExact: after a miss (the same, or the next activation for a RISKY string).
 */
function exactAttackValue(
  model: SequenceModel,
  limit: number,
  a: number,
  m: number,
  d: number,
  tl: number,
  bl: number,
  p: number,
  table: PolicyTable,
  hExact: (y: number, p: number) => Fraction | undefined,
  missExact: (y: number, p: number) => Fraction | undefined,
): Fraction | undefined {
  const sr = model.successRow(a);
  const left = stateIndex(m - a, d, tl, bl);
  let v = ONE;
  if (sr.w[MISS] !== 0n) {
    const h = missExact(left, p);
    if (!h) return undefined;
    v = add(v, mul(fraction(sr.w[MISS]!, sr.den), h));
  }
  const blessingSpent = bl === 1 ? model.blessingMarkers : 0;
  for (let c = 0; c < 2; c++) {
    if (sr.w[HIT + c] === 0n) continue;
    const code = table.inner[innerIndex(table.stride, p, left, c)]!;
    const bb = choiceBloodbath(code);
    const cost = choiceDice(code) + (bb ? model.bloodbathCost(d) : 0);
    const row = model.injuryRow(c, d, bb, choiceDice(code), blessingSpent);
    const next = injuryNext(model, limit, m - a - cost, d, tl);
    let iv = ZERO;
    for (let o = NO_EFFECT; o <= OUT; o++) {
      if (row.w[o] === 0n || next[o]! < 0) continue;
      const h = hExact(next[o]!, p);
      if (!h) return undefined;
      iv = add(iv, mul(fraction(row.w[o]!, row.den), h));
    }
    v = add(v, mul(fraction(sr.w[HIT + c]!, sr.den), iv));
  }
  return v;
}
