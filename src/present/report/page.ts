import { chartTitle } from '../chart/charts.js';
import { esc, percent } from '../../text.js';
import { worstZ } from '../../stats/index.js';
import { orWorseLabel, outcomeColour, outcomeLabel } from '../../labels.js';
import type { AnalysisRun, ChartRun, DrawnChart, PriceRun, ReportRun } from './result.js';
import { money, reasonText, restsOn, signed } from '../tables/price.js';
import { battleRestsOn } from '../tables/battle-price.js';
import type { Cell, CellOutcome } from '../../analysis/sweep.js';
import { inGridOrder, isNotAllowed, notAllowedLines } from '../../analysis/not-allowed.js';
import { NOT_ALLOWED } from '../tables/sweep.js';
import { findingOf } from '../tables/findings.js';
import { STANDARD_INPUT } from '../../json-text.js';

/** Where a report made from a definition on standard input keeps that definition. */
export const PIPED_DEFINITION = 'definition.json';

/**
 * The report page: one self-contained HTML file. Charts are inline SVG, the style sheet is inline, and
 * nothing is fetched: no fonts, scripts or images from anywhere, so it opens offline, from an e-mail
 * attachment or a shared drive, exactly as it was made. Links to the CSV, JSON and chart files are
 * relative, for whoever has the whole folder.
 */


/**
 * An href from user text (report, analysis and chart ids): each path segment URL-encoded, so no id can
 * form a scheme ("javascript:"), a query or another path, then HTML-escaped for the attribute.
 */
const relHref = (...segments: string[]): string => esc(`./${segments.map(encodeURIComponent).join('/')}`);
const anchorHref = (id: string): string => esc(`#${encodeURIComponent(id)}`);

const STYLE = `
:root { --ink: #1d1d1f; --muted: #5b5b60; --rule: #d9d9de; --band: #f5f5f7; --ok: #1b7a3a; --bad: #b3261e; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 "DejaVu Sans", Verdana, Arial, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1060px; margin: 0 auto; padding: 24px 20px 64px; }
h1 { font-size: 28px; margin: 0 0 6px; }
h2 { font-size: 22px; margin: 48px 0 6px; padding-top: 12px; border-top: 2px solid var(--ink); }
h3 { font-size: 16px; margin: 26px 0 8px; }
p.lede { font-size: 16px; color: var(--muted); margin: 0 0 12px; max-width: 820px; }
p.facts { color: var(--muted); margin: 4px 0 16px; }
nav ol { padding-left: 22px; margin: 8px 0; }
.files a { margin-right: 14px; }
figure.chart { margin: 18px 0 26px; }
figure.chart svg { display: block; max-width: 100%; height: auto; border: 1px solid var(--rule); }
/* A value printed on a mark, or an interval's rule drawn across it, must not take the pointer from the
   mark's hover title (its exact value). */
figure.chart svg text, figure.chart svg .mark-rule > * { pointer-events: none; }
figure.chart svg .role-mark > :is(path, line, rect, circle):not(:has(> title)) { pointer-events: none; }
figure.chart figcaption { font-size: 13px; color: var(--muted); margin-top: 4px; }
figure.chart figcaption a { margin-right: 10px; }
figure.chart .chart-note { display: block; color: var(--ink); margin-top: 4px; max-width: 820px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 13.5px; margin: 6px 0 10px; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--rule); text-align: right; white-space: nowrap; vertical-align: top; }
th { background: var(--band); font-weight: 600; }
th.dim, td.dim { text-align: left; }
td .fr { display: block; font-size: 11.5px; color: var(--muted); }
th .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 5px; border-radius: 2px; vertical-align: baseline; }
tbody tr:nth-child(even) td { background: #fbfbfc; }
.verdict-ok { color: var(--ok); font-weight: 600; }
.verdict-bad { color: var(--bad); font-weight: 600; }
details { margin: 8px 0; }
summary { cursor: pointer; font-weight: 600; }
dl.manifest { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; font-size: 14px; }
dl.manifest dt { font-weight: 600; }
dl.manifest dd { margin: 0; font-family: "DejaVu Sans Mono", monospace; font-size: 13px; word-break: break-all; }
footer { margin-top: 48px; color: var(--muted); font-size: 13px; }
@media print { h2 { break-before: page; } figure.chart svg { border: none; } }
`;

