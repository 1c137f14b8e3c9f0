/**
 * `injury-lab battle --swap "NEW for OLD"` as a table, JSON and CSV: side a's share in the three battles
 * (as asked, with the swap, without OLD) and what NEW is worth in ducats in this warband
 * (src/pricing/swap-worth.ts).
 */
import type { ResolvedBattle } from '../../rules/trench-crusade/battle/resolved.js';
import { type SideShare, type SwapWorth, points } from '../../pricing/swap-worth.js';
import { jsonText, percent, renderTable, terminalSafeLines, wordWrap, TABLE_COLUMNS } from '../../text.js';
import { csvText } from './csv.js';
import type { Presenter } from './presenter.js';
import { Z95 } from '../../stats/normal.js';

export interface SwapView {
  readonly worth: SwapWorth;
  /** The battle as asked: its sides and settings, said above the table. */
  readonly battle: ResolvedBattle;
  readonly seed: number;
  readonly notes: readonly string[];
}

const counted = (x: { readonly text: string; readonly count: number }) => `${x.text}${x.count > 1 ? ` x${x.count}` : ''}`;
const ducats = (x: number | undefined) => (x === undefined ? 'no cost' : `${Number(x.toFixed(1))} ducats`);
/** The three battles, named short: the header and the verdict name NEW and OLD. */
const battles = (w: SwapWorth) => [['as asked', w.asked], ['with the swap', w.swapped], ['without OLD', w.without]] as const;
const interval = (s: SideShare) => `${percent(s.share - Z95 * s.standardError, 1)} to ${percent(s.share + Z95 * s.standardError, 1)}`;

function verdictLines(v: SwapView): string[] {
  const w = v.worth;
  const lines = [
    `${counted(w.swap.outgoing)} (${ducats(w.outgoingDucats)}) adds ${points(w.outgoingGain.value)} points to side a's share here (95%: ${points(w.outgoingGain.low)} to ${points(w.outgoingGain.high)}); ${counted(w.swap.incoming)} in its place changes it by ${points(w.swapGain.value)} (95%: ${points(w.swapGain.low)} to ${points(w.swapGain.high)}).`,
  ];
  if (w.worth) {
    const price = w.incomingDucats === undefined ? 'it has no price' : `its price ${ducats(w.incomingDucats)}: ${Math.abs(w.difference!).toFixed(0)} ${w.difference! >= 0 ? 'more' : 'less'} than it costs`;
    lines.push(`${counted(w.swap.incoming)} is worth about ${w.worth.value.toFixed(0)} ducats in this warband (95%: ${w.worth.low.toFixed(0)} to ${w.worth.high.toFixed(0)}), ${price}.`);
    lines.push(`(Worth = ${counted(w.swap.outgoing)}'s ducats x (with the swap - without) / (as asked - without): this warband's own rate of ducats to share, on a straight line.)`);
  } else {
    lines.push(`No worth in ducats: ${w.why}.`);
  }
  return lines;
}

function swapTable(v: SwapView): string {
  const w = v.worth;
  const b = v.battle;
  const lines = [
    ...wordWrap(`${b.system} (${b.edition} edition): what NEW, ${counted(w.swap.incoming)}, is worth in side a's warband in place of OLD, ${counted(w.swap.outgoing)}`, TABLE_COLUMNS),
    `  a: ${b.a.label} (tactic ${b.a.tactic}, blood markers: ${b.a.blood})`,
    `  b: ${b.b.label} (tactic ${b.b.tactic}, blood markers: ${b.b.blood})`,
    `  ${w.asked.games.toLocaleString('en-US')} games each, the same seed (${v.seed}); side a's share: its wins, draws half`,
    '',
    renderTable(
      ['side a', 'share', '95% interval', 'wins', 'draws'],
      battles(w).map(([label, s]) => [label, percent(s.share, 1), interval(s), percent(s.aWins / s.games, 1), percent(s.draws / s.games, 1)]),
      [false, true, true, true, true],
    ),
    '',
    ...verdictLines(v).flatMap((l) => wordWrap(l, TABLE_COLUMNS)),
  ];
  if (v.notes.length > 0) lines.push('', ...v.notes.flatMap((n) => wordWrap(`Note: ${n}`, TABLE_COLUMNS)));
  return lines.join('\n') + '\n';
}

function swapJson(v: SwapView) {
  return { ...v.worth, seed: v.seed, a: v.battle.a.label, b: v.battle.b.label, verdict: verdictLines(v), notes: v.notes };
}

/** One row per battle and one per measure: a tidy table a spreadsheet reads. */
function swapCsv(v: SwapView): string {
  const w = v.worth;
  const rows: unknown[][] = [['measure', 'value', 'low', 'high', 'games']];
  for (const [label, s] of battles(w)) rows.push([`share ${label}`, s.share, s.share - Z95 * s.standardError, s.share + Z95 * s.standardError, s.games]);
  rows.push(['gain from outgoing', w.outgoingGain.value, w.outgoingGain.low, w.outgoingGain.high, '']);
  rows.push(['gain from swap', w.swapGain.value, w.swapGain.low, w.swapGain.high, '']);
  rows.push(['worth in ducats', w.worth?.value ?? '', w.worth?.low ?? '', w.worth?.high ?? '', '']);
  rows.push(['price in ducats', w.incomingDucats ?? '', '', '', '']);
  return csvText(rows);
}

export const swapPresenter: Presenter<SwapView, 'table' | 'json' | 'csv'> = {
  table: (v) => terminalSafeLines(swapTable(v)),
  json: (v) => jsonText(swapJson(v)),
  csv: swapCsv,
};
