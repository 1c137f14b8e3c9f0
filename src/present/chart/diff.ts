import { formatFraction, toNumber } from '../../exact/fraction.js';
import { diffReadings, type DiffReading, type DiffResult } from '../../analysis/diff.js';
import { outcomeLabel, points } from '../../labels.js';
import { percent, wordWrap } from '../../text.js';
import type { VlSpec } from './definition.js';
import { CHART_WIDTH, CONFIG, FALL_COLOUR, RISE_COLOUR } from './shared/theme.js';
import { situation } from '../tables/diff.js';
import { SUBTITLE_CHARS, TITLE_CHARS } from './shared/text.js';

/**
 * `diff --chart FILE`: the table's reading drawn. A diff's grid has cells of several kinds and shapes
 * (attacks over armour × shield × Tough, sequences, falls, the changed keywords), so no one grid chart
 * holds them; what a designer reads from a diff is its largest moves, and these are drawn as the table
 * lists them: one bar per cell and outcome, in points of probability, rightwards where OTHER makes the
 * outcome more likely (red), leftwards where less (blue), the largest first. `--outcome` draws every
 * cell's move of one outcome instead ("where does Out of Action move?").
 */

/** Height of a label's line, and room between rows. */
const LINE_HEIGHT = 14;
const ROW_GAP = 8;
/** Room for the row labels: the cell, "sequence: armour reinforced, shield, injuryDice +3", in as many lines as it takes. */
const LABEL_WIDTH = 400;
const LABEL_SIZE = 12;

function whatMoved(bar: DiffReading): string {
  return bar.shift ? `${outcomeLabel(bar.shift.from)} -> ${outcomeLabel(bar.shift.to)}` : outcomeLabel(bar.outcome.outcome);
}

/** The chart's spec and the notes a page or stderr says with it. `top` bars at most, as the table's --top. */
export function diffChartSpec(r: DiffResult, opts: { readonly top: number; readonly outcome?: string }): { spec: VlSpec; notes: string[] } {
  const bars = diffReadings(r, opts.outcome === undefined ? undefined : [opts.outcome]);
  const shown = bars.slice(0, opts.top);
  const chars = Math.floor(LABEL_WIDTH / (0.8 * LABEL_SIZE));
  const rows = shown.map((bar, i) => {
    const place = `${bar.cell.kind}: ${situation(bar.cell.values)}`;
    const moved = whatMoved(bar);
    const { base, other, change } = bar.outcome;
    return {
      key: String(i),
      // Every line of the cell's situation: a label cut short could name another cell.
      lines: wordWrap(place, chars),
      moved,
      pts: change * 100,
      label: points(change, 1),
      colour: change > 0 ? RISE_COLOUR : FALL_COLOUR,
      tip: `${place}: ${outcomeLabel(bar.outcome.outcome)} ${percent(toNumber(base), 2)} under ${r.base.label}, ${percent(toNumber(other), 2)} under ${r.other.label} (${points(change, 2)} points; exact ${formatFraction(base)} -> ${formatFraction(other)})${bar.shift ? `; only ${outcomeLabel(bar.shift.from)} and ${outcomeLabel(bar.shift.to)} moved` : ''}`,
    };
  });
  const reach = Math.max(1, ...rows.map((row) => Math.abs(row.pts)));
  const against = `${r.other.label} against ${r.base.label}${opts.outcome === undefined ? '' : `, ${outcomeLabel(opts.outcome)}`}`;
  const count = shown.length === bars.length ? (bars.length === 1 ? "its one move" : `all ${bars.length} moves`) : `the ${shown.length} largest moves of ${bars.length}`;
  const title = bars.length === 0 ? `${against}: nothing moved` : `${against}: ${count}`;
  const subtitle = [
    `${r.system}, over the ${r.grid} grid; exact on both sides. Each bar is the change in one outcome's probability in one cell, in percentage points: red, more likely under ${r.other.label}; blue, less.`,
    ...(shown.some((b) => b.shift) ? ['A -> B: only A and B moved in that cell, B gaining what A lost; the bar is A\'s change.'] : []),
  ];
  const notes = [
    ...(bars.length > shown.length ? [`the ${shown.length} largest of ${bars.length} moves; --top N for more`] : []),
    ...(bars.length === 0 ? [opts.outcome === undefined ? 'nothing moved' : `${outcomeLabel(opts.outcome)} moved in no cell`] : []),
  ];
  const labelTable = rows.map((row) => `${JSON.stringify(row.key)}: ${JSON.stringify(row.lines.length === 1 ? row.lines[0] : row.lines)}`).join(', ');
  const plotWidth = CHART_WIDTH - LABEL_WIDTH - 60;
  const y = {
    field: 'key',
    type: 'nominal',
    sort: null,
    title: null,
    axis: { labelExpr: `{${labelTable}}[datum.label]`, labelLimit: LABEL_WIDTH, labelFontSize: LABEL_SIZE, labelLineHeight: LINE_HEIGHT, ticks: false, domain: false },
  };
  // Symmetric about no change: a diverging chart, whose empty side holds each bar's outcome.
  const x = { field: 'pts', type: 'quantitative', title: `Change in probability, ${r.base.label} -> ${r.other.label} (percentage points)`, scale: { domain: [-reach * 1.15, reach * 1.15] }, axis: { labelExpr: "(datum.value > 0 ? '+' : '') + format(datum.value, '.0f')", grid: true } };
  const spec: VlSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: wordWrap(title, TITLE_CHARS), subtitle: subtitle.flatMap((l) => wordWrap(l, SUBTITLE_CHARS)) },
    config: CONFIG,
    data: { values: rows },
    width: plotWidth,
    height: { step: LINE_HEIGHT * Math.max(1, ...rows.map((row) => row.lines.length)) + ROW_GAP },
    layer: [
      { mark: { type: 'bar', height: { band: 0.6 } }, encoding: { y, x, color: { field: 'colour', type: 'nominal', scale: null, legend: null }, tooltip: { field: 'tip', type: 'nominal' } } },
      { mark: { type: 'rule', color: '#555555' }, encoding: { x: { datum: 0 } } },
      {
        mark: { type: 'text', fontSize: LABEL_SIZE, dx: { expr: 'datum.pts > 0 ? 4 : -4' }, align: { expr: "datum.pts > 0 ? 'left' : 'right'" } },
        encoding: { y, x: { field: 'pts', type: 'quantitative' }, text: { field: 'label' } },
      },
      // What moved, beside the zero line on the bar's empty side.
      {
        mark: { type: 'text', fontSize: LABEL_SIZE, fontStyle: 'italic', color: '#444444', dx: { expr: 'datum.pts > 0 ? -6 : 6' }, align: { expr: "datum.pts > 0 ? 'right' : 'left'" } },
        encoding: { y, x: { datum: 0 }, text: { field: 'moved' } },
      },
    ],
  };
  return { spec, notes };
}
