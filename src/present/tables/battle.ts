/**
 * A simulated battle (issue 50) as a table and as JSON: who won, with 95% intervals; how the games were
 * decided and when they ended, the blood markers each side spent; and per entry, its models standing at the
 * end (and so each model's chance to survive), the enemies it took Out of Action and the attacks it made.
 */
import { battleFields } from '../../rules/trench-crusade/battle/fields.js';
import type { ResolvedBattle, ResolvedBattleSide } from '../../rules/trench-crusade/battle/resolved.js';
import type { SimRun } from '../../sim/play.js';
import { summarize, type MeanSummary } from '../../stats/summary.js';
import { compact, jsonText, percent, percentDigits, percentInterval, renderTable, terminalSafeLines } from '../../text.js';
import type { Presenter } from './presenter.js';
import { csvText } from './csv.js';

export interface BattleView {
  readonly battle: ResolvedBattle;
  readonly run: Omit<SimRun, 'scenario'>;
  readonly notes: readonly string[];
}

const SIDES = ['a', 'b'] as const;

function sideLine(key: string, side: ResolvedBattleSide): string {
  const models = side.entries.reduce((n, e) => n + e.count, 0);
  return `  ${key}: ${side.label} (${models} model${models === 1 ? '' : 's'}; tactic ${side.tactic}, blood markers: ${side.blood})`;
}

function settingsLine(b: ResolvedBattle): string {
  const chances = [b.coverChance > 0 ? `cover ${percent(b.coverChance, 0)} of shots` : '', b.elevationChance > 0 ? `elevated ${percent(b.elevationChance, 0)} of shots` : ''].filter(Boolean);
  const ending = [b.turnExtension !== 'none' ? 'from turn 4 a D6 of 1-2 ends it' : '', b.victory === 'models' ? 'won on models left' : '', b.standUp !== 'half-move' ? 'standing up: half move and -1 DICE' : ''].filter(Boolean);
  return `  ${b.ducats > 0 ? `each side at ${b.ducats} ducats, ` : ''}${b.fieldStrength > 0 ? `field strength ${b.fieldStrength}, ` : ''}${b.turns} turns${ending.length ? ` (${ending.join('; ')})` : ''}, ${b.startInches}" apart, initiative ${b.initiative === 'rules' ? 'by the rules' : `${b.initiative} always`}, morale ${b.morale ? `checked${b.moraleLoss === 'first-failure' ? ' (the first failure loses)' : ''}` : 'off'}${chances.length ? `, ${chances.join(', ')}` : ''}`;
}

/** Each entry's two means and its survival (standing / count), side a's first. */
function entryRows(view: BattleView) {
  const s = summarize(view.run);
  const byId = new Map<string, MeanSummary>(s.means.map((m) => [m.id, m]));
  return SIDES.flatMap((key) =>
    view.battle[key].entries.map((entry, e) => {
      const standing = byId.get(`${key}.${e}.standing`)!;
      const takenOut = byId.get(`${key}.${e}.takenOut`)!;
      const attacks = byId.get(`${key}.${e}.attacks`)!;
      return { side: key, entry, standing, takenOut, attacks, survival: standing.value / entry.count };
    }),
  );
}

const interval = (m: MeanSummary) => `${m.value.toFixed(2)} (${m.ciLow.toFixed(2)} to ${m.ciHigh.toFixed(2)})`;

function battleTable(view: BattleView): string {
  const { battle, run } = view;
  const s = summarize(run);
  const digits = percentDigits(run.trials);
  const lines = [`${battle.system} (${battle.edition} edition): a battle, simulated`, sideLine('a', battle.a), sideLine('b', battle.b), settingsLine(battle), ''];
  lines.push(
    renderTable(
      ['outcome', 'probability', '95% interval', 'games'],
      s.outcomes.map((o) => [o.outcome, percent(o.probability, digits), percentInterval(o.ciLow, o.ciHigh, digits), o.count.toLocaleString('en-US')]),
      [false, true, true, true],
    ),
  );
  const decided = s.histograms.find((h) => h.id === 'decidedBy')!;
  lines.push('', renderTable(['decided by', 'probability', '95% interval'], decided.bins.map((b) => [b.bin, percent(b.probability, digits), percentInterval(b.ciLow, b.ciHigh, digits)]), [false, true, true]));
  lines.push(
    '',
    renderTable(
      ['entry', 'models', 'standing at the end', 'each survives', 'enemies taken out', 'attacks made'],
      entryRows(view).map((r) => [`${r.side}: ${r.entry.name}`, String(r.entry.count), interval(r.standing), percent(r.survival, 1), interval(r.takenOut), r.attacks.value.toFixed(1)]),
      [false, true, true, true, true, true],
    ),
  );
  const turns = s.means.find((m) => m.id === 'turns')!;
  const spent = (key: 'a' | 'b') => s.means.find((m) => m.id === `${key}MarkersSpent`)!;
  lines.push('', `turns played: ${interval(turns)}`, `blood markers spent: a ${interval(spent('a'))}, b ${interval(spent('b'))}`);
  for (const note of view.notes) lines.push(`note: ${note}`);
  lines.push(
    '',
    `${run.trials.toLocaleString('en-US')} games, seed ${run.seed}, ${run.workers} worker${run.workers === 1 ? '' : 's'}, ${run.seconds.toFixed(2)} s (${compact(run.trialsPerSecond)} games/s); ${run.generator}, chunks of ${run.chunkSize}`,
  );
  return lines.join('\n') + '\n';
}

