/**
 * A sweep's verdict where one is asked for: a grid that varies a choice one side makes in play (a duel's
 * `a.policy`, a battle's `b.tactic`) asks which of them serves that side best. Each value is scored by the
 * duel's objective for that side, as policy optimal plays it (the `objective` field: margin, P(win) -
 * P(loss); or win, P(win) alone), and the best is said with how far it leads the next: exactly where
 * every cell is exact, from the estimates where the cells are simulated only.
 */
import { type Fraction, compare, formatFraction, sub, toNumber } from '../exact/fraction.js';
import { DUEL_SIDES, sideWinsOutcome } from '../rules/duel-report.js';
import { batchProportions, exactProbability, type Cell, type SweepResult } from './cells.js';
import { differenceEstimate } from './paired.js';
import { resolveKind } from '../rules/registry.js';
import type { FieldSpec } from '../model/types.js';

/** What a side plays for, as the duel's `objective` field names it. */
export type SideObjective = 'margin' | 'win';

/** One value of the side's dimension, scored. */
export interface SideScore {
  readonly label: string;
  readonly score: number;
  /** The score as an exact fraction, where the cell is exact. */
  readonly exact?: string;
}

export interface SideBest {
  /** The dimension varying the side's choices, and the side. */
  readonly dimension: string;
  readonly side: string;
  readonly objective: SideObjective;
  /** The other dimensions' labels of this group of cells ("armour standard"), empty for a grid of one dimension. */
  readonly where: readonly string[];
  /** The values scoring best (several where they tie), and every value's score from best to worst. */
  readonly best: readonly string[];
  readonly scores: readonly SideScore[];
  /** The best score's lead over the next value's, in probability (0 where they tie). */
  readonly lead?: number;
  /** Simulated: the lead's 95% interval, from the paired batches (common random numbers), where there are several. */
  readonly leadInterval?: { readonly ciLow: number; readonly ciHigh: number };
  readonly simulated: boolean;
}

/**
 * The side a dimension varies the choices of: fields of one side only ("a.policy"), each a choice made
 * in play (FieldSpec.played: a policy, a plan), not what the side is (its armour, a model).
 */
function sideOf(d: SweepResult['dimensions'][number], sideFields: readonly FieldSpec[]): string | undefined {
  const heads = new Set(d.fields.map((f) => (f.includes('.') ? f.slice(0, f.indexOf('.')) : '')));
  const [head] = heads;
  if (heads.size !== 1 || head === undefined || !(DUEL_SIDES as readonly string[]).includes(head)) return undefined;
  const played = d.fields.every((f) => sideFields.some((spec) => spec.name === f.slice(head.length + 1) && spec.played));
  return played ? head : undefined;
}

function objectiveOf(cell: Cell): SideObjective {
  return (cell.scenario as unknown as { objective?: unknown }).objective === 'win' ? 'win' : 'margin';
}

/** A cell's score for `side`: exact where it can be, else from the simulated estimates. */
function scoreOf(cell: Cell, side: string, objective: SideObjective): { score: number; exact?: Fraction } {
  const wins = sideWinsOutcome(side)!;
  const loses = sideWinsOutcome(side === 'a' ? 'b' : 'a')!;
  const pWin = exactProbability(cell, wins, false);
  const pLose = exactProbability(cell, loses, false);
  if (pWin && pLose) {
    const exact = objective === 'win' ? pWin : sub(pWin, pLose);
    return { score: toNumber(exact), exact };
  }
  const estimate = (id: string) => cell.outcomes.find((o) => o.outcome === id)?.estimate ?? 0;
  return { score: objective === 'win' ? estimate(wins) : estimate(wins) - estimate(loses) };
}

/**
 * The lead of `best` over `next` with its 95% interval, from their batches paired by seed: each batch's
 * score is a mean over its games, so the t interval of the paired differences holds for a margin as for
 * a chance. Undefined with one batch (nothing to pair), or batches of different sizes.
 */
function pairedLead(best: Cell, next: Cell, side: string, objective: SideObjective): { ciLow: number; ciHigh: number } | undefined {
  if (!best.sim || !next.sim) return undefined;
  const scores = (cell: Cell) => {
    const wins = batchProportions(cell, sideWinsOutcome(side)!, false);
    const loses = batchProportions(cell, sideWinsOutcome(side === 'a' ? 'b' : 'a')!, false);
    return { batches: wins.batches.map((w, i) => (objective === 'win' ? w : w - loses.batches[i]!)), trials: wins.trials };
  };
  const a = scores(next);
  const b = scores(best);
  if (a.batches.length < 2 || a.batches.length !== b.batches.length || a.trials !== b.trials) return undefined;
  const d = differenceEstimate(a, b);
  return { ciLow: d.ciLow, ciHigh: d.ciHigh };
}

