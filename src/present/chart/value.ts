import type { CostOf, Dimension, DimensionValue } from '../../analysis/dimension-core.js';
import { percent } from '../../text.js';
import { orWorseLabel, outcomeLabel } from '../../labels.js';
import type { SweepResult } from '../../analysis/cells.js';
import { refusal } from '../../messages.js';
import { showValue } from '../../errors.js';
import type { ChartDef, VlSpec } from './definition.js';
import { chancePhrase, countOf, dim, labelsOf, shown } from './shared/cells.js';
import { maxWidth, rowTitlePadding } from './shared/text.js';
import { CHART_WIDTH, CONFIG } from './shared/theme.js';
import { type ChartOptions, header, notAllowedSubtitle } from './shared/titles.js';

/**
 * The value chart: what each weapon, model or side gives for its price, per so much of cost, ranked best
 * first with the outliers marked; and the refusal of a chance too high to divide by cost.
 */

/** How far from the median value a weapon or model is marked as priced too low or too high. */
export const VALUE_OUTLIER_RATIO = 1.5;

/**
 * A value chart reads a chance per ducat as "twice the cost should buy twice the chance", which no
 * chance above one half can do: when every bar's chance is above it, the bars differ by less than a
 * factor of two in what they measure, and dividing by costs that differ by more ranks them by
 * cheapness (a model's 71% to 99% chance of escaping Out of Action per attack). Such a chart is refused
 * (valueRows); the chance of the outcome itself, or the attacks it takes, is what tells them apart.
 */
export const MAX_VALUE_CHANCE = 0.5;

export const DEFAULT_VALUE_PER = 10;

/** Past this many bars a value chart draws them thinner. */
const VALUE_BARS = 30;

const UNDER_PRICED = '#1a9850';

const OVER_PRICED = '#d73027';

const FAIR_PRICE = '#8c8c8c';

/** The median of a non-empty list. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A value of a value chart's `by` dimension with a cost to divide by. */
const priced = (v: DimensionValue) => v.cost !== undefined && v.cost > 0;

/**
 * The values of a value chart's `by` dimension it leaves out: those whose cost is 0 or not given (a
 * weapon that comes with its model, an innate one), which have no value per ducat to show.
 */
export function valueSkipped(sweep: SweepResult, def: Extract<ChartDef, { type: 'value' }>): DimensionValue[] {
  return dim(sweep, def.by).d.values.filter((v) => !priced(v));
}

/** The one line that says which values a value chart left out, naming at most `most` of them. */
export function skippedText(d: Dimension, skipped: readonly DimensionValue[], most = Infinity): string {
  const names = skipped.map((v) => String(v.values[0]));
  const listed = names.length > most ? `${names.slice(0, most).join(', ')} and ${names.length - most} more` : names.join(', ');
  const one = skipped.length === 1;
  // A side is priced by the model and weapon it names from the profiles (sideCost); a weapon may come with its model.
  const why = d.side !== undefined ? `naming no model or weapon of the profiles, or one without a cost` : `innate, or priced with ${one ? 'its' : 'their'} model`;
  return `Left out: ${countOf(d, skipped.length)} whose cost is 0 or not given (${why}): ${listed}.`;
}

type ValueDef = Extract<ChartDef, { type: 'value' }>;

/**
 * What a value chart's bars measure, in words: `what` ("chance of escaping out of action per attack"),
 * `unit` for the axis ("P(escaping out of action)"), `of` (what the bars are: "weapon", "model", "side
 * a") and `buyer`, for whom more is better (report/definition.ts's checkValueDirection allows no other measure).
 */
export function valueMeasure(sweep: SweepResult, def: ValueDef): { what: string; unit: string; of: string; buyer: string } {
  const { d } = dim(sweep, def.by);
  const of = d.side !== undefined ? `side ${d.side}` : d.fields[0] === 'weapon' ? 'weapon' : 'model';
  const buyer = d.side !== undefined ? `side ${d.side}'s buyer` : `the ${of}'s buyer`;
  if (def.mean !== undefined) {
    const label = sweep.cells[0]?.means.find((m) => m.jsonKey === def.mean)?.label ?? def.mean;
    return { what: `expected ${label}`, unit: label, of, buyer };
  }
  const outcome = def.cumulative ? orWorseLabel(def.outcome!) : outcomeLabel(def.outcome!);
  const named = d.side !== undefined ? `chance ${outcome}` : `chance of ${def.survive ? 'escaping ' : ''}${outcome}`;
  return { what: `${named}${chancePhrase(sweep)}`, unit: `P(${def.survive ? 'escaping ' : ''}${outcome})`, of, buyer };
}

