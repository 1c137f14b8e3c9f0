import { listAllowed, showValue } from '../../errors.js';
import { notAllowed, notOneOf, refusal } from '../../messages.js';
import type { ReportLayout } from '../../model/types.js';
import { sideWinsOutcome } from '../../rules/duel-report.js';
import type { Dimension } from '../../analysis/dimension-core.js';
import { chartDimensions, type ChartDef, type ChartInput } from './definition.js';
import { MAX_BARS } from './stacked-bars.js';

/**
 * A chart checked against the grid it draws: its options for its type, its dimensions among the grid's
 * varied ones (each shown once), its outcomes among the kind's, and a value chart's measure the right
 * way round for its buyer. A report's charts and a command line's (--chart-type, --x, ...) are checked
 * here alike; `at` names the chart in messages ("charts[1] (lines)", "--chart-type lines").
 */

/** Checks a chart against the analysis's dimensions and kind, and returns it with what it implies filled in (a value chart's outcome by a side). */
export function checkChart(c: ChartInput, dims: readonly Dimension[], layout: ReportLayout, at: string): ChartInput {
  const ids = dims.map((d) => d.id);
  const raw: Record<string, unknown> = c;
  const channels: Record<ChartDef['type'], { required: string[]; allowed: string[] }> = {
    'stacked-bars': { required: ['y'], allowed: ['y', 'facet', 'cumulative', 'title', 'file'] },
    lines: { required: ['x'], allowed: ['x', 'series', 'facet', 'outcomes', 'cumulative', 'interpolate', 'title', 'file'] },
    heatmap: { required: ['x', 'y', 'outcome'], allowed: ['x', 'y', 'facet', 'outcome', 'cumulative', 'differenceFrom', 'fullScale', 'title', 'file'] },
    value: { required: ['by'], allowed: ['by', 'outcome', 'cumulative', 'survive', 'mean', 'per', 'title', 'file'] },
  };
  const spec = channels[c.type];
  for (const key of Object.keys(raw)) {
    if (key !== 'type' && !spec.allowed.includes(key)) throw notOneOf(at, key, `an option of a ${c.type} chart`, spec.allowed);
  }
  for (const key of spec.required) if (raw[key] === undefined) throw refusal(at, `missing ${showValue(key)}`);
  const used = chartDimensions(c as unknown as ChartDef);
  for (const d of used) if (!ids.includes(d)) throw notOneOf(at, d, 'a varied dimension of this analysis', ids);
  if (new Set(used).size !== used.length) throw refusal(at, `a dimension is used on two channels (${used.join(', ')})`);
  if (c.type === 'value') return checkValueChart(c, dims, layout, at);
  const missing = ids.filter((d) => !used.includes(d));
  if (missing.length) throw refusal(at, `dimension ${missing.map((m) => showValue(m)).join(', ')} is varied but not shown`, 'put it on a channel (e.g. "facet")');
  const outcomes = [...(raw.outcome !== undefined ? [raw.outcome as string] : []), ...((raw.outcomes as string[] | undefined) ?? [])];
  for (const o of outcomes) if (!layout.outcomes.includes(o)) throw refusal(at, `outcome ${showValue(o)} is not an outcome of this kind`, `allowed: ${listAllowed(layout.outcomes)}`);
  // "Or worse" needs outcomes ranked from mildest to most severe; a duel's (a wins, b wins, undecided) are not.
  if (raw.cumulative === true && layout.unranked) throw refusal(`${at}: cumulative`, 'the outcomes of this kind are not ranked from mildest to most severe, so none is "or worse"', 'leave "cumulative" out');
  if (raw.fullScale !== undefined && raw.differenceFrom !== undefined) throw refusal(`${at}: fullScale`, 'a map of changes (differenceFrom) is coloured by the largest change either way', 'leave "fullScale" out');
  if (raw.differenceFrom !== undefined) {
    const facet = dims.find((d) => d.id === raw.facet);
    if (!facet) throw refusal(at, 'differenceFrom needs "facet": the dimension whose values are compared (e.g. "rules")');
    const labels = facet.values.map((v) => v.label);
    if (!labels.includes(raw.differenceFrom as string)) {
      throw notOneOf(`${at}: differenceFrom`, raw.differenceFrom, `a value of ${facet.id}`, labels);
    }
    if (labels.length < 2) throw refusal(at, `differenceFrom needs at least two values of ${facet.id} to compare`);
  }
  if (c.type === 'lines' && raw.series !== undefined && outcomes.length !== 1) {
    throw refusal(at, 'with "series", name exactly one outcome in "outcomes" (lines are coloured by series)');
  }
  if (c.type === 'stacked-bars') {
    // One bar per cell, 24 px each: a catalogue's grid would be a chart metres tall, and its PNG gigabytes.
    const counts = used.map((id) => dims.find((d) => d.id === id)!.values.length);
    const bars = counts.reduce((n, k) => n * k, 1);
    if (bars > MAX_BARS) {
      throw refusal(
        at,
        `${bars.toLocaleString('en-GB')} bars (${counts.join(' x ')}) are too many to read`,
        `allowed: at most ${MAX_BARS}; draw a heatmap of the grid instead, or vary fewer values`,
      );
    }
  }
  return c;
}