/**
 * Inlined SVGs share one document, so the ids vega gives clip paths and gradients ("gradient_0") would
 * clash between charts: each chart's ids get its own prefix.
 */
export function inlineSvg(svg: string, prefix: string, label: string): string {
  return svg
    .replace(/<\?xml[^>]*>\s*/, '')
    .replace(/\sid="([^"]+)"/g, ` id="${prefix}-$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${prefix}-$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${prefix}-$1"`)
    .replace(/^<svg /, `<svg role="img" aria-label="${esc(label)}" `);
}

/** A chart with its caption: its title, its files, and what it could not show (its notes, one line each). */
function chartFigure(c: ChartRun | DrawnChart, prefix: string): string {
  const f = 'def' in c ? c.def.file : c.file;
  const title = chartTitle(c.spec, f);
  return `<figure class="chart" data-chart="${esc(f)}">
${inlineSvg(c.rendered.svg, prefix, title)}
<figcaption>${esc(title)}. Files: <a href="${relHref('charts', `${f}.png`)}">PNG</a><a href="${relHref('charts', `${f}.svg`)}">SVG</a><a href="${relHref('charts', `${f}.vl.json`)}">Vega-Lite spec (JSON)</a>${c.notes.map((n) => `<span class="chart-note">${esc(n)}</span>`).join('')}</figcaption>
</figure>`;
}

function swatch(id: string): string {
  return `<span class="swatch" style="background:${outcomeColour(id)}"></span>`;
}

/** A table cell for one value: exact (with its fraction) or estimate (with its interval's half-width). */
function valueCell(o: { probability?: number; exact?: string; estimate?: number; ciLow?: number; ciHigh?: number } | undefined): string {
  if (!o) return '<td>–</td>';
  if (o.probability !== undefined) return `<td>${percent(o.probability, 2)}<span class="fr">${esc(o.exact ?? '')}</span></td>`;
  if (o.estimate !== undefined) {
    const half = Math.max(o.estimate - o.ciLow!, o.ciHigh! - o.estimate);
    return `<td>${percent(o.estimate, 2)}<span class="fr">±${(half * 100).toFixed(2)} points</span></td>`;
  }
  return '<td>–</td>';
}

function cumulative(o: CellOutcome | undefined) {
  if (!o) return undefined;
  return {
    ...(o.orWorse !== undefined ? { probability: o.orWorse, exact: o.orWorseExact! } : {}),
    ...(o.orWorseEstimate !== undefined ? { estimate: o.orWorseEstimate, ciLow: o.orWorseCiLow!, ciHigh: o.orWorseCiHigh! } : {}),
  };
}

function dimHeaders(a: AnalysisRun): string {
  return a.sweep.dimensions.map((d) => `<th class="dim" scope="col">${esc(d.title)}</th>`).join('');
}

function dimCells(c: Pick<Cell, 'labels'>): string {
  return c.labels.map((l) => `<td class="dim">${esc(l)}</td>`).join('');
}

