import { formatFraction, toNumber } from '../../exact/fraction.js';
import type { DuelOrderResult } from '../../pricing/duel-matrix.js';
import type { PriceLine } from '../../pricing/fair-price.js';
import type { PriceResult, PricedResult } from '../../pricing/price.js';
import { csvText } from './csv.js';
import type { Presenter } from './presenter.js';
import { TABLE_COLUMNS, jsonText, percent, renderTable, terminalSafeLines, wordWrap } from '../../text.js';

/** What the verdicts rest on, said above the table and in the JSON: the duels, the fit, the curve. */
export interface PriceContext {
  /** The field as the user named it: "every model with every melee weapon of examples/profiles.json". */
  readonly field: string;
  readonly system: string;
  readonly edition: string;
  /** What the profiles could not model, by the model or weapon it belongs to: left out of every duel. */
  readonly leftOut: readonly { readonly name: string; readonly note: string }[];
}

/** Below this r² the price line explains less than half of the ratings' spread, and the table says so. */
const WEAK_CURVE = 0.5;
/** Below this r² the line explains almost nothing: its fair prices are extrapolations, and the table says so first. */
const NO_CURVE = 0.2;

/** A price as the table and the report page show it (a decimal below 100), or `none` when there is none. */
export const money = (x: number | undefined, none = '-') => (x === undefined ? none : x.toFixed(x < 100 ? 1 : 0));
/** A difference with its sign, or `none`. */
export const signed = (x: number | undefined, digits: number, none = '-') => (x === undefined ? none : `${x > 0 ? '+' : ''}${x.toFixed(digits)}`);

/** How each way of fitting the price line is said: what it does with the mispriced entries it is fitted to. */
const LINE_WORDS: Readonly<Record<PriceLine, string>> = {
  'theil-sen': 'by Theil-Sen (medians of slopes and intercepts: a few mispriced entries do not tilt it)',
  'least-squares': 'by least squares (every entry pulls on it, the mispriced too)',
};

/** What the verdicts rest on, a line each: the field, the duels, the fit, the line. */
export function restsOn(r: PriceResult, c: PriceContext): string[] {
  const s = r.matrix.scenario;
  const n = r.matrix.names.length;
  const worst = r.fit.largestResiduals[0];
  const curve = r.pricing.curve;
  return [
    `${c.system} (${c.edition} edition): fair prices from exact duels, ${n} entries: ${c.field}`,
    `  Duels: every pair, ${String(s.rounds)} rounds, each order of who goes first once and averaged; blood markers: policy ${r.matrix.defaultPolicy} unless a side says otherwise; an undecided duel counts half (${r.matrix.pairs.length} pairs, ${2 * r.matrix.pairs.length} exact duels).`,
    `  Ratings: Bradley-Terry, P(i beats j) = s_i / (s_i + s_j), fitted to the pairs (${r.fit.converged ? `converged in ${r.fit.iterations} steps` : `NOT converged after ${r.fit.iterations} steps`}${r.fit.prior > 0 ? `, ${r.fit.prior} virtual tied games per pair` : ''})${worst ? `; largest residual ${signed(100 * worst.residual, 1)} points (${worst.first} against ${worst.second}: ${percent(worst.observed, 1)} observed, ${percent(worst.fitted, 1)} fitted)` : ''}.`,
    `  Fair price: rating = ${curve.a.toFixed(3)} + ${curve.b.toFixed(3)} ln(price), ${curve.slopeFrom === 'field' ? `fitted over the ${r.pricing.n} priced entries ${LINE_WORDS[curve.line]}${r.pricing.rSquared !== undefined ? ` (r² ${r.pricing.rSquared.toFixed(2)})` : ''}` : `slope given, placed ${LINE_WORDS[curve.line]}`}${curve.anchor ? `, moved through ${curve.anchor} (fair at its price)` : ''}; within ${r.pricing.tolerancePercent}% of the price is fair.`,
    ...(r.pricing.rSquared !== undefined && r.pricing.rSquared < NO_CURVE
      ? [`  WARNING: price explains almost none of these ratings (r² ${r.pricing.rSquared.toFixed(2)} < ${NO_CURVE}): what these prices pay for is mostly what a duel cannot see (rules not modelled, range, support), so the fair prices below are a line's extrapolations, not verdicts. Read the ratings; narrow the field (--models, --weapons) to entries whose price buys their duel.`]
      : r.pricing.rSquared !== undefined && r.pricing.rSquared < WEAK_CURVE
        ? [`  Note: price explains little of these ratings (r² ${r.pricing.rSquared.toFixed(2)} < ${WEAK_CURVE}): the fair prices lean on a weak line, far ones most; --anchor NAME pins it to an entry whose price you trust.`]
        : []),
  ];
}

/** A line wrapped to TABLE_COLUMNS: its own indentation kept on its first line, `indent` (no shorter) on the rest. */
export function wrapped(line: string, indent: string): string[] {
  const lead = /^ */.exec(line)![0];
  const [first = '', ...rest] = wordWrap(line.slice(lead.length), TABLE_COLUMNS - Math.max(lead.length, indent.length));
  return [lead + first, ...rest.map((l) => indent + l)];
}

