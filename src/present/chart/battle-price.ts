/**
 * `price --by battles --chart FILE`: the prices from battles drawn as prices from duels are
 * (./price.ts): fair against current price on log axes with the diagonal, each fair price with its 95%
 * interval as a bar through its point; below, every pair's share of its battles at equal ducats, the
 * strongest warband first (by its Bradley-Terry rating, else its share against the field).
 */
import type { BattlePriceResult } from '../../pricing/battle-prices.js';
import type { BattlePriceContext } from '../tables/battle-price.js';
import { percent, wordWrap } from '../../text.js';
import { textColourOn } from '../../labels.js';
import type { VlSpec } from './definition.js';
import { SUBTITLE_CHARS, TITLE_CHARS } from './shared/text.js';
import { CONFIG, FALL_COLOUR, NO_CHANGE_COLOUR, RISE_COLOUR, mix } from './shared/theme.js';
import { LABELLED, type PricePoint, type ShareCell, cellNumber, priceLabels, pricePanel, sharePanel, unitOf } from './price.js';

const money = (x: number) => x.toFixed(x < 100 ? 1 : 0);
const signed = (x: number, digits: number) => `${x > 0 ? '+' : ''}${x.toFixed(digits)}`;
const BOUND_WORDS = { exact: '', 'at-least': 'at least ', 'at-most': 'at most ' } as const;

function battlePoints(r: BattlePriceResult, unit: string): PricePoint[] {
  const priced = r.entries.filter((e) => e.price !== undefined);
  const labelled = new Set(priced.filter((e) => e.verdict === 'under-priced' || e.verdict === 'over-priced').slice(0, LABELLED).map((e) => e.name));
  return priced.map((e) => ({
    name: e.name,
    price: e.price!,
    fair: e.fairPrice,
    verdict: e.verdict,
    label: labelled.has(e.name) ? e.name : '',
    tip: `${e.name}: current ${money(e.price!)} ${unit}, fair ${BOUND_WORDS[e.bound]}${money(e.fairPrice)} (95%: ${money(e.fairPriceLow)} to ${money(e.fairPriceHigh)}; ${signed(e.percent!, 1)}%): ${e.verdict}${e.count !== undefined ? `; ${e.count} copies win ${percent(e.shareAtPrice!, 1)} against the field` : ''}`,
    ...(e.bound === 'exact' ? { low: e.fairPriceLow, high: e.fairPriceHigh } : {}),
  }));
}

/** Every ordered pair of the field, strongest first: row i, column j is i's share of its battles against j. */
function battleCells(r: BattlePriceResult): ShareCell[] {
  const names = r.field.map((f) => f.name);
  const strength = new Map((r.fit?.entries ?? []).map((e) => [e.name, e.rating]));
  const shareAt = new Map(r.entries.map((e) => [e.name, e.shareAtPrice ?? 0]));
  const score = (i: number) => strength.get(names[i]!) ?? shareAt.get(names[i]!) ?? 0;
  const order = names.map((_, i) => i).sort((i, j) => score(j) - score(i) || i - j);
  const place = new Map(order.map((entry, k) => [entry, k + 1]));
  return order.flatMap((i) =>
    order
      .filter((j) => j !== i)
      .map((j) => {
        const w = r.shares[i]![j]!;
        return {
          row: `${place.get(i)}. ${names[i]}`,
          column: String(place.get(j)),
          rowName: names[i]!,
          columnName: names[j]!,
          share: w,
          exact: percent(w, 1),
          label: cellNumber(w),
          ink: textColourOn(w < 0.5 ? mix(NO_CHANGE_COLOUR, FALL_COLOUR, 2 * (0.5 - w)) : mix(NO_CHANGE_COLOUR, RISE_COLOUR, 2 * (w - 0.5))),
          tip: `${r.field[i]!.count} x ${names[i]} against ${r.field[j]!.count} x ${names[j]}: ${percent(w, 1)} of ${r.gamesPerMatchup} battles (draws half)`,
        };
      }),
  );
}

export function battlePriceChartSpec(r: BattlePriceResult, c: BattlePriceContext): { spec: VlSpec; notes: string[] } {
  const unit = unitOf(c.system);
  const points = battlePoints(r, unit);
  const { labels, unplaced } = points.length > 0 ? priceLabels(points) : { labels: [], unplaced: [] };
  const unpriced = r.entries.filter((e) => e.price === undefined).map((e) => e.name);
  const subtitle = [
    c.field,
    `Each entry's warband: as many copies as ${r.ducats} ducats buy; ${r.games.toLocaleString('en-US')} battles an entry against the field at each count tried (${r.gamesPerMatchup} a pair); ${c.game}.`,
    `Fair price: where its warband wins half against the field; the bar through a point its 95% interval. ln(fair price) against ln(price): r² ${r.fairPriceRSquared?.toFixed(2) ?? '-'}.`,
    'Red: under-priced (worth more than it costs) or winning the pair; blue: over-priced or losing it. Each point and cell says its numbers on hover.',
    ...(unpriced.length > 0 ? [`Not on the price panel (no current price): ${unpriced.join(', ')}.`] : []),
    ...(unplaced.length > 0 ? [`Not named on the price panel, no room beside the other names: ${unplaced.join(', ')}.`] : []),
  ];
  const spec: VlSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: wordWrap(`Fair prices from battles at ${r.ducats} ducats: ${r.entries.length} entries, ${c.system} (${c.edition} edition)`, TITLE_CHARS), subtitle: subtitle.flatMap((l) => wordWrap(l, SUBTITLE_CHARS)) },
    config: CONFIG,
    vconcat: [...(points.length > 0 ? [pricePanel(points, labels, r.tolerancePercent, unit)] : []), sharePanel(battleCells(r), r.field.length, 'battles')],
    spacing: 40,
    resolve: { scale: { color: 'independent' }, legend: { color: 'independent' } },
  };
  const notes = [
    ...(unpriced.length > 0 ? [`${unpriced.length} unpriced ${unpriced.length === 1 ? 'entry' : 'entries'} off the price panel`] : []),
    ...(unplaced.length > 0 ? [`not named on the price panel, no room left: ${unplaced.join(', ')}`] : []),
  ];
  return { spec, notes };
}