function probabilityTable(a: AnalysisRun, cum: boolean): string {
  const ids = cum ? a.sweep.outcomes.slice(1) : a.sweep.outcomes;
  // Every mean any cell reports, in first-seen order: a kind's means may differ from cell to cell (a
  // sequence reports the expected attacks to Out of Action only where it is finite).
  const means = cum ? [] : [...new Map(a.sweep.cells.flatMap((c) => c.means).map((m) => [m.jsonKey, m])).values()];
  const head = `<tr>${dimHeaders(a)}${ids.map((id) => `<th scope="col">${swatch(id)}${esc(cum ? orWorseLabel(id) : outcomeLabel(id))}</th>`).join('')}${means.map((m) => `<th scope="col">${esc(m.label)} (mean)</th>`).join('')}</tr>`;
  const rows = inGridOrder(a.sweep.cells, a.sweep.notAllowed).map((c) => {
    // A cell the rules forbid is listed where it is, with the reason in its tooltip and under the table.
    if (isNotAllowed(c)) return `<tr class="not-allowed">${dimCells(c)}${[...ids, ...means].map(() => `<td title="${esc(c.reason)}">${NOT_ALLOWED}</td>`).join('')}</tr>`;
    const byId = new Map(c.outcomes.map((o) => [o.outcome, o]));
    const values = ids.map((id) => valueCell(cum ? cumulative(byId.get(id)) : byId.get(id))).join('');
    const meanCells = means
      .map((mean) => {
        const m = c.means.find((x) => x.jsonKey === mean.jsonKey);
        if (m === undefined) return '<td>–</td>';
        if (m.value !== undefined) return `<td>${m.value.toFixed(4)}<span class="fr">${esc(m.exact ?? '')}</span></td>`;
        if (m.estimate !== undefined) return `<td>${m.estimate.toFixed(4)}<span class="fr">${m.ciLow!.toFixed(4)}–${m.ciHigh!.toFixed(4)}</span></td>`;
        return '<td>–</td>';
      })
      .join('');
    return `<tr>${dimCells(c)}${values}${meanCells}</tr>`;
  });
  return `<div class="scroll"><table class="numbers" data-table="${cum ? 'cumulative' : 'outcomes'}"><thead>${head}</thead><tbody>${rows.join('\n')}</tbody></table></div>`;
}

/** Which cells the rules forbid and why, one line per reason, under the analysis's facts; nothing when every cell is allowed. */
function notAllowedNote(a: AnalysisRun): string {
  const { dimensions, cells, notAllowed } = a.sweep;
  if (notAllowed.length === 0) return '';
  const lines = notAllowedLines(dimensions, notAllowed, cells.length + notAllowed.length);
  return `\n<p class="facts not-allowed">Not allowed by the rules, so not computed and shown as "${NOT_ALLOWED}": ${lines.map((l) => esc(l)).join('; ')}.</p>`;
}

function checkSection(a: AnalysisRun): string {
  const checked = a.sweep.cells.filter((c) => c.check);
  if (checked.length === 0) return '';
  const failed = checked.filter((c) => !c.check!.passed);
  const minP = Math.min(...checked.map((c) => c.check!.outcomeFit.pValue));
  const alpha = checked[0]!.check!.testAlpha;
  const summary =
    failed.length === 0
      ? `<p><span class="verdict-ok">Simulation agrees with the exact answers</span> in all ${checked.length} cells (chi-square goodness of fit per cell; smallest p-value ${minP.toPrecision(2)}, a cell fails below ${alpha.toExponential(0)}).</p>`
      : `<p><span class="verdict-bad">Simulation disagrees with the exact answers in ${failed.length} of ${checked.length} cells</span>: ${esc(failed[0]!.check!.failures[0] ?? '')}</p>`;
  const rows = checked.map((c) => {
    const k = c.check!;
    return `<tr>${dimCells(c)}<td>${c.sim!.trials.toLocaleString('en-GB')}</td><td>${k.outcomeFit.statistic.toFixed(2)} (${k.outcomeFit.df})</td><td>${k.outcomeFit.pValue.toPrecision(3)}</td><td>${worstZ(k).toFixed(2)}</td><td class="${k.passed ? 'verdict-ok' : 'verdict-bad'}">${k.passed ? 'agrees' : 'disagrees'}</td></tr>`;
  });
  return `<h3>Exact versus simulation</h3>
${summary}
<details><summary>Check per cell</summary>
<div class="scroll"><table class="numbers" data-table="check"><thead><tr>${dimHeaders(a)}<th>trials</th><th>chi-square (df)</th><th>p-value</th><th>largest |z|</th><th>result</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></div>
</details>`;
}

