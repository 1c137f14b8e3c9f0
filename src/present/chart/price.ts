import { type Fraction, ONE, formatFraction, sub, toNumber } from '../../exact/fraction.js';
import { textColourOn } from '../../labels.js';
import type { PriceResult, PricedResult } from '../../pricing/price.js';
import type { Verdict } from '../../pricing/fair-price.js';
import { percent, wordWrap } from '../../text.js';
import { type Box, placeLabels } from './shared/label-placement.js';
import type { VlSpec } from './definition.js';
import { SUBTITLE_CHARS, TITLE_CHARS, textWidth } from './shared/text.js';
import { CHART_WIDTH, CONFIG, FALL_COLOUR, INK, NO_CHANGE_COLOUR, RISE_COLOUR, mix } from './shared/theme.js';
import type { PriceContext } from '../tables/price.js';

/**
 * `price --chart FILE`: the table's verdicts drawn (issue 40), in two panels, one above the other.
 *
 * 1. Fair against current price, one point per priced entry, on the same log scale both ways with the
 *    diagonal (fair = current) drawn: the verdict is a percentage of the price, and on log axes one
 *    percentage is one distance from the diagonal at any price, so a cheap entry 30% off looks as far off
 *    as a dear one 30% off (on linear axes the dear one would look ten times worse). The price line is a
 *    line in log price too. A grey band holds the prices within the tolerance (called fair).
 * 2. The pairwise matrix the ratings were fitted to, as a heat map: row i, column j is i's share of its
 *    duels against j, strongest (highest rated) first both ways, so a well-fitted field reads as red above
 *    the diagonal fading to blue below, and a cell out of that pattern is a pair the ratings describe badly.
 *
 * Colours say one thing in both panels: red is strong for its place (an under-priced entry: worth more than
 * it costs, above the diagonal; a row that wins most of its duels against the column), blue weak (over-priced,
 * below the diagonal; a row that loses), grey neither. These are diff --chart's RISE and FALL colours
 * (ColorBrewer RdBu, colour-blind safe): red is the number going up, fair price above current, share above half.
 */

/** A point of the first panel: a priced entry at (current, fair). */
export interface PricePoint {
  readonly name: string;
  readonly price: number;
  readonly fair: number;
  readonly verdict: Verdict;
  /** The name when the point is one of the most mispriced, drawn beside it; else ''. */
  readonly label: string;
  readonly tip: string;
  /** The fair price's 95% interval, where it has one (prices from battles): drawn as a bar through the point. */
  readonly low?: number;
  readonly high?: number;
}

/**
 * A name drawn on the price panel, where placeLabels put it: its box in the panel's pixels ((0, 0) top
 * left), the text set at the box's left and middle; `leader` when it is away from its point, a line from
 * the point (`x`, `y`) to the box.
 */
export interface PriceLabel {
  readonly label: string;
  /** The name as drawn: wrapped onto lines of at most LABEL_CHARS characters. */
  readonly lines: readonly string[];
  /** The point, in the panel's pixels. */
  readonly x: number;
  readonly y: number;
  readonly box: Box;
  /**
   * The text's side of the box: the side towards its point (or its leader's end). Estimated widths run
   * long (LABEL_EM), so a name left of its point set at the box's left edge would end well short of it.
   */
  readonly align: 'left' | 'right';
  readonly textX: number;
  readonly textY: number;
  readonly leader?: { readonly x: number; readonly y: number; readonly x2: number; readonly y2: number };
}

/** A cell of the second panel: the row entry's share of its duels against the column entry. */
export interface ShareCell {
  /** "1. NAME": the row's place by rating and its whole name. */
  readonly row: string;
  /** The column's place by rating, the number its row label starts with. */
  readonly column: string;
  readonly rowName: string;
  readonly columnName: string;
  readonly share: number;
  /** The share as an exact fraction: the duels' own result. */
  readonly exact: string;
  /** The share in whole percent, drawn in the cell where cells have room. */
  readonly label: string;
  readonly ink: string;
  readonly tip: string;
}

/** How many of the most mispriced entries are named beside their points: more would overprint each other. */
export const LABELLED = 5;

const FAIR_COLOUR = '#8c8c8c';
const VERDICT_COLOURS: readonly (readonly [Verdict, string])[] = [
  ['under-priced', RISE_COLOUR],
  ['fair', FAIR_COLOUR],
  ['over-priced', FALL_COLOUR],
];