/**
 * A value chart: a weapon or target dimension of which some profiles have costs, and one measure; or a
 * side varied whole (a duel's a or b), whose measure is that side's chance to win. The ones costing
 * nothing (innate, or priced with their model; a side naming no priced profile) are left out of the
 * chart with one note (valueSkipped); only a dimension with nothing to divide by is refused.
 *
 * The measure must be one that more of is better for the buyer of what the bars price, so that
 * "under-priced" always means "more for that buyer's money" (issue 25: a model read as both over- and
 * under-priced on one page): by weapon, the outcome's own chance or a mean that favours the attacker;
 * by model, the chance of escaping the outcome (`survive`) or a mean that favours the target.
 */
function checkValueChart(c: ChartInput, dims: readonly Dimension[], layout: ReportLayout, at: string): ChartInput {
  const raw: Record<string, unknown> = c;
  const by = dims.find((d) => d.id === raw.by)!;
  if (by.side !== undefined) return checkSideValueChart(c, by, by.side, layout, at);
  if (by.fields.length !== 1 || (by.fields[0] !== 'weapon' && by.fields[0] !== 'target')) {
    throw refusal(`${at}: by`, `${showValue(raw.by)} is not a weapon, target or side dimension`, 'allowed: the dimension that varies "weapon" or "target" (their profiles have costs), or a duel\'s side "a" or "b" named from the profiles');
  }
  if (!by.values.some((v) => v.cost !== undefined && v.cost > 0)) {
    throw refusal(at, `no ${by.fields[0] === 'weapon' ? 'weapon' : 'model'} of ${showValue(by.id)} has a cost above 0 in the profiles file`, "a value chart divides by each one's cost");
  }
  if ((raw.outcome === undefined) === (raw.mean === undefined)) throw refusal(at, 'give "outcome" (a chance) or "mean" (an expectation), one of them');
  if (raw.outcome !== undefined && !layout.outcomes.includes(raw.outcome as string)) {
    throw refusal(at, `outcome ${showValue(raw.outcome)} is not an outcome of this kind`, `allowed: ${listAllowed(layout.outcomes)}`);
  }
  if (raw.mean !== undefined && !layout.means.some((m) => m.jsonKey === raw.mean)) {
    throw refusal(at, `mean ${showValue(raw.mean)} is not a mean of this kind`, `allowed: ${listAllowed(layout.means.map((m) => m.jsonKey))}`);
  }
  checkValueDirection(raw, by.fields[0] === 'weapon' ? 'attacker' : 'target', layout, at);
  checkValuePer(raw, at);
  return c;
}