function facts(a: AnalysisRun): string {
  const m = a.sweep.manifest;
  const dims = a.sweep.dimensions.map((d) => `${d.title.toLowerCase()} (${d.values.length})`).join(' × ');
  const sim = m.simulation
    ? `; simulated, ${m.simulation.trialsPerCell.map((t) => t.toLocaleString('en-GB')).join('/')} trials per cell in ${m.simulation.batches} batch(es) from seed ${m.simulation.seed}, the same seeds in every cell (common random numbers)`
    : '';
  const notAllowed = a.sweep.notAllowed.length ? ` (${a.sweep.notAllowed.length} not allowed by the rules)` : '';
  return `<p class="facts">${esc(m.system)}, kind <b>${esc(m.kind)}</b>, edition ${esc(m.editions.join(', '))}; ${a.sweep.cells.length + a.sweep.notAllowed.length} cells${notAllowed}: ${esc(dims)}; ${m.exact ? 'exact' : 'no exact answer'}${esc(sim)}.</p>`;
}

/** Outcomes ranked from mildest to most severe, so "this or worse" means something (not a duel's winners). */
const ranked = (a: AnalysisRun): boolean => a.sweep.cells.every((c) => !c.layout.unranked);

function atLeastSection(a: AnalysisRun): string {
  return `<h3>At least this bad</h3>
<p>The chance of each outcome or a worse one, for questions such as "what is the chance of at least Down?"</p>
${probabilityTable(a, true)}`;
}

/** The analysis's main finding in one sentence (tables/findings.ts), first under its heading: the point before the detail. */
function findingParagraph(a: AnalysisRun): string {
  const finding = findingOf(a.sweep);
  return finding ? `<p class="finding">${esc(finding)}</p>\n` : '';
}

/** An analysis's matrix CSV in the report folder: the grid as `sweep --wide` writes it (src/present/write/report.ts). */
export function matrixFile(analysis: string): string {
  return `matrices/${analysis}.csv`;
}

function analysisSection(a: AnalysisRun, index: number): string {
  const charts = a.charts.map((c, k) => chartFigure(c, `a${index}c${k}`)).join('\n');
  return `<section class="analysis" id="${esc(a.def.id)}">
<h2>${esc(a.def.title)}</h2>
${findingParagraph(a)}${a.def.description ? `<p class="lede">${esc(a.def.description)}</p>` : ''}
${facts(a)}${notAllowedNote(a)}
${charts}
<h3>Probabilities</h3>
<p class="files">As a matrix to paste into a spreadsheet: <a href="${esc(matrixFile(a.def.id))}">${esc(matrixFile(a.def.id))}</a> (what <code>sweep --wide</code> writes)</p>
${probabilityTable(a, false)}
${ranked(a) ? atLeastSection(a) : ''}
${checkSection(a)}
</section>`;
}

/** The one sentence first under a price's heading: its most mispriced entry, or that every price is fair. */
function priceFinding(p: PriceRun): string {
  const e = p.priced.result.entries[0];
  if (e === undefined || e.percent === undefined) return '';
  const tolerance = p.by === 'duels' ? p.priced.result.pricing.tolerancePercent : p.priced.result.tolerancePercent;
  if (e.verdict === 'fair') return `Every entry is priced within ${tolerance}% of fair.`;
  return `Most mispriced: ${e.name}, ${e.verdict} at ${e.price} (fair ${e.fairPrice.toFixed(0)}, ${e.percent > 0 ? '+' : ''}${e.percent.toFixed(0)}%).`;
}

