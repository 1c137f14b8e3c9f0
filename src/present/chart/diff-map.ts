import { toNumber } from '../../exact/fraction.js';
import { showValue } from '../../errors.js';
import { notOneOf, refusal } from '../../messages.js';
import type { DiffCell, DiffResult } from '../../analysis/diff.js';
import type { FieldValue } from '../../model/types.js';
import { outcomeLabel, points } from '../../labels.js';
import { percent, wordWrap } from '../../text.js';
import { fieldTitle } from '../../labels.js';
import type { ChartAsk } from './defaults.js';
import { CHART_TYPE_FLAG } from './defaults.js';
import type { VlSpec } from './definition.js';
import { panelColumns, panelHeader } from './shared/axes.js';
import { SUBTITLE_CHARS, TITLE_CHARS } from './shared/text.js';
import { CHART_WIDTH, CONFIG, INK } from './shared/theme.js';
import { changeInk, changeScale } from './difference-map.js';

/**
 * `diff --chart-type heatmap|lines --x FIELD ...`: a diff's changes laid out over two of its grid's
 * fields, where its default chart (./diff.ts) lists the largest moves. A diff's grid holds cells of
 * several kinds, each varying its own fields, so the chart takes the cells that vary the fields named,
 * holds every other field at its default (the plain situation: no shield, not Tough, not Down), and
 * shows one outcome's change, OTHER minus BASE, in percentage points, as the report's map of changes
 * does. Several kinds varying the fields named are one panel each.
 */

/** The pseudo-field naming a cell's kind, for --facet (a panel per kind). */
const KIND = 'kind';

/** Where each named field goes, for a heat map (x, y, facet) or lines (x, series, facet). */
interface Placement {
  readonly type: 'heatmap' | 'lines';
  readonly x: string;
  readonly y: string;
  readonly facet?: string;
}

/** `defaults(kind)`: the value a field takes when a scenario of that kind does not give it. */
export type KindDefaults = (kind: string) => Readonly<Record<string, unknown>>;