/** The price panel's side: square, so the diagonal runs at 45 degrees. */
export const SCATTER_SIDE = 520;
const LABEL_SIZE = 12;
/**
 * A name's width is estimated at LABEL_EM of the font size a character. The PNG is drawn in DejaVu Sans,
 * whose advance widths (read from DejaVuSans.ttf's hmtx table) are 0.28-0.97 em for lower case, 0.30-0.99
 * for capitals and 0.32 for a space: the names labelled on the Trench Pilgrims' chart average 0.53-0.58 em a
 * character, and Verdana, which a browser without DejaVu falls back to for the SVG, is a few hundredths
 * wider. 0.7 leaves room for a name heavy in capitals without vega's 0.8 (shared/text.ts textWidth), which would
 * hold names a third of their length away from their neighbours and points.
 */
export const LABEL_EM = 0.7;
/** A line of a name: DejaVu Sans' ascent 0.928 em and descent 0.236 em at 12 px, rounded up. */
export const LABEL_LINE = 14;
const LABEL_ASCENT = 0.928 * LABEL_SIZE;
/** Names wrap at half the panel's width (30 characters), so a name fits on one side or the other of any point. */
const LABEL_CHARS = Math.floor(SCATTER_SIDE / 2 / (LABEL_EM * LABEL_SIZE));
/**
 * A heat map row is never lower than this (one 12 px row label without overprinting) nor higher than
 * MAX_STEP; a field too large for CHART_WIDTH at MIN_STEP a column gets a wider chart rather than cut labels.
 */
const MIN_STEP = 16;
const MAX_STEP = 40;
/** Cells at least this big carry their share as a number (bold 11 px "100" and 3 px either side). */
const NUMBER_STEP = 30;
/** Room the heat map's colour legend takes, right of the map. */
const LEGEND_ROOM = 110;

/** Prices as the table shows them: one decimal below 100. */
const money = (x: number) => x.toFixed(x < 100 ? 1 : 0);
const signed = (x: number, digits: number) => `${x > 0 ? '+' : ''}${x.toFixed(digits)}`;

/** The unit prices are in: Trench Crusade's ducats; other systems' costs are points. */
export function unitOf(system: string): string {
  return system === 'trench-crusade' ? 'ducats' : 'points';
}

export function pricePoints(r: PriceResult, unit: string): PricePoint[] {
  const labelled = new Set(
    r.entries
      .filter((e) => e.verdict === 'under-priced' || e.verdict === 'over-priced')
      .slice(0, LABELLED)
      .map((e) => e.name),
  );
  return r.entries
    .filter((e): e is PricedResult & { price: number; difference: number; percent: number } => e.price !== undefined)
    .map((e) => ({
      name: e.name,
      price: e.price,
      fair: e.fairPrice,
      verdict: e.verdict,
      label: labelled.has(e.name) ? e.name : '',
      tip: `${e.name}: current ${money(e.price)} ${unit}, fair ${money(e.fairPrice)} (${signed(e.difference, 1)} ${unit}, ${signed(e.percent, 1)}%): ${e.verdict}; rating ${e.elo.toFixed(0)}`,
    }));
}

/** The price panel's axis, the same both ways: every price and fair price with room round the outermost for their marks. */
export function priceDomain(points: readonly PricePoint[]): [number, number] {
  const values = points.flatMap((p) => [p.price, p.fair, ...(p.low !== undefined && p.high !== undefined ? [p.low, p.high] : [])]);
  return [Math.min(...values) / 1.1, Math.max(...values) * 1.1];
}