/**
 * Per value of the `by` dimension with a cost (see valueSkipped): the measure averaged over the other
 * cells, its cost, and the value. A chance above MAX_VALUE_CHANCE for every bar is refused: divided by
 * cost it would rank the bars by cheapness alone.
 */
export function valueRows(sweep: SweepResult, def: ValueDef) {
  const { d, index } = dim(sweep, def.by);
  const per = def.per ?? DEFAULT_VALUE_PER;
  const measure = (cell: SweepResult['cells'][number]): number => {
    if (def.mean !== undefined) {
      const m = cell.means.find((x) => x.jsonKey === def.mean);
      return m?.value ?? m?.estimate ?? Number.NaN;
    }
    const p = shown(cell.outcomes.find((o) => o.outcome === def.outcome), def.cumulative === true)?.value ?? 0;
    return def.survive ? 1 - p : p;
  };
  const rows = d.values.flatMap((v, i) => {
    if (!priced(v)) return [];
    const cells = sweep.cells.filter((c) => c.point[index] === i);
    const average = cells.reduce((sum, c) => sum + measure(c), 0) / cells.length;
    const cost = v.cost!;
    return [{ name: String(v.values[0]), label: v.label, cost, costOf: v.costOf ?? defaultCostOf(d), measure: average, value: (average / cost) * per }];
  });
  const measured = rows.filter((r) => Number.isFinite(r.measure));
  if (def.mean === undefined && measured.length > 0 && measured.every((r) => r.measure > MAX_VALUE_CHANCE)) refuseSaturatedChance(sweep, def, measured);
  // Like with like: a bare weapon's price is ranked among bare weapons', a whole model's among whole models' (CostOf).
  const medians = new Map(
    COST_KINDS.map((kind) => {
      const mine = rows.filter((r) => r.costOf === kind);
      const finite = mine.map((r) => r.value).filter(Number.isFinite);
      const measures = mine.map((r) => r.measure).filter(Number.isFinite);
      return [kind, { value: finite.length ? median(finite) : Number.NaN, measure: measures.length ? median(measures) : Number.NaN }] as const;
    }),
  );
  return rows.map((r) => {
    const { value: mid, measure: midMeasure } = medians.get(r.costOf)!;
    // A mean some cell does not report (expected attacks where it is not finite) has no value.
    const verdict = !Number.isFinite(r.value) ? 'no value' : r.value >= mid * VALUE_OUTLIER_RATIO ? 'under-priced' : r.value <= mid / VALUE_OUTLIER_RATIO ? 'over-priced' : 'in line';
    // Marked by its price alone: under-priced though it measures less than the median bar (a 2-ducat club), or over-priced though more.
    const byPrice = (verdict === 'under-priced' && r.measure < midMeasure) || (verdict === 'over-priced' && r.measure > midMeasure);
    return { ...r, verdict, byPrice, median: mid, medianMeasure: midMeasure, priceOf: COST_OF_SAID[r.costOf] };
  });
}

/** The kinds of price a value chart ranks apart, in the order its panels show them. */
const COST_KINDS: readonly CostOf[] = ['weapon', 'loadout', 'model'];

/** What each kind of price is the price of, as a chart says it. */
const COST_OF_SAID: Readonly<Record<CostOf, string>> = {
  weapon: "the weapon's own cost",
  loadout: "the whole model's cost, with its weapon",
  model: "the model's cost",
};

/** What a value's cost prices when the dimension does not say: a weapon's its own, a model's or a side's the model's. */
const defaultCostOf = (d: Dimension): CostOf => (d.side !== undefined ? 'loadout' : d.fields[0] === 'weapon' ? 'weapon' : 'model');

