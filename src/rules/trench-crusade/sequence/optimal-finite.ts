/**
 * The `optimal` blood-marker policy for the N attacks of a sequence: the spending that maximises the
 * chance of Out of Action within them, by dynamic programming backwards over the attacks left, state by
 * state (markers, Down, Tough left, blessing left). The search runs in doubles and settles in exact
 * arithmetic every choice the doubles cannot make (./candidates.ts).
 *
 * A miss goes on to the next attack with one attack fewer left, except with a RISKY string (model.risky),
 * where it ends the string, which is the activation: the next attack is the first of the next activation,
 * with the string's other attacks lost (missLeft), so every table of survival chances is kept.
 */
import { type Pow6, P6_ONE, P6_ZERO, p6Add, p6Scale } from '../../../exact/pow6.js';
import { Candidates } from './candidates.js';
import { standsUpBefore } from './chain.js';
import { type Option, injuryNext, injuryOptions } from './injury-options.js';
import {
  DOWN,
  HIT,
  MINOR,
  MISS,
  NO_EFFECT,
  OUT,
  type Decision,
  type SequenceModel,
  blessingLeftOf,
  downOf,
  markersOf,
  stateIndex,
  toughLeftOf,
} from './model.js';
import { type PolicyTable, emptyPolicyTable, innerIndex, tableDecision } from './policy-table.js';

/** The optimal policy of a finite sequence: table row k holds the decisions with k attacks left. */
export interface FiniteOptimal extends PolicyTable {
  /** The decision with k attacks left in state idx (after standing up). */
  decide(k: number, idx: number): Decision;
}

const cache = new WeakMap<SequenceModel, FiniteOptimal>();

/**
 * The policy that maximises P(Out of Action within N attacks), i.e. minimises the chance the target
 * survives them. The DP works on that survival chance W rather than on 1 - W: it is a sum of products of
 * non-negative numbers, so its doubles carry a small *relative* error (under 1e-13 after fifty stages)
 * even when W is tiny, which is where a hoarding attacker's options differ.
 */
