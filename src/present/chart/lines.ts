import { orWorseLabel, outcomeLabel } from '../../labels.js';
import type { SweepResult } from '../../analysis/cells.js';
import type { ChartDef, VlSpec } from './definition.js';
import { outcomeScale, panelColumns, panelHeader, probabilityAxis, signedLabelExpr } from './shared/axes.js';
import { allExact, dim, labelsOf, possibleOutcomes, shown, titlePhrase, valueTip } from './shared/cells.js';
import { maxWidth, textWidth } from './shared/text.js';
import { CHART_WIDTH, CONFIG, TITLE_SIZE, seriesStyle } from './shared/theme.js';
import { type ChartOptions, header, impossibleLine, notAllowedSubtitle, onePanelPer, provenance } from './shared/titles.js';

/**
 * The lines chart: a probability over an ordered dimension, one line per outcome or per value of a series
 * dimension, with simulated estimates as points and interval bars.
 */

/** The outcomes a lines chart is asked for: the definition's, else every one ("this or worse": but the mildest). */
function lineOutcomes(sweep: SweepResult, def: Extract<ChartDef, { type: 'lines' }>): readonly string[] {
  return def.outcomes ?? (def.cumulative === true ? sweep.outcomes.slice(1) : sweep.outcomes);
}

/**
 * Lines over an ordered dimension: one line per outcome (or per "this or worse"), or, with `series`,
 * one line per value of another dimension for a single outcome. Exact values are drawn as lines; when
 * simulated, the estimates are points with 95% interval bars on top, so exact and simulation can be
 * compared by eye.
 */