/** A price analysis from battles: what it rests on, the table most mispriced first, what the battles assumed and left out. */
function battlePriceSection(p: Extract<PriceRun, { by: 'battles' }>): string {
  const r = p.priced.result;
  const rows = r.entries.map((e) => {
    const verdict = e.verdict === 'fair' ? 'verdict-ok' : e.verdict === 'unpriced' ? '' : 'verdict-bad';
    const bound = e.bound === 'at-least' ? '≥ ' : e.bound === 'at-most' ? '≤ ' : '';
    return `<tr><td class="dim">${esc(e.name)}</td><td>${money(e.price, '–')}</td><td>${e.count ?? '–'}</td><td>${e.shareAtPrice === undefined ? '–' : percent(e.shareAtPrice, 1)}</td><td>${bound}${money(e.fairPrice)}</td><td>${e.bound === 'exact' ? `${money(e.fairPriceLow)}–${money(e.fairPriceHigh)}` : '–'}</td><td>${signed(e.difference, 1, '–')}</td><td>${e.percent === undefined ? '–' : `${signed(e.percent, 0)}%`}</td><td class="${verdict}">${esc(e.verdict)}</td><td>${e.elo === undefined ? '–' : e.elo.toFixed(0)}</td></tr>`;
  });
  const finding = priceFinding(p);
  const assumed = [...p.priced.notes, ...r.entries.flatMap((e) => (e.outOfField ? [`${e.name}: ${e.outOfField}`] : []))];
  return `<section class="analysis" id="${esc(p.def.id)}">
<h2>${esc(p.def.title)}</h2>
${finding ? `<p class="finding">${esc(finding)}</p>\n` : ''}${p.def.description ? `<p class="lede">${esc(p.def.description)}</p>` : ''}
${battleRestsOn(r, p.priced).map((line) => `<p class="facts">${esc(line.trim())}</p>`).join('\n')}
${chartFigure(p.chart, `p${p.def.at}`)}
<h3>Fair prices, most mispriced first</h3>
<div class="scroll"><table class="numbers" data-table="prices"><thead><tr><th class="dim" scope="col">entry</th><th scope="col">price</th><th scope="col">copies</th><th scope="col">share</th><th scope="col">fair</th><th scope="col">95%</th><th scope="col">fair - price</th><th scope="col">%</th><th scope="col">verdict</th><th scope="col">rating</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></div>
<p class="facts">copies: as many as the ducats buy at its price; share: its battles won against the field at that count, draws half; rating: Elo-like, 400 log10 of the Bradley-Terry strength at equal ducats. Every pair's share: results.json; the table: battle-prices.csv.</p>
${assumed.length ? `<details><summary>Assumed where the profiles say nothing, and entries out of the field (${assumed.length})</summary><ul>${assumed.map((x) => `<li>${esc(x)}</li>`).join('')}</ul></details>` : ''}
${p.priced.leftOut.length ? `<details><summary>Left out of every battle, as the profiles file says (${p.priced.leftOut.length} of the models and weapons of the field)</summary><ul>${p.priced.leftOut.map((x) => `<li>${esc(x.name)}: ${esc(x.note)}</li>`).join('')}</ul></details>` : ''}
</section>`;
}