export function optimalFinite(model: SequenceModel): FiniteOptimal {
  const hit = cache.get(model);
  if (hit) return hit;
  const n = model.attacks;
  const cap = model.cap;
  const maxM = model.maxMarkers;
  const stride = (maxM + 1) * 8;
  const table = emptyPolicyTable(n + 1, stride);
  const { attack, inner } = table;
  const tl0 = toughLeftOf(model.start);
  const bl0 = blessingLeftOf(model.start);
  // Survival chance with k attacks left (row k; before standing up), and whether Out of Action /
  // survival are possible at all. Row 0: the attacks are over, the target survived.
  const wRows: Float64Array[] = [new Float64Array(stride).fill(1)];
  const outRows: Uint8Array[] = [new Uint8Array(stride)];
  const survRows: Uint8Array[] = [new Uint8Array(stride).fill(1)];
  const missLeft = (k: number): number => missAttacksLeft(model, k);
  const exactMemo: Map<number, Pow6>[] = [new Map()];
  const optionCache = new Map<number, Option[]>();
  const optionsFor = (m: number, d: number, bl: number, crit: number): Option[] => {
    const key = ((m * 2 + d) * 2 + bl) * 2 + crit;
    let opts = optionCache.get(key);
    if (!opts) optionCache.set(key, (opts = injuryOptions(model, m, d, bl, crit)));
    return opts;
  };

  const decide = (k: number, idx: number): Decision => tableDecision(table, k, idx);

  // Exact survival chance with k attacks left from state idx (before standing up), under settled decisions.
  const exactW = (k: number, idx: number): Pow6 => {
    if (k === 0) return P6_ONE;
    const memo = exactMemo[k]!;
    const known = memo.get(idx);
    if (known) return known;
    const at = standsUpBefore(model, n - k + 1) ? model.activationStart(idx) : idx;
    const v = exactAttack(k, at, decide(k, at).a);
    memo.set(idx, v);
    return v;
  };
  const exactInner = (k: number, m: number, d: number, tl: number, opt: Option): Pow6 => {
    const next = injuryNext(model, cap, m - opt.cost, d, tl);
    let v = P6_ZERO;
    for (let o = NO_EFFECT; o <= OUT; o++) {
      const w = opt.row.w[o]!;
      if (w === 0n || next[o]! < 0) continue;
      v = p6Add(v, p6Scale(w, opt.row.exp, exactW(k - 1, next[o]!)));
    }
    return v;
  };
  const settledOption = (k: number, m: number, d: number, tl: number, bl: number, crit: number): Option => {
    const code = inner[innerIndex(stride, k, stateIndex(m, d, tl, bl), crit)]!;
    return optionsFor(m, d, bl, crit).find((o) => o.code === code)!;
  };
  const exactAttack = (k: number, at: number, a: number): Pow6 => {
    const m = markersOf(at) - a;
    const d = downOf(at);
    const tl = toughLeftOf(at);
    const bl = blessingLeftOf(at);
    const sr = model.successRow(a);
    let v = P6_ZERO;
    if (sr.w[MISS] !== 0n) v = p6Add(v, p6Scale(sr.w[MISS]!, sr.exp, exactW(missLeft(k), stateIndex(m, d, tl, bl))));
    for (let c = 0; c < 2; c++) {
      if (sr.w[HIT + c] === 0n) continue;
      v = p6Add(v, p6Scale(sr.w[HIT + c]!, sr.exp, exactInner(k, m, d, tl, settledOption(k, m, d, tl, bl, c))));
    }
    return v;
  };

  const innerW = new Float64Array(stride * 2);
  const innerOut = new Uint8Array(stride * 2);
  const innerSurv = new Uint8Array(stride * 2);
  const cands = new Candidates();
  const mostPlaced = model.mostPlaced;
  for (let k = 1; k <= n; k++) {
    const j = n - k + 1;
    const stand = standsUpBefore(model, j);
    const mj = Math.min(maxM, model.startMarkers + mostPlaced * (j - 1));
    exactMemo[k] = new Map();
    const wPrev = wRows[k - 1]!;
    const outPrev = outRows[k - 1]!;
    const survPrev = survRows[k - 1]!;
    // Where a miss goes: the next attack (k - 1 left) or, ending a RISKY string, the next activation.
    const kMiss = missLeft(k);
    const wMiss = wRows[kMiss]!;
    const outMiss = outRows[kMiss]!;
    const survMiss = survRows[kMiss]!;
    const wCur = new Float64Array(stride).fill(1);
    const outCur = new Uint8Array(stride);
    const survCur = new Uint8Array(stride).fill(1);
    // Injury choices for every (m', d, tl, bl, crit).
    for (let m = 0; m <= mj; m++)
      for (let d = 0; d < 2; d++)
        for (let tl = 0; tl <= tl0; tl++)
          for (let bl = 0; bl <= bl0; bl++)
            for (let crit = 0; crit < 2; crit++) {
              const opts = optionsFor(m, d, bl, crit);
              cands.reset(opts.length);
              const placedNone = model.placed[d]![NO_EFFECT];
              const placedMinor = model.placed[d]![MINOR];
              const placed = model.placed[d]![DOWN];
              for (let i = 0; i < opts.length; i++) {
                const opt = opts[i]!;
                const p = opt.row.p;
                const m2 = m - opt.cost;
                let w = 0;
                let canOut = false;
                let canSurvive = false;
                // No effect, minor hit, down, out of action (a Down in full while Tough is left).
                const up = m2 + placed < cap ? m2 + placed : cap;
                const t0 = stateIndex(m2 + placedNone < cap ? m2 + placedNone : cap, d, tl, 0);
                const t1 = stateIndex(m2 + placedMinor < cap ? m2 + placedMinor : cap, d, tl, 0);
                const t2 = stateIndex(up, 1, tl, 0);
                if (p[NO_EFFECT]! > 0) (w += p[NO_EFFECT]! * wPrev[t0]!), (canOut ||= outPrev[t0] === 1), (canSurvive ||= survPrev[t0] === 1);
                if (p[MINOR]! > 0) (w += p[MINOR]! * wPrev[t1]!), (canOut ||= outPrev[t1] === 1), (canSurvive ||= survPrev[t1] === 1);
                if (p[DOWN]! > 0) (w += p[DOWN]! * wPrev[t2]!), (canOut ||= outPrev[t2] === 1), (canSurvive ||= survPrev[t2] === 1);
                if (p[OUT]! > 0) {
                  if (tl === 1) {
                    const t3 = stateIndex(up, 1, 0, 0);
                    (w += p[OUT]! * wPrev[t3]!), (canOut ||= outPrev[t3] === 1), (canSurvive ||= survPrev[t3] === 1);
                  } else canOut = true;
                }
                cands.push(w, canOut, canSurvive);
              }
              const chosen = cands.pick(
                (i) => opts[i]!.row,
                (i) => exactInner(k, m, d, tl, opts[i]!),
              );
              const key = stateIndex(m, d, tl, bl) * 2 + crit;
              inner[innerIndex(stride, k, stateIndex(m, d, tl, bl), crit)] = opts[chosen]!.code;
              innerW[key] = cands.w[chosen]!;
              innerOut[key] = cands.canOut[chosen]!;
              innerSurv[key] = cands.canSurvive[chosen]!;
            }
    // Markers on the attack roll, for every state (before standing up; the choice is made after it, in
    // the state `at`, which also has its REGENERATE markers removed).
    for (let mi = 0; mi <= mj; mi++)
      for (let di = 0; di < 2; di++)
        for (let tli = 0; tli <= tl0; tli++)
          for (let bli = 0; bli <= bl0; bli++) {
            const idx = stateIndex(mi, di, tli, bli);
            const at = stand ? model.activationStart(idx) : idx;
            const m = markersOf(at);
            const tl = toughLeftOf(at);
            const bl = blessingLeftOf(at);
            const maxA = Math.min(model.attackRollMarkers, m);
            cands.reset(maxA + 1);
            for (let a = 0; a <= maxA; a++) {
              const sr = model.successRow(a);
              const left = stateIndex(m - a, downOf(at), tl, bl);
              let w = 0;
              let canOut = false;
              let canSurvive = false;
              if (sr.p[MISS]! > 0) (w += sr.p[MISS]! * wMiss[left]!), (canOut = outMiss[left] === 1), (canSurvive = survMiss[left] === 1);
              for (let c = 0; c < 2; c++) {
                if (sr.p[HIT + c] === 0) continue;
                w += sr.p[HIT + c]! * innerW[left * 2 + c]!;
                canOut ||= innerOut[left * 2 + c] === 1;
                canSurvive ||= innerSurv[left * 2 + c] === 1;
              }
              cands.push(w, canOut, canSurvive);
            }
            const chosen = cands.pick(
              (a) => model.successRow(a),
              (a) => exactAttack(k, at, a),
            );
            attack[k * stride + at] = chosen;
            wCur[idx] = cands.w[chosen]!;
            outCur[idx] = cands.canOut[chosen]!;
            survCur[idx] = cands.canSurvive[chosen]!;
          }
    wRows.push(wCur);
    outRows.push(outCur);
    survRows.push(survCur);
  }
  const result: FiniteOptimal = { ...table, decide };
  cache.set(model, result);
  return result;
}

/**
 * Attacks left after a miss with k attacks left (attack j = N - k + 1): k - 1, or with a RISKY string,
 * whose miss ends the activation, those left from the first attack of the next activation,
 * j' = ceil(j / per) per + 1 (0 when there is none; a RISKY string over the whole sequence has none).
 */
export function missAttacksLeft(model: SequenceModel, k: number): number {
  if (!model.risky) return k - 1;
  const n = model.attacks;
  const per = model.perActivation;
  if (per === 0) return 0;
  const j = n - k + 1;
  return Math.max(0, n - Math.ceil(j / per) * per);
}
