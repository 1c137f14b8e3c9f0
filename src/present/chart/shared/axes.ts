import type { Dimension } from '../../../analysis/dimension-core.js';
import { wordWrap } from '../../../text.js';
import { orWorseLabel, outcomeColour, outcomeLabel } from '../../../labels.js';
import type { SweepResult } from '../../../analysis/cells.js';
import { dim, labelsOf } from './cells.js';
import { maxWidth } from './text.js';
import { LABEL_SIZE } from './theme.js';

/**
 * Scales, axes and panels: the outcome colour scale, the probability axis, facets and how many panels a
 * row holds, signed numeric labels, and column labels on top, wrapped or tilted where they are wide.
 */

/**
 * Panels a row of a faceted chart holds, at most `most`: where `most` leaves a last row part empty (4
 * panels in rows of 3), vega draws the empty places' axes as empty panels; as many columns, down to 2,
 * as fill every row instead, else `most`.
 */
export function panelColumns(panels: number, most: number): number {
  if (panels <= most) return panels;
  for (let columns = most; columns >= 2; columns--) if (panels % columns === 0) return columns;
  return most;
}

/**
 * A panel's title never widens its panel (a long keyword name would push the chart past its width): it
 * may take the gap between panels too (PANEL_GAP, vega's default spacing), then is cut with an
 * ellipsis; the tooltips say it in full.
 */
const PANEL_GAP = 20;

export const panelHeader = (plotWidth: number) => ({ labelLimit: plotWidth + PANEL_GAP });

export function outcomeScale(ids: readonly string[], cumulative: boolean) {
  return {
    domain: ids.map((id) => (cumulative ? orWorseLabel(id) : outcomeLabel(id))),
    range: ids.map(outcomeColour),
  };
}

/** Axis for probabilities: 0-100% with a title naming what is measured. */
export function probabilityAxis(title: string) {
  return { format: '.0%', title, tickCount: 5 };
}

export function facetField(sweep: SweepResult, facetId: string | undefined, orient: 'row' | 'column') {
  if (!facetId) return undefined;
  const { d } = dim(sweep, facetId);
  return {
    [orient]: {
      field: 'facet',
      type: 'ordinal',
      sort: labelsOf(d),
      title: d.title,
      header: orient === 'row' ? { labelAngle: 0, labelAlign: 'left', labelPadding: 6, titleOrient: 'left' } : { labelPadding: 4 },
    },
  };
}

/** "+1" labels for signed numeric axes (injury dice), plain numbers otherwise. */
export function signedLabelExpr(d: Dimension): string | undefined {
  const signed = d.values.some((v) => v.label.startsWith('+'));
  return signed ? "datum.value > 0 ? '+' + datum.label : datum.label" : undefined;
}

/**
 * Tilted column labels past this (by vega's 0.8 em a character: about 33 characters) are cut too: a
 * catalogue's longest model name would make the header taller than the map.
 */
const MAX_COLUMN_LABEL = 320;

/**
 * The column labels of a heat map, on top. Labels wider than their column (model names with costs) are
 * tilted upright, so neighbours do not overprint each other (a column is at least MIN_CELL wide, room
 * for one line of label), and cut at MAX_COLUMN_LABEL.
 */
export function topAxis(xd: Dimension, plotWidth: number): Record<string, unknown> {
  const column = plotWidth / Math.max(1, xd.values.length);
  const fits = maxWidth(labelsOf(xd)) <= column - 6;
  if (fits) return { labelAngle: 0, orient: 'top', domain: false, ticks: false };
  const wrapped = wrappedLabels(labelsOf(xd), column - 6);
  if (wrapped) {
    // Vega draws a label's further lines below its first, into the map: the padding lifts them clear.
    const lineHeight = LABEL_SIZE + 2;
    return { labelAngle: 0, orient: 'top', domain: false, ticks: false, labelExpr: wrapped.expr, labelLineHeight: lineHeight, labelPadding: 2 + (wrapped.lines - 1) * lineHeight };
  }
  // Upright, so that the last label cannot reach past the chart's planned width.
  return { labelAngle: -90, labelAlign: 'left', labelBaseline: 'middle', orient: 'top', domain: false, ticks: false, labelLimit: MAX_COLUMN_LABEL };
}

/** Lines a wrapped column label may take: more would be as tall as a tilted one. */
const MAX_LABEL_LINES = 3;

/**
 * Column labels too wide for their columns ("Unarmoured Trooper (30)") wrapped at their spaces into at
 * most MAX_LABEL_LINES lines that fit, as a vega expression from each label to its lines; undefined
 * where some label cannot be wrapped so. Tilted labels would take a third of the figure's height.
 */
function wrappedLabels(labels: readonly string[], width: number): { expr: string; lines: number } | undefined {
  const chars = Math.floor(width / (0.8 * LABEL_SIZE));
  const lines = labels.map((l) => wordWrap(l, chars));
  if (lines.some((ls) => ls.length > MAX_LABEL_LINES || ls.some((line) => line.length > chars))) return undefined;
  const table = labels.map((l, i) => `${JSON.stringify(l)}: ${JSON.stringify(lines[i])}`).join(', ');
  return { expr: `{${table}}[datum.label]`, lines: Math.max(...lines.map((ls) => ls.length)) };
}
