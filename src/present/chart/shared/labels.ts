import type { Dimension } from '../../../analysis/dimension-core.js';
import type { SweepResult } from '../../../analysis/cells.js';

/**
 * Values as charts say them: a rule's shorthand label (a d20 stat of "-") in words, on every axis and in
 * every cell of a sweep before it is drawn.
 */

/**
 * What a chart calls a value whose label is a rule's shorthand: a d20 stat of "-" (the model makes no
 * such roll), which on an axis reads as a missing label.
 */
const SHORTHAND_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = { defence: { '-': 'no Defence roll' } };

function chartLabel(d: Dimension, label: string): string {
  const field = d.fields.length === 1 ? d.fields[0]! : '';
  return SHORTHAND_LABELS[field]?.[label] ?? label;
}

/** The sweep with its labels as charts say them (chartLabel): the dimensions' values and every cell's. */
export function withChartLabels(sweep: SweepResult): SweepResult {
  const relabelled = sweep.dimensions.some((d) => d.values.some((v) => chartLabel(d, v.label) !== v.label));
  if (!relabelled) return sweep;
  const labels = (given: readonly string[]) => given.map((l, i) => chartLabel(sweep.dimensions[i]!, l));
  return {
    ...sweep,
    dimensions: sweep.dimensions.map((d) => ({ ...d, values: d.values.map((v) => ({ ...v, label: chartLabel(d, v.label) })) })),
    cells: sweep.cells.map((c) => ({ ...c, labels: labels(c.labels) })),
    notAllowed: sweep.notAllowed.map((c) => ({ ...c, labels: labels(c.labels) })),
  };
}