function refuseSaturatedChance(sweep: SweepResult, def: ValueDef, rows: readonly { measure: number }[]): never {
  const { what, of } = valueMeasure(sweep, def);
  const lowest = Math.min(...rows.map((r) => r.measure));
  const instead =
    of === 'model'
      ? 'for a model, the attacks it takes ("mean": "expectedAttacks", in a sequence), or escaping a likelier outcome'
      : 'a rarer outcome (e.g. "out-of-action" rather than "down" or worse), or fewer attacks or rounds';
  throw refusal(
    `chart ${showValue(def.file)} (value)`,
    `the ${what} is above ${percent(MAX_VALUE_CHANCE, 0)} for every ${of} (the lowest ${percent(lowest, 1)}), so it cannot double however much is spent, and divided by cost it only ranks the ${of}s by cheapness`,
    `allowed: a chance of at most ${percent(MAX_VALUE_CHANCE, 0)} for some ${of}: ${instead}`,
  );
}

/** Number as a value chart shows its measure: a chance in percent, a mean to 3 decimals. */
const measureText = (def: ValueDef, v: number) => (def.mean !== undefined ? v.toFixed(3) : percent(v, 1));

/**
 * The one line naming the bars marked by their price alone (valueRows' byPrice): a cheap weapon that
 * does less than the median one is under-priced per ducat only for being cheap. None when there are none.
 */
function byPriceText(sweep: SweepResult, def: ValueDef, rows: ReturnType<typeof valueRows>, most = Infinity): string[] {
  const flagged = rows.filter((r) => r.byPrice);
  if (!flagged.length) return [];
  const { what, of } = valueMeasure(sweep, def);
  // With two kinds of price each bar is weighed against the median of its own kind.
  const mixed = new Set(rows.map((r) => r.costOf)).size > 1;
  const named = flagged.map((r) => `${r.label} ${r.verdict}, ${measureText(def, r.measure)}${mixed ? ` (median of its kind ${measureText(def, r.medianMeasure)})` : ''}`);
  const listed = named.length > most ? `${named.slice(0, most).join('; ')} and ${named.length - most} more` : named.join('; ');
  const median = mixed ? `the median ${of}'s priced the same way` : `the median ${of}'s, ${measureText(def, rows[0]!.medianMeasure)}`;
  return [`Marked by price alone (under-priced though its ${what} is below ${median}, or over-priced though above it): ${listed}.`];
}