export function lines(sweep: SweepResult, def: Extract<ChartDef, { type: 'lines' }>, opts: ChartOptions): VlSpec {
  const { d: xd, index: xi } = dim(sweep, def.x);
  const sd = def.series ? dim(sweep, def.series) : undefined;
  const fd = def.facet ? dim(sweep, def.facet) : undefined;
  const cumulative = def.cumulative === true;
  const asked = lineOutcomes(sweep, def);
  // One line per outcome: those never happening left out; a series' one outcome is drawn at 0 all the same.
  const ids = sd ? asked : possibleOutcomes(sweep, asked, cumulative);
  const name = (id: string) => (cumulative ? orWorseLabel(id) : outcomeLabel(id));
  const rows: Record<string, unknown>[] = [];
  for (const cell of sweep.cells) {
    const byId = new Map(cell.outcomes.map((o) => [o.outcome, o]));
    for (const id of ids) {
      const s = shown(byId.get(id), cumulative);
      if (!s) continue;
      const xValue = cell.scenario[xd.fields[0]!];
      rows.push({
        x: xd.numeric ? xValue : cell.labels[xi],
        series: sd ? cell.labels[sd.index] : name(id),
        ...(fd ? { facet: cell.labels[fd.index] } : {}),
        p: s.value,
        ...(s.low !== undefined ? { lo: s.low, hi: s.high, est: s.estimate ?? s.value } : {}),
        tip: `${cell.labels.join(', ')}: ${name(id)} ${valueTip(s)}`,
      });
    }
  }
  const xNumbers = xd.values.map((v) => v.values[0] as number);
  const x = xd.numeric
    ? {
        field: 'x',
        type: 'quantitative',
        title: xd.title,
        scale: { domain: [Math.min(...xNumbers), Math.max(...xNumbers)], nice: false, zero: false },
        // A precision of its own: vega's axis would otherwise round each given value to its ticks' step (0.25 as 0.3).
        axis: { values: xNumbers.length <= 25 ? xNumbers : undefined, format: xNumbers.every(Number.isInteger) ? 'd' : xNumbers.length <= 25 ? '.6~g' : undefined, labelExpr: signedLabelExpr(xd) },
      }
    : { field: 'x', type: 'ordinal', sort: labelsOf(xd), title: xd.title, axis: { labelAngle: 0 } };
  const seriesLabels = sd ? labelsOf(sd.d) : ids.map(name);
  const lineLegend = { symbolType: 'stroke', symbolStrokeWidth: 3, symbolSize: 400 };
  const colour = sd
    ? {
        field: 'series',
        type: 'nominal',
        sort: seriesLabels,
        title: sd.d.title,
        scale: { domain: seriesLabels, range: seriesLabels.map((_, i) => seriesStyle(i).colour) },
        legend: lineLegend,
      }
    : { field: 'series', type: 'nominal', sort: seriesLabels, title: cumulative ? 'Chance of at least' : 'Outcome', scale: outcomeScale(ids, cumulative), legend: lineLegend };
  const dash = sd ? { strokeDash: { field: 'series', type: 'nominal', sort: seriesLabels, scale: { domain: seriesLabels, range: seriesLabels.map((_, i) => seriesStyle(i).dash) }, title: sd.d.title } } : {};
  const yTitle = sd ? `P(${name(ids[0]!)})` : cumulative ? 'Chance of at least this bad' : 'Probability';
  const hasSim = rows.some((r) => r.lo !== undefined);
  const layers: VlSpec[] = [
    {
      mark: { type: 'line', strokeWidth: 2.5, interpolate: def.interpolate ?? 'linear', point: hasSim && !allExact(sweep) ? false : { filled: true, size: 45 } },
      encoding: { x, y: { field: 'p', type: 'quantitative', axis: probabilityAxis(yTitle), scale: { zero: true } }, color: colour, ...dash, tooltip: { field: 'tip', type: 'nominal' }, description: { field: 'tip', type: 'nominal' } },
    },
  ];
  if (hasSim) {
    layers.push({
      mark: { type: 'errorbar', ticks: { size: 7 }, rule: { strokeWidth: 1.5 } },
      encoding: { x, y: { field: 'lo', type: 'quantitative', title: yTitle }, y2: { field: 'hi' }, color: colour },
    });
    layers.push({
      mark: { type: 'point', shape: 'diamond', filled: true, size: 50, opacity: 1 },
      encoding: { x, y: { field: 'est', type: 'quantitative', title: yTitle }, color: colour, tooltip: { field: 'tip', type: 'nominal' }, description: { field: 'tip', type: 'nominal' } },
    });
  }
  const legendWidth = Math.max(textWidth(sd ? sd.d.title : 'Chance of at least', TITLE_SIZE), maxWidth(seriesLabels)) + 40;
  const facets = fd ? panelColumns(fd.d.values.length, 3) : 1;
  const plotWidth = Math.floor((CHART_WIDTH - 24 - 70 - legendWidth - (facets - 1) * 30) / facets);
  const subtitle = [
    sd
      ? `${cumulative ? 'Chance of' : 'Probability of'} ${name(ids[0]!)} by ${xd.title.toLowerCase()}, one line per ${sd.d.title.toLowerCase()}.`
      : `${cumulative ? 'Chance of each outcome or a worse one' : 'Probability of each outcome'} by ${xd.title.toLowerCase()}.`,
    provenance(sweep, { exact: 'Lines', sim: 'diamonds and bars:' }),
    ...(sd ? [] : impossibleLine(sweep, asked, cumulative)),
    ...coincidingSeries(rows),
    ...notAllowedSubtitle(sweep),
  ];
  const inner = { width: plotWidth, height: fd ? 240 : 340, layer: layers };
  const what = `${sd ? name(ids[0]!) : 'Outcomes'}${titlePhrase(sweep)} by ${xd.title.toLowerCase()}${sd ? `, one line per ${sd.d.title.toLowerCase()}` : ''}${onePanelPer(fd?.d)}`;
  const top = { ...header(def, what, subtitle, '', opts), data: { values: rows }, config: CONFIG };
  if (fd) return { ...top, facet: { field: 'facet', type: 'ordinal', sort: labelsOf(fd.d), title: fd.d.title, header: panelHeader(plotWidth) }, columns: facets, spec: inner };
  return { ...top, ...inner };
}

/**
 * Lines that lie exactly on top of each other hide one another; say which, e.g. "Same values
 * throughout: none + shield = standard." (a shield is worth one step of armour).
 */
function coincidingSeries(rows: readonly Record<string, unknown>[]): string[] {
  const bySeries = new Map<string, string[]>();
  for (const r of rows) {
    const key = `${String(r.facet ?? '')}|${String(r.x)}:${(r.p as number).toPrecision(12)}`;
    bySeries.set(r.series as string, [...(bySeries.get(r.series as string) ?? []), key]);
  }
  const groups = new Map<string, string[]>();
  for (const [series, keys] of bySeries) {
    const sig = keys.join(';');
    groups.set(sig, [...(groups.get(sig) ?? []), series]);
  }
  const same = [...groups.values()].filter((g) => g.length > 1).map((g) => g.join(' = '));
  return same.length ? [`Same values throughout (lines on top of each other): ${same.join('; ')}.`] : [];
}