function battleJson(view: BattleView): unknown {
  const { battle, run } = view;
  const s = summarize(run);
  const rows = entryRows(view);
  const side = (key: 'a' | 'b') => ({
    warband: battle[key].label,
    tactic: battle[key].tactic,
    blood: battle[key].blood,
    entries: rows
      .filter((r) => r.side === key)
      .map((r) => ({
        name: r.entry.name,
        count: r.entry.count,
        victoryPoints: r.entry.victoryPoints,
        movement: r.entry.movement,
        weapons: r.entry.weapons,
        standing: { value: r.standing.value, ciLow: r.standing.ciLow, ciHigh: r.standing.ciHigh },
        survival: r.survival,
        takenOut: { value: r.takenOut.value, ciLow: r.takenOut.ciLow, ciHigh: r.takenOut.ciHigh },
        attacks: { value: r.attacks.value, ciLow: r.attacks.ciLow, ciHigh: r.attacks.ciHigh },
      })),
    markersSpent: (({ value, ciLow, ciHigh }) => ({ value, ciLow, ciHigh }))(s.means.find((m) => m.id === `${key}MarkersSpent`)!),
  });
  const turns = s.means.find((m) => m.id === 'turns')!;
  return {
    system: battle.system,
    edition: battle.edition,
    kind: 'battle',
    // Every game setting as declared (src/rules/trench-crusade/battle/fields.ts).
    settings: Object.fromEntries(battleFields.map((f) => [f.name, battle[f.name]])),
    a: side('a'),
    b: side('b'),
    outcomes: s.outcomes,
    expectedTurns: { value: turns.value, ciLow: turns.ciLow, ciHigh: turns.ciHigh },
    histograms: s.histograms,
    notes: view.notes,
    trials: run.trials,
    seed: run.seed,
    workers: run.workers,
    seconds: run.seconds,
    trialsPerSecond: run.trialsPerSecond,
    generator: run.generator,
    chunkSize: run.chunkSize,
  };
}

const CSV_COLUMNS = [
  'system',
  'edition',
  'kind',
  'measure',
  'side',
  'entry',
  'value',
  'ci_low',
  'ci_high',
  'count',
  'models',
  'trials',
  'seed',
  // Every game setting as declared, in snake_case (src/rules/trench-crusade/battle/fields.ts).
  ...battleFields.map((f) => f.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)),
  'a_warband',
  'a_tactic',
  'a_blood',
  'b_warband',
  'b_tactic',
  'b_blood',
] as const;

/**
 * The tidy CSV of a battle: one row per measure (an outcome, how games were decided, the turn they ended
 * in, the turns played, and per entry its models standing, each one's survival and the enemies it took
 * out), each with its estimate and 95% interval, and the battle's settings in columns of their own.
 */
function battleCsv(view: BattleView): string {
  const { battle: b, run } = view;
  const s = summarize(run);
  const settings = [run.trials, run.seed, ...battleFields.map((f) => b[f.name]), b.a.label, b.a.tactic, b.a.blood, b.b.label, b.b.tactic, b.b.blood];
  const row = (measure: string, side: string, entry: string, value: number, low: number, high: number, count: number | '', models: number | '') => [b.system, b.edition, 'battle', measure, side, entry, value, low, high, count, models, ...settings];
  const rows: unknown[][] = [[...CSV_COLUMNS]];
  for (const o of s.outcomes) rows.push(row('outcome', '', o.outcome, o.probability, o.ciLow, o.ciHigh, o.count, ''));
  for (const h of s.histograms) for (const bin of h.bins) rows.push(row(h.id, '', bin.bin, bin.probability, bin.ciLow, bin.ciHigh, bin.count, ''));
  const turns = s.means.find((m) => m.id === 'turns')!;
  rows.push(row('turnsPlayed', '', '', turns.value, turns.ciLow, turns.ciHigh, '', ''));
  for (const key of ['a', 'b'] as const) {
    const m = s.means.find((x) => x.id === `${key}MarkersSpent`)!;
    rows.push(row('markersSpent', key, '', m.value, m.ciLow, m.ciHigh, '', ''));
  }
  for (const r of entryRows(view)) {
    const n = r.entry.count;
    rows.push(row('standing', r.side, r.entry.name, r.standing.value, r.standing.ciLow, r.standing.ciHigh, '', n));
    rows.push(row('survival', r.side, r.entry.name, r.survival, r.standing.ciLow / n, r.standing.ciHigh / n, '', n));
    rows.push(row('takenOut', r.side, r.entry.name, r.takenOut.value, r.takenOut.ciLow, r.takenOut.ciHigh, '', n));
    rows.push(row('attacks', r.side, r.entry.name, r.attacks.value, r.attacks.ciLow, r.attacks.ciHigh, '', n));
  }
  return csvText(rows);
}

export const battlePresenter: Presenter<BattleView, 'table' | 'json' | 'csv'> = {
  table: (view) => terminalSafeLines(battleTable(view)),
  json: (view) => jsonText(battleJson(view)),
  csv: battleCsv,
};