/** The verdicts of a sweep: one per side-choice dimension and group of the other dimensions' values. None for a grid that varies no side's choices. */
export function sideBests(sweep: SweepResult): SideBest[] {
  const out: SideBest[] = [];
  const first = sweep.cells[0];
  const sideFields = first ? (resolveKind(first.scenario).kind.sides?.fields ?? []) : [];
  sweep.dimensions.forEach((d, k) => {
    const side = sideOf(d, sideFields);
    if (side === undefined || sweep.cells.length === 0 || !sweep.cells[0]!.layout.outcomes.includes(sideWinsOutcome(side)!)) return;
    const groups = new Map<string, Cell[]>();
    for (const cell of sweep.cells) {
      const key = JSON.stringify(cell.point.filter((_, i) => i !== k));
      groups.set(key, [...(groups.get(key) ?? []), cell]);
    }
    for (const cells of groups.values()) {
      if (cells.length < 2) continue;
      const objective = objectiveOf(cells[0]!);
      const scored = cells.map((cell) => ({ cell, ...scoreOf(cell, side, objective) }));
      const exact = scored.every((s) => s.exact !== undefined);
      const order = (x: (typeof scored)[number], y: (typeof scored)[number]) => (exact ? compare(y.exact!, x.exact!) : y.score - x.score);
      scored.sort(order);
      const top = scored[0]!;
      const best = scored.filter((s) => order(s, top) === 0);
      const next = scored[best.length];
      const interval = !exact && next ? pairedLead(top.cell, next.cell, side, objective) : undefined;
      out.push({
        dimension: d.id,
        side,
        objective,
        where: top.cell.labels.filter((_, i) => i !== k).map((label, i) => `${sweep.dimensions.filter((_, j) => j !== k)[i]!.id} ${label}`),
        best: best.map((s) => s.cell.labels[k]!),
        scores: scored.map((s) => ({ label: s.cell.labels[k]!, score: s.score, ...(s.exact ? { exact: formatFraction(s.exact) } : {}) })),
        ...(next ? { lead: top.score - next.score } : {}),
        ...(interval ? { leadInterval: interval } : {}),
        simulated: !exact,
      });
    }
  });
  return out;
}

/** How an objective is said: "margin, P(a wins) - P(b wins)". */
export function objectiveText(side: string, objective: SideObjective): string {
  const other = side === 'a' ? 'b' : 'a';
  return objective === 'win' ? `win, P(${side} wins)` : `margin, P(${side} wins) - P(${other} wins)`;
}

/** A verdict as the table says it: "Best for a by a.policy (margin, P(a wins) - P(b wins)): optimal at +19.10 points, 2.12 ahead of injury (+16.98)." */
export function sideBestLine(b: SideBest, points: (p: number, digits: number) => string): string {
  const where = b.where.length ? `${b.where.join(', ')}: ` : '';
  const top = b.scores[0]!;
  const unit = b.objective === 'margin' ? ' points' : '';
  const value = (s: SideScore) => (b.objective === 'margin' ? points(s.score, 2) : `${(s.score * 100).toFixed(2)}%`);
  const head = `${where}best for ${b.side} by ${b.dimension} (${objectiveText(b.side, b.objective)}${b.simulated ? ', simulated' : ''}): `;
  if (b.best.length === b.scores.length) return `${head}every value ties at ${value(top)}${unit}.`;
  const next = b.scores[b.best.length]!;
  const pts = (p: number) => (p * 100).toFixed(2);
  const i = b.leadInterval;
  // Simulated, a lead whose interval holds 0 is no clear lead: said so, with the interval.
  const lead = i
    ? i.ciLow > 0
      ? `${pts(b.lead ?? 0)} points ahead of ${next.label} (${value(next)}; 95% interval of the lead ${pts(i.ciLow)} to ${pts(i.ciHigh)})`
      : `not clearly ahead of ${next.label} (${value(next)}; lead ${pts(b.lead ?? 0)} points, 95% interval ${pts(i.ciLow)} to ${pts(i.ciHigh)})`
    : `${pts(b.lead ?? 0)} points ahead of ${next.label} (${value(next)})`;
  return b.best.length > 1 ? `${head}${b.best.join(' and ')} tie at ${value(top)}${unit}, ${lead}.` : `${head}${b.best[0]} at ${value(top)}${unit}, ${lead}.`;
}