/** A price analysis: what it rests on, the table most mispriced first, why, and what every duel left out. */
function priceSection(p: PriceRun): string {
  if (p.by === 'battles') return battlePriceSection(p);
  const r = p.priced.result;
  const rows = r.entries.map((e) => {
    const verdict = e.verdict === 'fair' ? 'verdict-ok' : e.verdict === 'unpriced' ? '' : 'verdict-bad';
    return `<tr><td class="dim">${esc(e.name)}</td><td>${money(e.price, '–')}</td><td>${money(e.fairPrice, '–')}</td><td>${signed(e.difference, 1, '–')}</td><td>${e.percent === undefined ? '–' : `${signed(e.percent, 0)}%`}</td><td class="${verdict}">${esc(e.verdict)}</td><td>${e.elo.toFixed(0)}</td><td>${percent(e.meanShare, 1)}</td></tr>`;
  });
  const why = r.entries.filter((e) => e.verdict === 'under-priced' || e.verdict === 'over-priced');
  const finding = priceFinding(p);
  return `<section class="analysis" id="${esc(p.def.id)}">
<h2>${esc(p.def.title)}</h2>
${finding ? `<p class="finding">${esc(finding)}</p>\n` : ''}${p.def.description ? `<p class="lede">${esc(p.def.description)}</p>` : ''}
${restsOn(r, p.priced).map((line) => `<p class="facts">${esc(line.trim())}</p>`).join('\n')}
${chartFigure(p.chart, `p${p.def.at}`)}
<h3>Fair prices, most mispriced first</h3>
<div class="scroll"><table class="numbers" data-table="prices"><thead><tr><th class="dim" scope="col">entry</th><th scope="col">price</th><th scope="col">fair</th><th scope="col">fair - price</th><th scope="col">%</th><th scope="col">verdict</th><th scope="col">rating</th><th scope="col">share</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></div>
<p class="facts">rating: Elo-like, 400 log10 of the Bradley-Terry strength (a gap of 400 is odds of 10 to 1); share: its duels won over the field, undecided half. The exact fractions of every duel: results.json; the table: prices.csv.</p>
${why.length ? `<h3>Where the ratings fit each mispriced entry least</h3>\n<p class="facts">Its share of its duels against that opponent, and what its rating predicts.</p>\n<ul>${why.map((e) => `<li>${esc(e.name)}: ${esc(reasonText(e))}</li>`).join('')}</ul>` : ''}
${p.priced.leftOut.length ? `<details><summary>Left out of every duel, as the profiles file says (${p.priced.leftOut.length} of the models and weapons of the field)</summary><ul>${p.priced.leftOut.map((x) => `<li>${esc(x.name)}: ${esc(x.note)}</li>`).join('')}</ul></details>` : ''}
</section>`;
}

/** The analyses, grids and prices, in the definition's order: each price knows its place, the grids fill the rest. */
function inDefinitionOrder(run: ReportRun): ({ readonly grid: AnalysisRun } | { readonly price: PriceRun })[] {
  const grids = [...run.analyses];
  const total = run.analyses.length + run.prices.length;
  const out: ({ grid: AnalysisRun } | { price: PriceRun })[] = [];
  for (let at = 0; at < total; at++) {
    const price = run.prices.find((p) => p.def.at === at);
    out.push(price ? { price } : { grid: grids.shift()! });
  }
  return out;
}