function placementOf(ask: ChartAsk): Placement {
  const type = ask.type === 'lines' ? 'lines' : 'heatmap';
  const axes = ask.axes ?? {};
  const second = type === 'lines' ? (axes.series ?? axes.y) : (axes.y ?? axes.series);
  if (axes.x === undefined || second === undefined) {
    const needed = type === 'lines' ? '--x FIELD --series FIELD' : '--x FIELD --y FIELD';
    throw refusal(CHART_TYPE_FLAG, `${type}: a diff's grid has cells of several kinds and fields, so its chart is told which two to lay out`, `give ${needed} (e.g. --x injuryDice ${type === 'lines' ? '--series' : '--y'} armour), and --facet FIELD for a third`);
  }
  return { type, x: axes.x, y: second, ...(axes.facet !== undefined ? { facet: axes.facet } : {}) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A value as an axis writes it: a whole number with its sign where the field counts dice or modifiers (+1), else as given. */
function valueText(v: FieldValue | undefined): string {
  return typeof v === 'number' ? (v > 0 ? `+${v}` : String(v)) : String(v);
}

/** A cell of a diff's grid as far as the chart's layout reads it: its kind and its varied fields' values. */
type GridCell = Pick<DiffCell, 'kind' | 'values'>;

/** The chart laid out, checked against the grid's cells before any is evaluated: a typo costs nothing. */
export interface DiffMapPlan {
  readonly place: Placement;
  readonly named: readonly string[];
  readonly kinds: readonly string[];
  readonly facet?: string;
  /** The other varied fields, as held at their defaults ("shield false"). */
  readonly held: readonly string[];
  /** The cells the chart draws. */
  readonly drawn: (c: GridCell) => boolean;
  /** The outcome asked for (--outcome), checked against the drawn cells' once they are evaluated. */
  readonly outcome?: string;
}

/** Plans the chart over a diff's grid cells; `defaults(kind)` holds the fields not laid out. */
export function planDiffMap(gridCells: readonly GridCell[], ask: ChartAsk, defaults: KindDefaults): DiffMapPlan {
  const place = placementOf(ask);
  const named = [place.x, place.y, ...(place.facet !== undefined ? [place.facet] : [])];
  if (new Set(named).size !== named.length) throw refusal(CHART_TYPE_FLAG, `${place.type}: a field is named twice (${named.join(', ')})`, 'name each field once');
  const fieldsOf = (c: GridCell) => Object.keys(c.values);
  const allFields = [...new Set(gridCells.flatMap(fieldsOf)), KIND];
  for (const [flag, field] of [['--x', place.x], [place.type === 'lines' ? '--series' : '--y', place.y], ['--facet', place.facet]] as const) {
    if (field !== undefined && !allFields.includes(field)) throw notOneOf(flag, field, "a field this diff's grid varies", allFields);
  }
  const laid = named.filter((f) => f !== KIND);
  const kinds = [...new Set(gridCells.filter((c) => laid.every((f) => f in c.values)).map((c) => c.kind))];
  if (kinds.length === 0) throw refusal(CHART_TYPE_FLAG, `no kind of this diff's grid varies ${laid.map((f) => showValue(f)).join(' and ')} together`, 'name fields one kind varies (`injury-lab diff --help` names the grid; docs/variants.md lists it)');
  // Several kinds varying the fields: a panel each, unless the facet is taken by a field.
  const facet = place.facet ?? (kinds.length > 1 ? KIND : undefined);
  if (kinds.length > 1 && facet !== KIND) throw refusal('--facet', `${showValue(facet)}: kinds ${kinds.join(', ')} all vary ${laid.join(' and ')}, and each needs its panel`, 'leave --facet out (a panel per kind), or --facet kind');
  // Every other varied field of those cells held at its default: the plain situation.
  const held = new Map<string, unknown>();
  const plains = new Map(kinds.map((k) => [k, defaults(k)]));
  const drawn = (c: GridCell) => {
    if (!kinds.includes(c.kind) || !laid.every((f) => f in c.values)) return false;
    const plain = plains.get(c.kind)!;
    return fieldsOf(c).every((f) => {
      if (named.includes(f)) return true;
      held.set(f, plain[f]);
      return same(c.values[f], plain[f]);
    });
  };
  const count = gridCells.filter(drawn).length;
  const heldText = [...held].map(([f, v]) => `${f} ${String(v)}`);
  if (count === 0) throw refusal(CHART_TYPE_FLAG, `no cell of this grid has ${heldText.join(', ')} (the defaults the chart holds the other fields at)`, 'lay those fields out too (--facet), or give a grid file (--grid) that varies what you mean');
  return { place, named, kinds, ...(facet !== undefined ? { facet } : {}), held: heldText, drawn, ...(ask.outcome !== undefined ? { outcome: ask.outcome } : {}) };
}

/** The planned chart of the evaluated diff: one outcome's change (default: the most severe the drawn cells share). */
export function diffMapSpec(r: DiffResult, plan: DiffMapPlan): VlSpec {
  const { place, named, kinds, facet, held: heldText } = plan;
  const cells = r.cells.filter(plan.drawn);
  const outcomes = [...new Set(cells.flatMap((c) => c.outcomes.map((o) => o.outcome)))];
  const shared = outcomes.filter((o) => cells.every((c) => c.outcomes.some((x) => x.outcome === o)));
  const outcome = plan.outcome ?? shared[shared.length - 1];
  if (outcome === undefined || !shared.includes(outcome)) throw notOneOf('--outcome', plan.outcome ?? '', 'an outcome every cell laid out has', shared);
  const name = outcomeLabel(outcome);
  const at = (c: DiffCell, f: string) => (f === KIND ? c.kind : valueText(c.values[f]));
  const orderOf = (f: string) => {
    const raw = [...new Map(cells.map((c) => [at(c, f), f === KIND ? c.kind : c.values[f]])).entries()];
    // Numbers in increasing order; anything else in the grid's order.
    if (raw.every(([, v]) => typeof v === 'number')) raw.sort((a, b) => (a[1] as number) - (b[1] as number));
    return raw.map(([label]) => label);
  };
  const rows = cells.map((c) => {
    const o = c.outcomes.find((x) => x.outcome === outcome)!;
    const change = toNumber(o.other) - toNumber(o.base);
    return {
      x: at(c, place.x),
      ...(place.type === 'lines' ? { series: at(c, place.y) } : { y: at(c, place.y) }),
      ...(facet !== undefined ? { facet: at(c, facet) } : {}),
      p: change,
      label: points(change, 1),
      tip: `${c.kind}: ${named.filter((f) => f !== KIND).map((f) => `${f} ${at(c, f)}`).join(', ')}: ${name} ${percent(toNumber(o.base), 2)} under ${r.base.label}, ${percent(toNumber(o.other), 2)} under ${r.other.label} (${points(change, 2)} points)`,
    };
  });
  const { reach, inked } = changeInk(rows);
  const title = (f: string) => (f === KIND ? 'Kind' : fieldTitle(f));
  const panels = facet !== undefined ? orderOf(facet) : [];
  const columns = panelColumns(Math.max(1, panels.length), 2);
  const plotWidth = Math.floor((CHART_WIDTH - 220) / columns);
  const x = { field: 'x', type: 'ordinal', sort: orderOf(place.x), title: title(place.x), axis: { labelAngle: 0 } };
  const change = { title: `Change in P(${name}), points`, axis: { format: '+.0%' } };
  const inner =
    place.type === 'heatmap'
      ? {
          width: plotWidth,
          height: { step: 28 },
          layer: [
            {
              mark: { type: 'rect', stroke: 'white' },
              encoding: {
                x,
                y: { field: 'y', type: 'ordinal', sort: orderOf(place.y), title: title(place.y) },
                color: { field: 'p', type: 'quantitative', title: ['Change in', `P(${name})`], scale: changeScale(reach), legend: { format: '+.0%' } },
                tooltip: { field: 'tip', type: 'nominal' },
              },
            },
            { mark: { type: 'text', fontSize: 11 }, encoding: { x, y: { field: 'y', type: 'ordinal', sort: orderOf(place.y) }, text: { field: 'label' }, color: INK } },
          ],
        }
      : {
          width: plotWidth,
          height: 260,
          layer: [
            { mark: { type: 'rule', color: '#555555' }, encoding: { y: { datum: 0 } } },
            {
              mark: { type: 'line', point: true },
              encoding: { x, y: { field: 'p', type: 'quantitative', ...change }, color: { field: 'series', type: 'nominal', sort: orderOf(place.y), title: title(place.y) }, tooltip: { field: 'tip', type: 'nominal' } },
            },
          ],
        };
  const text = `${name.charAt(0).toUpperCase()}${name.slice(1)}: ${r.other.label} against ${r.base.label}, ${title(place.y).toLowerCase()} × ${title(place.x).toLowerCase()}`;
  const subtitle = [
    `${r.system}, ${kinds.join(', ')} cells of the ${r.grid} grid${heldText.length ? `, with ${heldText.join(', ')} (their defaults)` : ''}; exact on both sides.`,
    `The change in the probability of ${name}, in percentage points: red, more likely under ${r.other.label}; blue, less.`,
  ];
  const top: VlSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: wordWrap(text, TITLE_CHARS), subtitle: subtitle.flatMap((l) => wordWrap(l, SUBTITLE_CHARS)) },
    config: CONFIG,
    data: { values: inked },
  };
  return facet !== undefined ? { ...top, facet: { field: 'facet', type: 'ordinal', sort: panels, title: title(facet), header: panelHeader(plotWidth) }, columns, spec: inner } : { ...top, ...inner };
}
