import type { Dimension } from '../../../analysis/dimension-core.js';
import { percent } from '../../../text.js';
import type { CellOutcome, SweepResult } from '../../../analysis/cells.js';

/**
 * What a chart reads from a sweep: a dimension and its labels, what one cell shows for an outcome (exact
 * or simulated, with its interval and tooltip), and how the kind's trials are named in titles.
 */

export interface Shown {
  value: number;
  low?: number;
  high?: number;
  /** The simulated estimate, when the value shown is exact and a simulation was run too. */
  estimate?: number;
  /** The exact fraction, when the value shown is exact. */
  fraction?: string;
}

/**
 * What a mark says on hover (and to a screen reader): the value with its exact fraction, and the simulated
 * estimate with its 95% interval where a simulation was run.
 */
export function valueTip(s: Shown | undefined): string {
  if (!s) return 'not computed';
  const value = `${percent(s.value, 2)}${s.fraction !== undefined ? ` = ${s.fraction}` : ''}`;
  if (s.low === undefined) return value;
  const interval = `95% ${percent(s.low, 2)}-${percent(s.high!, 2)}`;
  return s.estimate !== undefined ? `${value}; simulated ${percent(s.estimate, 2)} (${interval})` : `${value} simulated (${interval})`;
}

/** What a chart shows for one outcome of a cell: exact where known, else the estimate; intervals when simulated. */
export function shown(o: CellOutcome | undefined, cumulative: boolean): Shown | undefined {
  if (!o) return undefined;
  const exact = cumulative ? o.orWorse : o.probability;
  const fraction = cumulative ? o.orWorseExact : o.exact;
  const est = cumulative ? o.orWorseEstimate : o.estimate;
  const low = cumulative ? o.orWorseCiLow : o.ciLow;
  const high = cumulative ? o.orWorseCiHigh : o.ciHigh;
  if (exact === undefined && est === undefined) return undefined;
  return {
    value: exact ?? est!,
    ...(low !== undefined && high !== undefined ? { low, high } : {}),
    ...(exact !== undefined && est !== undefined ? { estimate: est } : {}),
    ...(exact !== undefined && fraction !== undefined ? { fraction } : {}),
  };
}

export function dim(sweep: SweepResult, id: string): { d: Dimension; index: number } {
  const index = sweep.dimensions.findIndex((x) => x.id === id);
  return { d: sweep.dimensions[index]!, index };
}

export const labelsOf = (d: Dimension) => d.values.map((v) => v.label);

export function simulated(sweep: SweepResult): boolean {
  return sweep.cells.some((c) => c.sim);
}

export function allExact(sweep: SweepResult): boolean {
  return sweep.cells.every((c) => c.exact);
}

/**
 * The outcomes of `ids` that happen in some cell (exactly or as estimated): an outcome at 0 in every cell
 * (a Staggered result no target of the chart can take) would only crowd the legend.
 */
export function possibleOutcomes(sweep: SweepResult, ids: readonly string[], cumulative: boolean): string[] {
  return ids.filter((id) =>
    sweep.cells.some((c) => {
      const s = shown(c.outcomes.find((o) => o.outcome === id), cumulative);
      return s !== undefined && (s.value > 0 || (s.estimate ?? 0) > 0);
    }),
  );
}

/** "127 weapons", "53 models", "5 values of injury dice (net)": how many values a dimension has, in words. */
export function countOf(d: Dimension, n = d.values.length): string {
  const field = d.fields.length === 1 ? d.fields[0] : undefined;
  if (d.side !== undefined) return `${n} ${d.side} side${n === 1 ? '' : 's'}`;
  return field === 'target' ? `${n} model${n === 1 ? '' : 's'}` : field === 'weapon' ? `${n} weapon${n === 1 ? '' : 's'}` : `${n} values of ${d.title.toLowerCase()}`;
}

/** How many attacks (turns, rounds) every cell of a sequence (turns, duel) plays: "3 attacks"; undefined where the cells differ. */
function playedCount(sweep: SweepResult, field: string, unit: string): string | undefined {
  const n = [...new Set(sweep.cells.map((c) => c.scenario[field]))];
  return n.length === 1 && typeof n[0] === 'number' ? `${n[0]} ${unit}${n[0] === 1 ? '' : 's'}` : undefined;
}

/** What a sequence kind plays, by its scenario field and unit; undefined for a kind of one roll. */
function playedOf(sweep: SweepResult): { field: string; unit: string } | undefined {
  const kind = sweep.cells[0]?.scenario.kind;
  if (kind === 'sequence') return { field: 'attacks', unit: 'attack' };
  if (kind === 'turns') return { field: 'turns', unit: 'turn' };
  if (kind === 'duel') return { field: 'rounds', unit: 'round' };
  return undefined;
}

/** Over what a chance of the sweep's kind is counted: " per attack", " within 3 attacks", "" where the kind says it. */
export function chancePhrase(sweep: SweepResult): string {
  const kind = sweep.cells[0]?.scenario.kind;
  if (kind === 'attack') return ' per attack';
  if (kind === 'injury') return ' per injury roll';
  const played = playedOf(sweep);
  return played ? ` within ${playedCount(sweep, played.field, played.unit) ?? `the ${played.unit}s`}` : '';
}

/** The chance phrase of a default title; none where the number of attacks is what varies (it is on an axis). */
export function titlePhrase(sweep: SweepResult): string {
  const played = playedOf(sweep);
  return played && playedCount(sweep, played.field, played.unit) === undefined ? '' : chancePhrase(sweep);
}

/**
 * What one bar of a stacked-bar chart is, plural: "rolls", "duels", "sequences of 10 attacks" (the
 * layout's trial names the noun; a sequence's length is the cells').
 */
export function trialsName(sweep: SweepResult): { one: string; many: string } {
  const trial = sweep.cells[0]?.layout.trial ?? 'roll';
  const played = trial === 'sequence' ? playedOf(sweep) : undefined;
  const count = played ? playedCount(sweep, played.field, played.unit) : undefined;
  const of = count ? ` of ${count}` : '';
  return { one: `${trial}${of}`, many: `${trial}s${of}` };
}

export function trialsText(sweep: SweepResult): string {
  const t = [...new Set(sweep.cells.filter((c) => c.sim).map((c) => c.sim!.trials))];
  return t.length === 1 ? `${t[0]!.toLocaleString('en-GB')} simulated trials per cell` : 'simulated trials per cell as listed in the table';
}