function manifestSection(run: ReportRun): string {
  const m = run.manifest;
  const item = (k: string, v: string) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`;
  const perAnalysis = m.analyses
    .map((a) =>
      item(
        a.id,
        `${a.kind}, edition ${a.editions.join(', ')}, ${a.cells} cells${a.notAllowed ? ` (${a.notAllowed} not allowed)` : ''}, ${a.exact ? 'exact' : 'not exact'}${a.simulation ? `, seed ${a.simulation.seed}, ${a.simulation.batches} batch(es), trials per cell ${a.simulation.trialsPerCell.join('/')}, ${a.simulation.generator}, chunk ${a.simulation.chunkSize}` : ''}`,
      ),
    )
    .join('');
  const perPrice = m.prices
    .map((p) => item(p.id, p.by === 'duels' ? `price, edition ${p.edition}, ${p.entries} entries, ${p.duels} exact duels of ${p.rounds} rounds, policy ${p.policy}` : `price by battles, edition ${p.edition}, ${p.entries} entries, ${p.battles} battles (${p.games} an entry and count, ${p.ducats} ducats), seed ${p.seed}`))
    .join('');
  return `<section id="manifest"><h2>Reproducibility</h2>
<p>Everything needed to make these numbers again: the same tool version, definition, seeds and trials give the same results on any machine.</p>
<dl class="manifest">
${item('tool', `${m.tool} ${m.version}`)}${item('made', m.date)}${item('node', m.node)}${item('definition', `${m.definition.file} (sha256 ${m.definition.sha256})`)}${item('systems', m.systems.join(', '))}${item('editions', m.editions.join(', '))}${item('rule sources', m.ruleSources.join(', '))}${perAnalysis}${perPrice}
</dl>
<p>To make it again: <code>${esc(m.definition.file === STANDARD_INPUT ? `injury-lab report - --out DIR < ${PIPED_DEFINITION}` : `injury-lab report ${m.definition.file} --out DIR`)}</code>${m.definition.file === STANDARD_INPUT ? ` (the definition came from standard input; ${PIPED_DEFINITION} beside this page is a copy of it)` : ''}</p>
</section>`;
}

export function reportHtml(run: ReportRun): string {
  const def = run.def;
  const ordered = inDefinitionOrder(run);
  const toc = ordered.map((x) => ('grid' in x ? x.grid.def : x.price.def)).map((d) => `<li><a href="${anchorHref(d.id)}">${esc(d.title)}</a></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="injury-lab ${esc(run.manifest.version)}">
<title>${esc(def.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header>
<h1>${esc(def.title)}</h1>
${def.description ? `<p class="lede">${esc(def.description)}</p>` : ''}
<p class="files">Data: <a href="results.csv">results.csv</a><a href="results.json">results.json</a>${run.prices.some((p) => p.by === 'duels') ? '<a href="prices.csv">prices.csv</a>' : ''}${run.prices.some((p) => p.by === 'battles') ? '<a href="battle-prices.csv">battle-prices.csv</a>' : ''} · made ${esc(run.manifest.date)} with injury-lab ${esc(run.manifest.version)} · <a href="#manifest">reproducibility</a></p>
<nav><ol>${toc}</ol></nav>
</header>
${ordered.map((x) => ('grid' in x ? analysisSection(x.grid, run.analyses.indexOf(x.grid)) : priceSection(x.price))).join('\n')}
${manifestSection(run)}
<footer>Made by injury-lab ${esc(run.manifest.version)} from ${esc(def.file)}. Exact values are fractions computed from the rules; simulated values are estimates with 95% intervals.</footer>
</main>
</body>
</html>
`;
}

/** The page linking every report of a batch run. */
export function indexHtml(reports: readonly { id: string; title: string; description: string }[], date: string): string {
  const items = reports.map((r) => `<li><a href="${relHref(r.id, 'index.html')}">${esc(r.title)}</a><br><span class="lede">${esc(r.description)}</span></li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>injury-lab reports</title><style>${STYLE} li { margin: 10px 0; }</style></head>
<body><main><h1>injury-lab reports</h1><p class="facts">Made ${esc(date)}.</p><ol>
${items}
</ol></main></body></html>
`;
}

/**
 * One chart on a page of its own (a command line's `--chart FILE.html`): its title, what was asked, the
 * chart inline (one file that works offline), its notes, and the tool's version.
 */
export function chartPageHtml(page: { readonly title: string; readonly asked: readonly string[]; readonly svg: string; readonly notes: readonly string[]; readonly version: string }): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(page.title)}</title><style>${STYLE}</style></head>
<body><main>
<h1>${esc(page.title)}</h1>
${page.asked.length ? `<p class="lede">${esc(page.asked.join('; '))}</p>` : ''}
<figure class="chart">
${inlineSvg(page.svg, 'chart', page.title)}
${page.notes.length ? `<figcaption>${page.notes.map((n) => `<span class="chart-note">${esc(n)}</span>`).join('')}</figcaption>` : ''}
</figure>
<footer>Made by injury-lab ${esc(page.version)}. Exact values are fractions computed from the rules; simulated values are estimates with 95% intervals.</footer>
</main></body></html>
`;
}
