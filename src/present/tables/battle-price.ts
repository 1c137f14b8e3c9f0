import type { BattlePriceResult, BattlePricedEntry } from '../../pricing/battle-prices.js';
import type { PriceContext } from './price.js';
import { listBelow, money, signed, withinWidth, wrapped } from './price.js';
import { csvText } from './csv.js';
import type { Presenter } from './presenter.js';
import { jsonText, percent, renderTable, terminalSafeLines } from '../../text.js';

/** What prices from battles rest on besides their numbers: the game every battle is, and what it assumed. */
export interface BattlePriceContext extends PriceContext {
  /** The game's settings as asked (turns, tactic, blood, ...): said above the table. */
  readonly game: string;
  readonly notes: readonly string[];
}

/** A fair price as the table says it: a bound where the search reached one. */
function fairText(e: BattlePricedEntry): string {
  if (e.bound === 'at-least') return `>=${money(e.fairPrice)}`;
  if (e.bound === 'at-most') return `<=${money(e.fairPrice)}`;
  return money(e.fairPrice);
}

const interval = (e: BattlePricedEntry) => (e.bound === 'exact' ? `${money(e.fairPriceLow)}-${money(e.fairPriceHigh)}` : '-');

/** What the verdicts rest on, a line each. */
export function battleRestsOn(r: BattlePriceResult, c: BattlePriceContext): string[] {
  const n = r.field.length;
  return [
    `${c.system} (${c.edition} edition): fair prices from battles at ${r.ducats} ducats, ${r.entries.length} entries: ${c.field}`,
    `  Battles: each entry's warband is as many copies as ${r.ducats} ducats buy at its price; each entry fought ${r.games.toLocaleString('en-US')} battles against the field at each count tried, ${r.gamesPerMatchup} against each of the ${n} the ducats field (${r.battles.toLocaleString('en-US')} battles in all, seed ${r.seed}); ${c.game}; a draw counts half.`,
    `  Fair price: the price at which the entry's warband wins half its battles against the field (its mean share over every entry of the field, its own warband too, crosses 1/2 between two whole counts; the count there by a straight line between them, the price ${r.ducats} / count); 95% interval from the battles' sampling; within ${r.tolerancePercent}% of the price is fair.`,
    `  How far the prices explain the battles: ln(fair price) against ln(price), r² ${r.fairPriceRSquared !== undefined ? r.fairPriceRSquared.toFixed(2) : '- (fewer than 3 fair prices that are no bound)'}.`,
    r.fit
      ? `  Ratings: Bradley-Terry fitted to the pairs' shares, each warband's strength at equal ducats (a field priced right rates every entry alike${r.fit.prior > 0 ? `; ${r.fit.prior} virtual tied games per pair` : ''}).`
      : `  Ratings: none (${r.ratingsRefused ?? 'no fit'}).`,
  ];
}

function battlePriceTable(r: BattlePriceResult, c: BattlePriceContext): string {
  const headers = ['entry', 'price', 'count', 'share', 'fair', '95%', 'diff', '%', 'verdict', 'rating'];
  const rows = withinWidth(
    headers,
    r.entries.map((e) => [
      e.name,
      money(e.price),
      e.count === undefined ? '-' : String(e.count),
      e.shareAtPrice === undefined ? '-' : percent(e.shareAtPrice, 1),
      fairText(e),
      interval(e),
      signed(e.difference, 1),
      e.percent === undefined ? '-' : `${signed(Math.round(e.percent), 0)}%`,
      e.verdict,
      e.elo === undefined ? '-' : e.elo.toFixed(0),
    ]),
  );
  const lines = [...battleRestsOn(r, c).flatMap((l) => wrapped(l, l.startsWith('  ') ? '    ' : '  ')), '', 'Most mispriced first (diff: fair - price, positive when it is worth more than it costs):', ''];
  lines.push(renderTable(headers, rows, [false, true, true, true, true, true, true, true, false, true]));
  const out = r.entries.filter((e) => e.outOfField !== undefined);
  lines.push(...listBelow('Not in the field (no one fights them; each still fought the field for its fair price):', out.map((e) => `${e.name}: ${e.outOfField}`)));
  lines.push(...listBelow('Assumed where the profiles say nothing:', c.notes));
  lines.push(...listBelow(`Left out of every battle, as the profiles file says (${c.leftOut.length} of the field's models and weapons):`, c.leftOut.map((x) => `${x.name}: ${x.note}`)));
  lines.push('', ...wrapped('count: copies the ducats buy at its price; share: its battles won against the field at that count, draws half; fair: >= where one copy already wins half, <= where the most copies a warband may hold still lose; rating: Elo-like, 400 log10 of the Bradley-Terry strength.', ''));
  return lines.join('\n') + '\n';
}

/** The prices as data: `price --by battles --format json`. */
export function battlePriceJson(r: BattlePriceResult, c: BattlePriceContext) {
  return {
    ...c,
    by: 'battles',
    restsOn: battleRestsOn(r, c),
    ducats: r.ducats,
    games: r.games,
    gamesPerMatchup: r.gamesPerMatchup,
    seed: r.seed,
    battles: r.battles,
    field: r.field,
    shares: r.field.map((row, i) => ({ entry: row.name, against: Object.fromEntries(r.field.flatMap((col, j) => (i === j ? [] : [[col.name, r.shares[i]![j]]]))) })),
    fit: r.fit ? { converged: r.fit.converged, iterations: r.fit.iterations, prior: r.fit.prior, largestResiduals: r.fit.largestResiduals.slice(0, 10) } : null,
    ...(r.ratingsRefused !== undefined ? { ratingsRefused: r.ratingsRefused } : {}),
    fairPriceRSquared: r.fairPriceRSquared ?? null,
    tolerancePercent: r.tolerancePercent,
    entries: r.entries,
  };
}

export const BATTLE_PRICE_CSV_HEADER = ['rank', 'entry', 'price', 'count', 'share', 'fair_price', 'fair_price_low', 'fair_price_high', 'bound', 'difference', 'percent', 'verdict', 'elo'] as const;

export function battlePriceCsvRows(r: BattlePriceResult): unknown[][] {
  return r.entries.map((e, i) => [i + 1, e.name, e.price ?? '', e.count ?? '', e.shareAtPrice ?? '', e.fairPrice, e.fairPriceLow, e.fairPriceHigh, e.bound, e.difference ?? '', e.percent ?? '', e.verdict, e.elo ?? '']);
}

export function battlePriceCsv(r: BattlePriceResult): string {
  return csvText([[...BATTLE_PRICE_CSV_HEADER], ...battlePriceCsvRows(r)]);
}

export function battlePricePresenter(c: BattlePriceContext): Presenter<BattlePriceResult> {
  return { table: (r) => terminalSafeLines(battlePriceTable(r, c)), json: (r) => jsonText(battlePriceJson(r, c)), csv: battlePriceCsv };
}
