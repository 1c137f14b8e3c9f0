/**
 * What the attacker can choose on an injury roll, as the optimal-policy search sees it: every way to
 * spend the target's blood markers (as +1 injury dice, with or without a Bloodbath), and where each
 * outcome of the roll leaves the target.
 */
import { DOWN, MINOR, NO_EFFECT, type Row, type SequenceModel, choiceCode, stateIndex } from './model.js';

/** An injury option: its code, markers it costs, its outcome row. */
export interface Option {
  readonly code: number;
  readonly cost: number;
  readonly row: Row;
}

/** Options of an injury roll with m markers available, cheapest first (no Bloodbath before Bloodbath at equal cost). */
export function injuryOptions(model: SequenceModel, m: number, d: number, bl: number, crit: number): Option[] {
  const blessingSpent = bl === 1 ? model.blessingMarkers : 0;
  const opts: Option[] = [];
  for (let s = 0; s <= m; s++) opts.push({ code: choiceCode(s, false), cost: s, row: model.injuryRow(crit, d, false, s, blessingSpent) });
  const bbCost = model.bloodbathCost(d);
  for (let s = 0; s + bbCost <= m; s++) opts.push({ code: choiceCode(s, true), cost: bbCost + s, row: model.injuryRow(crit, d, true, s, blessingSpent) });
  opts.sort((x, y) => x.cost - y.cost || (x.code & 1) - (y.code & 1));
  return opts;
}

/** Same outcome probabilities, exactly. */
export function sameRow(x: Row, y: Row): boolean {
  if (x === y) return true;
  for (let i = 0; i < x.w.length; i++) if (x.w[i]! * y.den !== y.w[i]! * x.den) return false;
  return true;
}

/**
 * Next states of an injury roll's four outcomes (no effect, minor hit, Down, Out of Action) with m2
 * markers left after paying, or -1 where Out of Action ends the sequence. The same placing of markers
 * as model.ts's transition, for the search's inner loops.
 */
export function injuryNext(model: SequenceModel, cap: number, m2: number, d: number, tl: number): [number, number, number, number] {
  const placed = model.placed[d]!;
  return [
    stateIndex(Math.min(m2 + placed[NO_EFFECT], cap), d, tl, 0),
    stateIndex(Math.min(m2 + placed[MINOR], cap), d, tl, 0),
    stateIndex(Math.min(m2 + placed[DOWN], cap), 1, tl, 0),
    tl === 1 ? stateIndex(Math.min(m2 + placed[DOWN], cap), 1, 0, 0) : -1,
  ];
}
