import type { Dimension } from '../../analysis/dimension-core.js';
import { orWorseLabel, outcomeLabel } from '../../labels.js';
import type { SweepResult } from '../../analysis/cells.js';
import type { ChartDef, VlSpec } from './definition.js';
import { topAxis } from './shared/axes.js';
import { countOf, dim, labelsOf, shown } from './shared/cells.js';
import { maxWidth, rowTitlePadding } from './shared/text.js';
import { CHART_WIDTH, CONFIG, INK } from './shared/theme.js';

/**
 * What the two heat maps (heatmap.ts, difference-map.ts) share: the plan of a map's size and its cells'
 * numbers, the rows shown of a big grid, its rectangles and axes, and the notes under it.
 */

/**
 * Heat maps of big grids (a catalogue's weapons against its models). A cell is never smaller than
 * MIN_CELL, room for one 12 px axis label per row or per tilted column without overprinting: a grid too
 * wide for the planned CHART_WIDTH grows wider instead of collapsing. Rows are ROW_STEP tall until the map
 * would pass MAX_MAP_HEIGHT, then shrink towards MIN_CELL.
 */
const MIN_CELL = 16;

const ROW_STEP = 40;

const MAX_MAP_HEIGHT = 640;

/**
 * Row labels past this are cut with an ellipsis (the tooltips say them whole), so they cannot squeeze
 * out the map: the limit every axis has (CONFIG), now also planned with.
 */
const MAX_ROW_LABEL = CONFIG.axis.labelLimit;

/** Above this many rows a heat map shows the top rows by its measure, and says so in its title and a note. */
export const MAX_HEATMAP_ROWS = 60;

/**
 * Styles of the numbers in the cells, the preferred first: a map draws them in the first that fits
 * every cell, or not at all (its values are in the tables and results.csv).
 */
const CELL_TEXT = [
  { size: 13, digits: 1 },
  { size: 10, digits: 1 },
  { size: 10, digits: 0 },
] as const;

type CellText = (typeof CELL_TEXT)[number];

/** Advance widths (em) in DejaVu Sans Bold, the font the PNG is drawn in, of the characters of a cell's number. */
const BOLD_WIDTHS: Readonly<Record<string, number>> = { '.': 0.38, '%': 1.002, ' ': 0.348, '±': 0.838, '+': 0.838, '-': 0.415, '−': 0.838 };

const BOLD_DIGIT = 0.696;

/**
 * The width of a cell's number as drawn. Vega's 0.8 em a character (textWidth) is what the layout must
 * be planned with, vega planning by that same estimate, but it overstates digits by a seventh and would
 * hide numbers that fit their cells.
 */
function numberWidth(text: string, size: number): number {
  let em = 0;
  for (const ch of text) em += BOLD_WIDTHS[ch] ?? (ch >= '0' && ch <= '9' ? BOLD_DIGIT : 0.8);
  return em * size;
}

interface MapPlan {
  /** Width of one panel. */
  readonly width: number;
  readonly rowStep: number;
  /** The row labels' width as planned: cut at MAX_ROW_LABEL. */
  readonly yLabelWidth: number;
  /** How the cells' numbers are drawn, or undefined where the cells are too small for them. */
  readonly text?: CellText;
}

/**
 * A heat map's size from its rows and columns: the room left of CHART_WIDTH when every column gets at least
 * MIN_CELL of it, else MIN_CELL a column (wider than CHART_WIDTH, never negative); and the style of the cell
 * numbers, if any fits: `labels(digits)` gives every cell's number at that many decimals.
 */
export function mapPlan(columns: number, rows: number, yLabels: readonly string[], facets: number, legendWidth: number, labels: (digits: number) => string[]): MapPlan {
  const yLabelWidth = Math.min(maxWidth(yLabels), MAX_ROW_LABEL);
  const room = Math.floor((CHART_WIDTH - 24 - yLabelWidth - rowTitlePadding(yLabelWidth) - 36 - legendWidth - (facets - 1) * 20) / facets);
  const width = Math.max(room, columns * MIN_CELL);
  const rowStep = Math.max(MIN_CELL, Math.min(ROW_STEP, Math.floor(MAX_MAP_HEIGHT / rows)));
  const column = width / columns;
  // 4 px above and below a number, 3 px each side: the cells have a 2 px white border.
  const text = CELL_TEXT.find((t) => t.size + 8 <= rowStep && Math.max(0, ...labels(t.digits).map((l) => numberWidth(l, t.size))) + 6 <= column);
  return { width, rowStep, yLabelWidth, ...(text ? { text } : {}) };
}

/**
 * The rows a heat map shows, in order: every value of its y dimension, or, above MAX_HEATMAP_ROWS, the
 * top MAX_HEATMAP_ROWS by their average `score` over their cells (columns and panels), highest first.
 */
