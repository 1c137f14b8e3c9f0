import type { ReportLayout } from './types.js';

/**
 * The one owner of a simulation tally's layout. A kernel adds into a flat Float64Array (no objects per
 * trial), laid out from its ReportLayout as
 *   [outcome counts...] [sum, sum of squares per mean...] [bin counts per histogram, in order...]
 * Kernels find where to add, and statistics where to read, only through tallyOffsets: no index of a
 * tally is written by hand anywhere else.
 */
export interface TallyOffsets {
  /** Index of the first outcome's count (always 0: outcomes come first). */
  readonly outcomes: number;
  /** Index of the first mean's sum; its sum of squares follows it, then the next mean's sum. */
  readonly means: number;
  /** Index of each histogram's first bin, in the layout's order. */
  readonly histograms: readonly number[];
  /** Length of the whole tally. */
  readonly length: number;
}

export function tallyOffsets(layout: ReportLayout): TallyOffsets {
  const means = layout.outcomes.length;
  const histograms: number[] = [];
  let at = means + 2 * layout.means.length;
  for (const h of layout.histograms) {
    histograms.push(at);
    at += h.bins.length;
  }
  return { outcomes: 0, means, histograms, length: at };
}

/** Length of the tally array for a layout. */
export function tallyLength(layout: ReportLayout): number {
  return tallyOffsets(layout).length;
}

/** Index of the sum of the mean `id` (its sum of squares is the next index). */
export function meanOffset(layout: ReportLayout, id: string): number {
  const i = layout.means.findIndex((m) => m.id === id);
  if (i < 0) throw new Error(`tally: the layout has no mean "${id}"`);
  return tallyOffsets(layout).means + 2 * i;
}

/** Index of the first bin of the histogram `id`. */
export function histogramOffset(layout: ReportLayout, id: string): number {
  const i = layout.histograms.findIndex((h) => h.id === id);
  if (i < 0) throw new Error(`tally: the layout has no histogram "${id}"`);
  return tallyOffsets(layout).histograms[i]!;
}
