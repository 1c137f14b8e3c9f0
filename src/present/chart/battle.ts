import { summarize } from '../../stats/summary.js';
import { percent, wordWrap } from '../../text.js';
import type { BattleView } from '../tables/battle.js';
import type { VlSpec } from './definition.js';
import { SUBTITLE_CHARS, TITLE_CHARS, maxWidth } from './shared/text.js';
import { CHART_WIDTH, CONFIG, SERIES_COLOURS } from './shared/theme.js';

/**
 * `battle --chart FILE` (issue 50): the table's answer drawn in two panels, one above the other, each bar
 * with its 95% interval as a whisker.
 *
 * 1. Who wins: a's share of the games, the draws', b's.
 * 2. Each entry's chance that a model of it is still standing at the end, side a's entries first.
 *
 * A side has one colour in both panels (the first two series colours); a draw is grey.
 */

const SIDE_COLOURS = { a: SERIES_COLOURS[0]!, b: SERIES_COLOURS[1]!, draw: '#9a9a9a' } as const;
const BAR_HEIGHT = 26;
const MIN_BAR_WIDTH = 360;

interface Bar {
  readonly label: string;
  readonly side: 'a' | 'b' | 'draw';
  readonly value: number;
  readonly low: number;
  readonly high: number;
  readonly tip: string;
}

function panel(bars: readonly Bar[], title: string, axisTitle: string, labelWidth: number): VlSpec {
  // Entries' names are long: the bars give up width before a name is cut short (vega's estimate of a
  // name runs long, never short, so a limit of it cuts nothing).
  const width = Math.max(MIN_BAR_WIDTH, CHART_WIDTH - labelWidth - 60);
  const y = { field: 'label', type: 'nominal', sort: null, title: null, axis: { labelLimit: labelWidth + 10 } };
  const x = { type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '.0%', title: axisTitle } };
  return {
    title: { text: title, fontSize: 14 },
    width,
    height: BAR_HEIGHT * bars.length,
    data: { values: bars },
    layer: [
      {
        mark: { type: 'bar', height: BAR_HEIGHT - 8 },
        encoding: {
          y,
          x: { ...x, field: 'value' },
          color: { field: 'side', type: 'nominal', scale: { domain: Object.keys(SIDE_COLOURS), range: Object.values(SIDE_COLOURS) }, legend: null },
          tooltip: { field: 'tip', type: 'nominal' },
        },
      },
      { mark: { type: 'rule', color: '#111111' }, encoding: { y, x: { ...x, field: 'low' }, x2: { field: 'high' } } },
      { mark: { type: 'text', align: 'left', dx: 6, fontSize: 12 }, encoding: { y, x: { field: 'high', type: 'quantitative' }, text: { field: 'shown', type: 'nominal' } } },
    ],
    transform: [{ calculate: "format(datum.value, '.1%')", as: 'shown' }],
  };
}

export function battleChartSpec(view: BattleView): { spec: VlSpec; notes: string[] } {
  const { battle, run } = view;
  const s = summarize(run);
  const outcomeSide = { 'a-wins': 'a', draw: 'draw', 'b-wins': 'b' } as const;
  const outcomes: Bar[] = (['a-wins', 'draw', 'b-wins'] as const).map((name) => {
    const o = s.outcomes.find((x) => x.outcome === name)!;
    return { label: name, side: outcomeSide[name], value: o.probability, low: o.ciLow, high: o.ciHigh, tip: `${name}: ${percent(o.probability, 2)} (${percent(o.ciLow, 2)} to ${percent(o.ciHigh, 2)}), ${o.count.toLocaleString('en-US')} games` };
  });
  const byId = new Map(s.means.map((m) => [m.id, m]));
  const entries: Bar[] = (['a', 'b'] as const).flatMap((key) =>
    battle[key].entries.map((entry, e) => {
      const standing = byId.get(`${key}.${e}.standing`)!;
      const n = entry.count;
      const value = standing.value / n;
      return { label: `${key}: ${entry.name}`, side: key, value, low: Math.max(0, standing.ciLow / n), high: Math.min(1, standing.ciHigh / n), tip: `${key}: ${entry.name}: each model standing at the end ${percent(value, 1)}` };
    }),
  );
  const labelWidth = maxWidth([...outcomes, ...entries].map((b) => b.label));
  const title = wordWrap(`A battle: ${battle.a.label} (a) against ${battle.b.label} (b)`, TITLE_CHARS);
  const subtitle = wordWrap(
    `${battle.system} (${battle.edition} edition), ${battle.turns} turns, ${battle.startInches}" apart; a ${battle.a.tactic}, b ${battle.b.tactic}; ${run.trials.toLocaleString('en-US')} games, seed ${run.seed}; bars with their 95% intervals`,
    SUBTITLE_CHARS,
  );
  const spec: VlSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: CONFIG,
    title: { text: title, subtitle },
    vconcat: [panel(outcomes, 'Who wins', 'share of the games', labelWidth), panel(entries, 'Each model standing at the end, by entry', 'chance a model of the entry is standing at the end', labelWidth)],
    spacing: 28,
  };
  return { spec, notes: [...view.notes] };
}