export function valueChart(sweep: SweepResult, def: ValueDef, opts: ChartOptions): VlSpec {
  const { d } = dim(sweep, def.by);
  const per = def.per ?? DEFAULT_VALUE_PER;
  // Best first; a value that cannot be computed last.
  const rank = (v: number) => (Number.isFinite(v) ? v : -Infinity);
  const rows = valueRows(sweep, def).sort((a, b) => (rank(a.value) === rank(b.value) ? 0 : rank(b.value) > rank(a.value) ? 1 : -1));
  const skipped = valueSkipped(sweep, def);
  const { what, unit, of, buyer } = valueMeasure(sweep, def);
  const others = sweep.dimensions.filter((x) => x.id !== def.by);
  const over = others.length ? `averaged over ${others.map((x) => countOf(x)).join(' and ')}` : 'one cell each';
  const data = rows.map((r) => ({
    ...r,
    text: `${r.value.toFixed(3)}${r.verdict === 'in line' ? '' : ` ${r.verdict}`}`,
    tip: `${r.label}: ${what} ${measureText(def, r.measure)}, cost ${r.cost} (${r.priceOf}): ${r.value.toFixed(4)} per ${per} (median ${r.median.toFixed(4)}; ${r.verdict}${r.byPrice ? ', by its price alone' : ''})`,
  }));
  const labelWidth = maxWidth(data.map((r) => r.label));
  const plotWidth = Math.max(200, CHART_WIDTH - 44 - labelWidth - rowTitlePadding(maxWidth(labelsOf(d))) - 200);
  const enc = {
    y: { field: 'label', type: 'nominal', sort: null, title: d.title, axis: { domain: false, ticks: false, titlePadding: rowTitlePadding(maxWidth(labelsOf(d))) } },
    // Room right of the longest bar for its label.
    x: { field: 'value', type: 'quantitative', title: `${unit} per ${per} of cost`, axis: { grid: true }, scale: { domain: [0, Math.max(...rows.map((r) => r.value).filter(Number.isFinite), 0) * 1.7 || 1], nice: false } },
  };
  // Two kinds of price (bare weapons and whole models) are two panels, each ranked among its own.
  const kinds = COST_KINDS.filter((k) => rows.some((r) => r.costOf === k));
  const mixed = kinds.length > 1;
  const subtitle = [
    `Each bar: ${what}, ${over}, per ${per} of ${mixed ? 'its price' : COST_OF_SAID[kinds[0] ?? defaultCostOf(d)]}; more is better for ${buyer}. Best value first.`,
    ...(mixed ? [`Two kinds of price, ranked apart: ${kinds.map((k) => `${COST_OF_SAID[k]} (${rows.filter((r) => r.costOf === k).length}, median ${rows.find((r) => r.costOf === k)!.median.toFixed(3)})`).join('; ')}.`] : []),
    mixed
      ? `Under-priced (${VALUE_OUTLIER_RATIO}x the median of its kind of price, or more): gives ${buyer} more for the money than the median ${of} priced the same way; over-priced (1/${VALUE_OUTLIER_RATIO} of it or less): less.`
      : `Under-priced (${VALUE_OUTLIER_RATIO}x the median, ${rows[0] ? rows[0].median.toFixed(3) : '-'}, or more): gives ${buyer} more for the money than the median ${of}; over-priced (1/${VALUE_OUTLIER_RATIO} of the median or less): less.`,
    // The page's notes name them all; the chart, which may be read alone, names the first few.
    ...byPriceText(sweep, def, rows, 3),
    ...(skipped.length ? [skippedText(d, skipped, 5)] : []),
    ...notAllowedSubtitle(sweep),
  ];
  // A catalogue's worth of bars at 32 px each would be metres tall: thinner bars past VALUE_BARS.
  const thin = rows.length > VALUE_BARS;
  const verdicts = ['under-priced', 'in line', 'over-priced', ...(rows.some((r) => r.verdict === 'no value') ? ['no value'] : [])];
  const layers = {
    width: plotWidth,
    height: { step: thin ? 18 : 32 },
    layer: [
      {
        mark: { type: 'bar', height: thin ? 12 : 20 },
        encoding: {
          ...enc,
          color: {
            field: 'verdict',
            type: 'nominal',
            title: 'Price',
            scale: { domain: verdicts, range: [UNDER_PRICED, FAIR_PRICE, OVER_PRICED, '#dddddd'].slice(0, verdicts.length) },
          },
          tooltip: { field: 'tip', type: 'nominal' }, description: { field: 'tip', type: 'nominal' },
        },
      },
      { mark: { type: 'text', align: 'left', dx: 4, fontSize: thin ? 11 : 12 }, encoding: { ...enc, text: { field: 'text' } } },
    ],
  };
  const top = { ...header(def, `Value for cost: ${d.title.toLowerCase()}`, subtitle, '', opts), data: { values: data }, config: CONFIG };
  if (!mixed) return { ...top, ...layers };
  // One panel per kind of price, each with only its own bars, titled with what its bars are divided by.
  return {
    ...top,
    facet: { row: { field: 'priceOf', type: 'nominal', sort: kinds.map((k) => COST_OF_SAID[k]), title: null, header: { labelAngle: 0, labelAlign: 'left', labelAnchor: 'start', labelOrient: 'top', labelFontWeight: 'bold', labelLimit: 0, labelExpr: "'Per ' + datum.value" } } },
    spec: layers,
    resolve: { scale: { y: 'independent' } },
  };
}

/**
 * What the report page says under a value chart: the bars marked by their price alone, and the values
 * left out for having no cost. None when there are neither.
 */
export function valueNotes(sweep: SweepResult, def: ValueDef): string[] {
  const skipped = valueSkipped(sweep, def);
  return [...byPriceText(sweep, def, valueRows(sweep, def)), ...(skipped.length ? [skippedText(dim(sweep, def.by).d, skipped)] : [])];
}