/** Where a price falls on the panel's log axis, in pixels from its low end: vega's log scale over [lo, hi] onto [0, side]. */
const along = (v: number, [lo, hi]: readonly [number, number]) => ((Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * SCATTER_SIDE;

/**
 * The labelled points' names placed by placeLabels (the most mispriced first, so it gets the place beside
 * its point), and the names with no place left: never drawn over another, said instead. A name goes first
 * above its point when fair is above current (away from the diagonal), else below; rightwards in the cheaper
 * half of the axis, else leftwards, towards the panel's middle.
 */
export function priceLabels(points: readonly PricePoint[]): { labels: PriceLabel[]; unplaced: string[] } {
  const domain = priceDomain(points);
  const middle = Math.sqrt(domain[0] * domain[1]);
  const at = (p: PricePoint) => ({ x: along(p.price, domain), y: SCATTER_SIDE - along(p.fair, domain) });
  const named = points.filter((p) => p.label !== '');
  const lines = named.map((p) => wordWrap(p.label, LABEL_CHARS));
  const requests = named.map((p, k) => ({
    ...at(p),
    width: Math.ceil(Math.max(...lines[k]!.map((l) => l.length)) * LABEL_EM * LABEL_SIZE),
    height: Math.ceil(lines[k]!.length * LABEL_LINE),
    above: p.fair > p.price,
    rightwards: p.price <= middle,
  }));
  const placements = placeLabels(requests, points.map(at), SCATTER_SIDE, SCATTER_SIDE);
  const labels: PriceLabel[] = [];
  const unplaced: string[] = [];
  placements.forEach((placement, k) => {
    if (placement === undefined) {
      unplaced.push(named[k]!.label);
      return;
    }
    const { box, leader } = placement;
    const towards = leader ? leader.x2 : requests[k]!.x;
    const align = towards > box.left + box.width / 2 ? 'right' : 'left';
    labels.push({
      label: named[k]!.label,
      lines: lines[k]!,
      x: requests[k]!.x,
      y: requests[k]!.y,
      box,
      align,
      textX: align === 'left' ? box.left : box.left + box.width,
      textY: box.top + LABEL_ASCENT,
      ...(leader ? { leader } : {}),
    });
  });
  return { labels, unplaced };
}

/**
 * A share in whole percent for its cell: 100 and 0 only when the row always or never wins; a share that
 * rounds to them says 99 or 1, so no cell claims a certainty the duels do not have.
 */
export function cellNumber(w: number): string {
  if (w === 1 || w === 0) return String(100 * w);
  return String(Math.min(99, Math.max(1, Math.round(100 * w))));
}

/** The field's entries by rating, strongest first (ties in the field's order): the heat map's rows and columns. */
export function ratingOrder(r: PriceResult): number[] {
  return r.fit.entries.map((_, i) => i).sort((i, j) => r.fit.entries[j]!.rating - r.fit.entries[i]!.rating || i - j);
}

/** Every ordered pair of different entries: n(n-1) cells, w_ji = 1 - w_ij exactly. */
export function shareCells(r: PriceResult): ShareCell[] {
  const names = r.matrix.names;
  const order = ratingOrder(r);
  const place = new Map(order.map((entry, k) => [entry, k + 1]));
  const share = new Map<string, Fraction>();
  for (const p of r.matrix.pairs) {
    share.set(`${p.i},${p.j}`, p.share);
    share.set(`${p.j},${p.i}`, sub(ONE, p.share));
  }
  const rowLabel = (i: number) => `${place.get(i)}. ${names[i]}`;
  return order.flatMap((i) =>
    order
      .filter((j) => j !== i)
      .map((j) => {
        const exact = share.get(`${i},${j}`)!;
        const w = toNumber(exact);
        return {
          row: rowLabel(i),
          column: String(place.get(j)),
          rowName: names[i]!,
          columnName: names[j]!,
          share: w,
          exact: formatFraction(exact),
          label: cellNumber(w),
          ink: textColourOn(w < 0.5 ? mix(NO_CHANGE_COLOUR, FALL_COLOUR, 2 * (0.5 - w)) : mix(NO_CHANGE_COLOUR, RISE_COLOUR, 2 * (w - 0.5))),
          tip: `${names[i]} against ${names[j]}: ${names[i]}'s share of their duels ${formatFraction(exact)} = ${percent(w, 2)} (${names[j]}'s ${percent(1 - w, 2)})`,
        };
      }),
  );
}

export function pricePanel(points: readonly PricePoint[], labels: readonly PriceLabel[], tolerancePercent: number, unit: string): VlSpec {
  const [lo, hi] = priceDomain(points);
  const scale = { type: 'log', domain: [lo, hi], nice: false };
  const axis = (title: string) => ({ title, grid: true, tickCount: 8, format: '~s' });
  const x = { field: 'price', type: 'quantitative', scale, axis: axis(`Current price (${unit})`) };
  const y = { field: 'fair', type: 'quantitative', scale, axis: axis(`Fair price (${unit})`) };
  const t = tolerancePercent / 100;
  // Fair within the tolerance of the price: between fair = price (1 - t) and price (1 + t), straight lines on
  // log axes too; a tolerance of 100% or more reaches down to nothing, which a log axis has no room for.
  const band = [lo, hi].map((p) => ({ price: p, low: p * Math.max(1 - t, 1e-6), high: p * (1 + t) }));
  const verdictScale = { domain: VERDICT_COLOURS.map(([v]) => v), range: VERDICT_COLOURS.map(([, c]) => c) };
  return {
    title: { text: `Fair against current price${t > 0 ? ` (grey band: within ±${tolerancePercent}%, called fair)` : ''}`, anchor: 'start', fontSize: 14 },
    width: SCATTER_SIDE,
    height: SCATTER_SIDE,
    layer: [
      ...(t > 0
        ? [{ data: { values: band }, mark: { type: 'area', color: '#000000', opacity: 0.07, clip: true }, encoding: { x, y: { field: 'high', type: 'quantitative', scale }, y2: { field: 'low' } } }]
        : []),
      { data: { values: [{ price: lo, fair: lo }, { price: hi, fair: hi }] }, mark: { type: 'line', color: '#555555', strokeDash: [6, 4], clip: true }, encoding: { x, y } },
      // A fair price's 95% interval, where it has one, a bar through its point.
      ...(points.some((p) => p.low !== undefined)
        ? [{ data: { values: points.filter((p) => p.low !== undefined) }, mark: { type: 'rule', color: '#444444', strokeWidth: 1.5 }, encoding: { x, y: { field: 'low', type: 'quantitative', scale }, y2: { field: 'high' } } }]
        : []),
      // Leader lines under the points, from a point to its name where the name had no room beside it.
      ...(labels.some((l) => l.leader)
        ? [
            {
              data: { values: labels.flatMap((l) => (l.leader ? [l.leader] : [])) },
              mark: { type: 'rule', color: '#666666', strokeWidth: 1 },
              encoding: pixels(['x', 'y', 'x2', 'y2']),
            },
          ]
        : []),
      {
        data: { values: points },
        mark: { type: 'point', filled: true, size: 90, opacity: 0.9, stroke: 'white', strokeWidth: 1 },
        encoding: {
          x,
          y,
          color: { field: 'verdict', type: 'nominal', scale: verdictScale, title: 'Verdict', legend: { orient: 'right' } },
          tooltip: { field: 'tip', type: 'nominal' },
          description: { field: 'tip', type: 'nominal' },
        },
      },
      // Whole names (a name cut short could name another entry), where priceLabels placed them, in pixels.
      ...(labels.length > 0
        ? [
            {
              data: { values: labels },
              mark: { type: 'text', fontSize: LABEL_SIZE, lineHeight: LABEL_LINE, align: { expr: 'datum.align' }, baseline: 'alphabetic', color: '#222222' },
              encoding: { ...pixels(['textX', 'textY']), text: { field: 'lines' } },
            },
          ]
        : []),
    ],
  };
}

/** Channels x, y (x2, y2) taken as pixels of the panel, as placeLabels gives them, not through the price scale. */
function pixels(fields: readonly string[]): Record<string, unknown> {
  const channels = ['x', 'y', 'x2', 'y2'];
  return Object.fromEntries(fields.map((f, k) => [channels[k]!, { field: f, type: 'quantitative', scale: null }]));
}

export function sharePanel(cells: readonly ShareCell[], n: number, of = 'duels'): VlSpec {
  const rows = [...new Set(cells.map((c) => c.row))];
  const columns = rows.map((_, k) => String(k + 1));
  const rowLabelWidth = Math.max(...rows.map((l) => textWidth(l)));
  const step = Math.max(MIN_STEP, Math.min(MAX_STEP, Math.floor((CHART_WIDTH - 60 - rowLabelWidth - LEGEND_ROOM) / n)));
  // Column numbers side by side where they fit their columns, else upright.
  const upright = textWidth(String(n)) > step - 4;
  const enc = {
    // Every entry keeps its row and column, its own cell (against itself) left empty.
    x: { field: 'column', type: 'ordinal', scale: { domain: columns }, title: 'Against (its row number)', axis: { orient: 'top', domain: false, ticks: false, labelAngle: upright ? -90 : 0, labelOverlap: false } },
    // Row labels whole (labelLimit past the longest): cut, "Machine Brute with Gr..." could name another entry.
    y: { field: 'row', type: 'ordinal', scale: { domain: rows }, title: null, axis: { domain: false, ticks: false, labelLimit: rowLabelWidth + 40, labelOverlap: false } },
  };
  return {
    title: { text: `Share of the ${of}, row against column, strongest first`, anchor: 'start', fontSize: 14 },
    data: { values: cells },
    width: { step },
    height: { step },
    layer: [
      {
        mark: { type: 'rect', stroke: 'white', strokeWidth: step < 24 ? 1 : 2 },
        encoding: {
          ...enc,
          color: {
            field: 'share',
            type: 'quantitative',
            title: ["Row's share", `of the ${of}`],
            // Diverging about an even pair: blue the row loses more often, red it wins more often.
            scale: { domain: [0, 0.5, 1], range: [FALL_COLOUR, NO_CHANGE_COLOUR, RISE_COLOUR], interpolate: 'rgb' },
            legend: { format: '.0%', gradientLength: 200, orient: 'right' },
          },
          tooltip: { field: 'tip', type: 'nominal' },
          description: { field: 'tip', type: 'nominal' },
        },
      },
      ...(step >= NUMBER_STEP
        ? [{ mark: { type: 'text', fontSize: 11, fontWeight: 'bold' }, encoding: { ...enc, text: { field: 'label' }, color: INK } }]
        : []),
    ],
  };
}

/** What the chart says of mispriced entries it could not name: no room left on the panel that would not overprint another name. */
const unnamed = (names: readonly string[]) =>
  `not named on the price panel, no room left beside the other names: ${names.join(', ')} (${names.length === 1 ? 'its point says' : 'their points say'} the name on hover)`;

/**
 * The chart's spec and the notes said with it (stderr, the page): what the chart could not draw. The
 * title names the field; the subtitle the duels and the price line with its r², as the table does.
 */
export function priceChartSpec(r: PriceResult, c: PriceContext): { spec: VlSpec; notes: string[] } {
  const unit = unitOf(c.system);
  const points = pricePoints(r, unit);
  const { labels, unplaced } = points.length > 0 ? priceLabels(points) : { labels: [], unplaced: [] };
  const cells = shareCells(r);
  const n = r.matrix.names.length;
  const curve = r.pricing.curve;
  const unpriced = r.entries.filter((e) => e.price === undefined).map((e) => e.name);
  const line = `Fair price: where an entry's rating meets the line rating = ${curve.a.toFixed(3)} + ${curve.b.toFixed(3)} ln(price), ${
    curve.slopeFrom === 'field' ? `fitted over the ${r.pricing.n} priced entries${r.pricing.rSquared !== undefined ? ` (r² ${r.pricing.rSquared.toFixed(2)})` : ''}` : 'slope given'
  }${curve.anchor ? `, moved through ${curve.anchor} (fair at its price)` : ''}; within ${r.pricing.tolerancePercent}% of the price is fair.`;
  const subtitle = [
    c.field,
    `Exact duels: every pair, ${String(r.matrix.scenario.rounds)} rounds, each side first once; blood markers: policy ${r.matrix.defaultPolicy}; an undecided duel counts half. Ratings: Bradley-Terry.`,
    line,
    'Red: under-priced (worth more than it costs) or winning the pair; blue: over-priced or losing it. Each point and cell says its numbers on hover.',
    ...(unpriced.length > 0 ? [`Not on the price panel (no current price): ${unpriced.join(', ')}.`] : []),
    ...(unplaced.length > 0 ? [`${unnamed(unplaced)}.`] : []),
  ];
  const notes = [
    ...(unpriced.length > 0 ? [`${unpriced.length} unpriced ${unpriced.length === 1 ? 'entry' : 'entries'} only in the heat map`] : []),
    ...(unplaced.length > 0 ? [unnamed(unplaced)] : []),
  ];
  const spec: VlSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: wordWrap(`Fair prices from exact duels: ${n} entries, ${c.system} (${c.edition} edition)`, TITLE_CHARS), subtitle: subtitle.flatMap((l) => wordWrap(l, SUBTITLE_CHARS)) },
    config: CONFIG,
    vconcat: [...(points.length > 0 ? [pricePanel(points, labels, r.pricing.tolerancePercent, unit)] : []), sharePanel(cells, n)],
    spacing: 40,
    // The verdicts' colours and the shares' ramp are two scales with a legend each.
    resolve: { scale: { color: 'independent' }, legend: { color: 'independent' } },
  };
  return { spec, notes };
}