export function mapRows(yd: Dimension, yi: number, cells: readonly { readonly labels: readonly string[] }[], score: (cell: number) => number): { labels: string[]; cut: boolean } {
  const labels = labelsOf(yd);
  if (labels.length <= MAX_HEATMAP_ROWS) return { labels, cut: false };
  const sums = new Map(labels.map((l) => [l, { sum: 0, n: 0 }]));
  cells.forEach((c, i) => {
    const s = sums.get(c.labels[yi]!)!;
    s.sum += score(i);
    s.n++;
  });
  const mean = (l: string) => sums.get(l)!.sum / Math.max(1, sums.get(l)!.n);
  // A stable sort: rows that tie keep the dimension's order.
  const ranked = [...labels].sort((a, b) => mean(b) - mean(a));
  return { labels: ranked.slice(0, MAX_HEATMAP_ROWS), cut: true };
}

/**
 * The values of a heat map's axes whose every cell is at 0% because its target is Tough and takes one
 * attack (or injury roll): Tough saves a model from its first Out of Action, so one attack never takes it
 * out. Said under the map, so a column of 0.0% does not read as a model no weapon can hurt.
 */
export function toughZeroLine(sweep: SweepResult, def: Extract<ChartDef, { type: 'heatmap' }>): string[] {
  const zero = (cell: SweepResult['cells'][number]) => {
    const s = shown(cell.outcomes.find((o) => o.outcome === def.outcome), def.cumulative === true);
    return (s?.value ?? 0) === 0 && (s?.estimate ?? 0) === 0;
  };
  const oneRollAtTough = (cell: SweepResult['cells'][number]) => cell.scenario.tough === true && (cell.scenario.kind === 'attack' || cell.scenario.kind === 'injury');
  const labels = [def.x, def.y].flatMap((id) => {
    const { d, index } = dim(sweep, id);
    return d.values.flatMap((v, i) => {
      const cells = sweep.cells.filter((c) => c.point[index] === i);
      return cells.length > 0 && cells.every((c) => oneRollAtTough(c) && zero(c)) ? [v.label] : [];
    });
  });
  if (!labels.length) return [];
  const roll = sweep.cells[0]?.scenario.kind === 'injury' ? 'injury roll' : 'attack';
  return [`0% throughout for ${labels.join(', ')}: Tough saves a model from its first Out of Action, so one ${roll} never takes it out.`];
}

/** What a heat map cut to its top rows says of itself: in its subtitle, and as a note on the report page. */
export function topRowsNote(yd: Dimension, def: Extract<ChartDef, { type: 'heatmap' }>): string {
  const name = def.cumulative ? orWorseLabel(def.outcome) : outcomeLabel(def.outcome);
  const ranking = def.differenceFrom !== undefined ? `largest average change of P(${name}), either way` : `highest average P(${name})`;
  return `Shows ${MAX_HEATMAP_ROWS} of the ${countOf(yd)}: those with the ${ranking}, in that order; every row is in the tables and in results.csv.`;
}

/** The heat map's rectangles and numbers; no number layer where the cells are too small for one. */
export function mapLayers(enc: Record<string, unknown>, color: Record<string, unknown>, plan: MapPlan): VlSpec[] {
  return [
    { mark: { type: 'rect', stroke: 'white', strokeWidth: plan.rowStep < 24 ? 1 : 2 }, encoding: { ...enc, color, tooltip: { field: 'tip', type: 'nominal' }, description: { field: 'tip', type: 'nominal' } } },
    ...(plan.text ? [{ mark: { type: 'text', fontSize: plan.text.size, fontWeight: 'bold' }, encoding: { ...enc, text: { field: plan.text.digits === 1 ? 'label' : 'label0' }, color: INK } }] : []),
  ];
}

/**
 * The axes of a heat map: column labels on top (tilted and cut where wide), row labels cut at
 * MAX_ROW_LABEL. With `keepEmpty` (cells the rules forbid) every row and column keeps its place, so a
 * forbidden cell is an empty square, not a missing column.
 */
export function mapAxes(xd: Dimension, rows: readonly string[], yd: Dimension, plan: MapPlan, keepEmpty: boolean) {
  const domain = (labels: readonly string[]) => (keepEmpty ? { scale: { domain: labels } } : {});
  return {
    x: { field: 'x', type: 'ordinal', sort: labelsOf(xd), title: xd.title, axis: topAxis(xd, plan.width), ...domain(labelsOf(xd)) },
    y: { field: 'y', type: 'ordinal', sort: rows, title: yd.title, axis: { domain: false, ticks: false, labelLimit: MAX_ROW_LABEL, titlePadding: rowTitlePadding(plan.yLabelWidth) }, ...domain(rows) },
  };
}

/** What the report page says under a heat map: the rows it cut to its top ones, the Tough targets at 0%. */
export function mapNotes(sweep: SweepResult, def: Extract<ChartDef, { type: 'heatmap' }>): string[] {
  const { d } = dim(sweep, def.y);
  return [...(d.values.length > MAX_HEATMAP_ROWS ? [topRowsNote(d, def)] : []), ...toughZeroLine(sweep, def)];
}