/** A titled list under a table: the title, then each item indented, both wrapped to TABLE_COLUMNS; nothing when empty. */
export function listBelow(title: string, items: readonly string[]): string[] {
  return items.length === 0 ? [] : ['', ...wrapped(title, ''), ...items.flatMap((item) => wrapped(`  ${item}`, '    '))];
}

export function reasonText(e: PricedResult): string {
  return e.reasons.map((x) => `against ${x.opponent} ${percent(x.observed, 0)} (rating: ${percent(x.fitted, 0)})`).join('; ');
}

/** The smallest width an entry's name is wrapped to, however many columns the numbers take. */
const MIN_NAME_COLUMN = 24;

/**
 * Rows of the table within TABLE_COLUMNS: a name too long for what the numbers leave is wrapped onto
 * rows of its own below its first (numbers blank), never cut: a shortened name could name another entry.
 */
export function withinWidth(headers: readonly string[], rows: readonly string[][]): string[][] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const numbers = widths.slice(1).reduce((sum, w) => sum + w + 2, 0);
  const nameWidth = Math.max(MIN_NAME_COLUMN, TABLE_COLUMNS - numbers);
  if (widths[0]! <= nameWidth) return [...rows];
  return rows.flatMap(([name, ...rest]) => {
    const [first = '', ...more] = wordWrap(name!, nameWidth - 2);
    return [[first, ...rest], ...more.map((line) => [`  ${line}`, ...rest.map(() => '')])];
  });
}

function priceTable(r: PriceResult, c: PriceContext): string {
  const headers = ['entry', 'price', 'fair', 'diff', '%', 'verdict', 'rating', 'share'];
  const rows = withinWidth(headers, r.entries.map((e) => [e.name, money(e.price), money(e.fairPrice), signed(e.difference, 1), e.percent === undefined ? '-' : `${signed(Math.round(e.percent), 0)}%`, e.verdict, e.elo.toFixed(0), percent(e.meanShare, 1)]));
  const lines = [...restsOn(r, c).flatMap((l) => wrapped(l, l.startsWith('  ') ? '    ' : '  ')), '', 'Most mispriced first (diff: fair - price, positive when it is worth more than it costs):', ''];
  lines.push(renderTable(headers, rows, [false, true, true, true, true, false, true, true]));
  const why = r.entries.filter((e) => e.verdict === 'under-priced' || e.verdict === 'over-priced');
  lines.push(...listBelow('Where the ratings fit each mispriced entry least (its share of its duels against that opponent, and what its rating predicts):', why.map((e) => `${e.name}: ${reasonText(e)}`)));
  lines.push(...listBelow(`Left out of every duel, as the profiles file says (${c.leftOut.length} of the field's models and weapons):`, c.leftOut.map((x) => `${x.name}: ${x.note}`)));
  lines.push('', ...wrapped('rating: Elo-like, 400 log10 of the Bradley-Terry strength (a gap of 400 is odds of 10 to 1); share: its duels won over the field, undecided half.', ''));
  return lines.join('\n') + '\n';
}

/** The price as data: what `price --format json` prints and a report's results.json holds. */
export function priceJson(r: PriceResult, c: PriceContext) {
  return {
    ...c,
    restsOn: restsOn(r, c),
    duels: { scenario: r.matrix.scenario, defaultPolicy: r.matrix.defaultPolicy, pairs: r.matrix.pairs.map((p) => ({ a: r.matrix.names[p.i], b: r.matrix.names[p.j], share: { probability: toNumber(p.share), exact: formatFraction(p.share) }, aFirst: shown(p.aFirst), bFirst: shown(p.bFirst) })) },
    fit: { converged: r.fit.converged, iterations: r.fit.iterations, logLikelihood: r.fit.logLikelihood, prior: r.fit.prior, largestResiduals: r.fit.largestResiduals.slice(0, 10) },
    curve: r.pricing.curve,
    rSquared: r.pricing.rSquared ?? null,
    tolerancePercent: r.pricing.tolerancePercent,
    entries: r.entries,
  };
}

function shown(d: DuelOrderResult) {
  return { aWins: formatFraction(d.aWins), bWins: formatFraction(d.bWins), undecided: formatFraction(d.undecided) };
}

/** The CSV's columns and, a row per entry, most mispriced first: `price --format csv` and a report's prices.csv. */
export const PRICE_CSV_HEADER = ['rank', 'entry', 'price', 'fair_price', 'difference', 'percent', 'verdict', 'rating', 'elo', 'mean_share'] as const;

export function priceCsvRows(r: PriceResult): unknown[][] {
  return r.entries.map((e, i) => [i + 1, e.name, e.price ?? '', e.fairPrice, e.difference ?? '', e.percent ?? '', e.verdict, e.rating, e.elo, e.meanShare]);
}

export function priceCsv(r: PriceResult): string {
  return csvText([[...PRICE_CSV_HEADER], ...priceCsvRows(r)]);
}

export function pricePresenter(c: PriceContext): Presenter<PriceResult> {
  return { table: (r) => terminalSafeLines(priceTable(r, c)), json: (r) => jsonText(priceJson(r, c)), csv: priceCsv };
}