/**
 * Refuses a measure that more of is worse for the buyer the chart prices for: a model's chance of being
 * taken out (its buyer pays to escape it), a weapon's chance of its target escaping, a mean favouring
 * the other side or neither. Priced the wrong way round, "under-priced" would mean a bargain for the
 * opponent, and one model could read as both over- and under-priced on one page.
 */
function checkValueDirection(raw: Record<string, unknown>, role: 'attacker' | 'target', layout: ReportLayout, at: string): void {
  const buyer = role === 'attacker' ? "the weapon's buyer" : "the model's buyer";
  if (raw.mean !== undefined) {
    for (const key of ['survive', 'cumulative']) {
      if (raw[key] !== undefined) throw refusal(`${at}: ${key}`, `${showValue(key)} is for an outcome, and this chart measures mean ${showValue(raw.mean)}`, `leave ${showValue(key)} out`);
    }
    const mean = layout.means.find((m) => m.jsonKey === raw.mean)!;
    if (mean.favours !== role) {
      const fits = layout.means.filter((m) => m.favours === role).map((m) => m.jsonKey);
      const whose = mean.favours === undefined ? 'neither side' : mean.favours === 'attacker' ? "the weapon's buyer" : "the model's buyer";
      throw refusal(`${at}: mean`, `more of ${showValue(raw.mean)} (${mean.label}) is better for ${whose}, not for ${buyer}, whose value this chart prices`, fits.length ? `allowed: ${listAllowed(fits)}, or an outcome` : 'allowed: an outcome');
    }
    return;
  }
  if (role === 'target' && raw.survive !== true) {
    throw refusal(at, `a model's chance of ${showValue(raw.outcome)} is what its buyer pays to escape, so more of it per ducat is no bargain`, 'add "survive": true (the chance of escaping it), or give a "mean" such as "expectedAttacks" (attacks it takes)');
  }
  if (role === 'attacker' && raw.survive === true) {
    throw refusal(`${at}: survive`, "the chance that the target escapes is what the weapon's buyer pays to lower, so more of it per ducat is no bargain", 'leave "survive" out (the chance of the outcome itself)');
  }
}

function checkValuePer(raw: Record<string, unknown>, at: string): void {
  if (raw.per !== undefined && !(typeof raw.per === 'number' && raw.per > 0)) throw notAllowed(`${at}: per`, raw.per, 'a number above 0 (default 10)');
}

/**
 * A value chart by a side varied whole: P(the side wins) per `per` of its cost (its model's and its
 * weapon's), averaged over the other dimensions as a weapon's is. The outcome is the side's win, filled
 * in when left out; the options of another measure are refused, as a side has no other chance to price.
 */
function checkSideValueChart(c: ChartInput, by: Dimension, side: string, layout: ReportLayout, at: string): ChartInput {
  const raw: Record<string, unknown> = c;
  const wins = sideWinsOutcome(side);
  if (wins === undefined || !layout.outcomes.includes(wins)) throw refusal(`${at}: by`, `side ${showValue(side)} has no outcome in which it wins`, 'allowed: a duel\'s side "a" or "b"');
  for (const key of ['mean', 'survive', 'cumulative']) {
    if (raw[key] !== undefined) throw refusal(`${at}: ${key}`, `a value chart by side ${showValue(side)} measures its chance to win (${showValue(wins)})`, `leave ${showValue(key)} out`);
  }
  if (raw.outcome !== undefined && raw.outcome !== wins) throw notAllowed(`${at}: outcome`, raw.outcome, `${showValue(wins)} (a value chart by side ${showValue(side)} measures its chance to win), or leave it out`);
  if (!by.values.some((v) => v.cost !== undefined && v.cost > 0)) {
    throw refusal(at, `no side of ${showValue(by.id)} has a cost above 0`, "a value chart divides by each side's cost: name its model and weapon from the scenario's profiles (\"profiles\", \"roster\" or \"catalogue\"), whose costs are added");
  }
  checkValuePer(raw, at);
  return { ...c, outcome: wins };
}

