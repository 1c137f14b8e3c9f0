/**
 * The answer: the exact answer's worker, asked again as the user types; the table of outcomes (with the
 * simulation's estimates once run), the means and notes, the engine's message when there is no answer,
 * the chart, and the answer's downloads. What it tells the rest of the page goes through the hooks
 * page.ts gives it.
 */
import { esc, fieldTitle, orWorseLabel, outcomeLabel, type OpenedFile } from '../engine.js';
import { download, embedChart, fileName, type ChartView } from './chart.js';
import { fractionHtml, pct, ratio } from './format.js';
import type { WorkerReply } from './protocol.js';
import { exact, input, setExact, setState, systemOf, type Input } from './state.js';
import { newWorker, post, shelf } from './workers.js';

export interface AnswerHooks {
  /** The answer's worker read the opened files: what each is to a scenario. */
  readonly opened: (files: readonly OpenedFile[]) => void;
  /** Says a message beside the field at `path`; false when no such field is in sight. */
  readonly errorBesideField: (path: string, text: string) => boolean;
  readonly clearFieldErrors: () => void;
  /** The scenario as the answer filled it in (every default), for the fields left out. */
  readonly filled: (scenario: Input) => void;
  /** An answer is in and shown. */
  readonly answered: () => void;
}

let hooks: AnswerHooks;

export function wireAnswer(h: AnswerHooks): void {
  hooks = h;
}

interface ExactOutcomeJson {
  readonly outcome: string;
  readonly probability: number;
  readonly exact: string;
  readonly orWorse?: number;
  readonly orWorseExact?: string;
}

const topError = document.getElementById('scenario-error')!;
const resultBox = document.getElementById('result')!;
const chartBox = document.getElementById('chart')!;
const summary = document.getElementById('summary')!;
const summaryText = document.getElementById('summary-text')!;
/** The last answer's CSV, as `exact --format csv` gives it (with the estimates once simulated). */
let csv = '';
let chartView: ChartView | undefined;

/**
 * The exact answer's worker. A newer request replaces an older one still running (a duel's chain can
 * take a second): the busy worker is ended and a fresh one started, so typing never queues work.
 */
let exactWorker = exactWorkerStarted();
let exactBusy = false;
/** The request whose answer is wanted: a reply to any other is dropped. */
let requestId = 0;
/** Descriptions of the opened files asked of the worker and not yet given (hooks.opened): asked again of a worker started in its place. */
let describing = 0;

function exactWorkerStarted(): Worker {
  const w = newWorker();
  w.onmessage = (e: MessageEvent<WorkerReply>) => {
    const reply = e.data;
    if (reply.type === 'opened') {
      describing = Math.max(0, describing - 1);
      hooks.opened(reply.files);
      return;
    }
    if (reply.id !== requestId) return;
    exactBusy = false;
    if (reply.type === 'error') showMessage(reply.message, reply.bug);
    else if (reply.type === 'exact') {
      showExact(reply.result);
      showRun(reply.chart, reply.csv);
    }
  };
  return w;
}

/**
 * The answer asked last is wanted no more (a newer one is asked, or the page says why there is none):
 * its reply, should it come, is dropped, and a worker still computing it is ended. A followed link's
 * prompt for its files was once replaced by the answer to the scenario before it, which came in after.
 */
function dropPending(): void {
  requestId++;
  if (!exactBusy) return;
  exactWorker.terminate();
  exactWorker = exactWorkerStarted();
  exactBusy = false;
  // The ended worker's description of the opened files would never come: the new one is asked for it.
  if (describing > 0) {
    describing = 0;
    sendFiles();
  }
}

export function askExact(): void {
  dropPending();
  const id = requestId;
  exactBusy = true;
  setState('computing');
  // The last headline stays, greyed, until the new one is in: the line does not jump at each keystroke.
  summary.dataset.state = 'computing';
  post(exactWorker, { type: 'exact', id, input });
}

/** The opened files, to the answer's worker: it reads them and says what each is (hooks.opened). */
export function sendFiles(): void {
  describing++;
  post(exactWorker, { type: 'files', id: 0, files: [...shelf], describe: true });
}

function clearErrors(): void {
  topError.textContent = '';
  hooks.clearFieldErrors();
}

/**
 * The page's one line in the answer's place (a link's files to open, a scenario box that cannot be
 * read): the answer asked before it is no answer to what is on the form now, and is dropped.
 */
export function showError(message: string, bug: boolean): void {
  dropPending();
  showMessage(message, bug);
}

/** The engine's one line, beside the field it names (it starts "field: ..."), or above the form. */
function showMessage(message: string, bug: boolean): void {
  clearErrors();
  setExact(undefined);
  resultBox.replaceChildren();
  // The last answer's chart is no answer to what is on the form now.
  chartView?.finalize();
  chartView = undefined;
  chartBox.replaceChildren();
  delete chartBox.dataset.state;
  setState('error');
  // "injuryDice: ..." or "a.injuryDice: ...": beside that control, else beside the first part's.
  const path = /^([A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)?)[^:\s]*: /.exec(message)?.[1];
  const text = bug ? `Something went wrong inside injury-lab (please report it): ${message}` : message;
  if (!path || !hooks.errorBesideField(path, text)) topError.textContent = text;
  summary.dataset.state = 'error';
  summaryText.textContent = text;
}

function showExact(result: Record<string, unknown>): void {
  clearErrors();
  setExact(result);
  const outcomes = result.outcomes as readonly ExactOutcomeJson[];
  const ranked = outcomes.some((o) => o.orWorseExact !== undefined);
  const table = document.createElement('table');
  table.id = 'outcomes';
  table.innerHTML = `<caption>${esc(heading(result))}</caption><thead><tr><th scope="col">Outcome</th><th scope="col">Probability</th><th scope="col">Exact</th>${
    ranked ? '<th scope="col">This or worse</th>' : ''
  }<th scope="col" class="sim">Simulated (95% interval)</th><th scope="col" class="sim">Count</th></tr></thead>`;
  const body = document.createElement('tbody');
  for (const o of outcomes) {
    const tr = document.createElement('tr');
    tr.dataset.outcome = o.outcome;
    tr.dataset.exact = ratio(o.exact);
    tr.innerHTML = `<th scope="row">${esc(outcomeLabel(o.outcome))}</th><td>${pct(o.probability)}</td><td>${fractionHtml(o.exact)}</td>${
      ranked ? `<td title="${esc(orWorseLabel(o.outcome))}">${o.orWorse === undefined ? '' : `${pct(o.orWorse)} ${fractionHtml(o.orWorseExact!)}`}</td>` : ''
    }<td class="sim"></td><td class="sim"></td>`;
    body.append(tr);
  }
  table.append(body);
  const means = document.createElement('dl');
  means.id = 'means';
  for (const [key, v] of Object.entries(result)) {
    if (v && typeof v === 'object' && 'exact' in v && 'value' in v) {
      const dt = document.createElement('dt');
      dt.textContent = fieldTitle(key);
      const dd = document.createElement('dd');
      dd.dataset.mean = key;
      dd.dataset.exact = ratio(String((v as { exact: string }).exact));
      dd.innerHTML = `${Number((v as { value: number }).value).toFixed(4)} ${fractionHtml(String((v as { exact: string }).exact))}`;
      means.append(dt, dd);
    }
  }
  const notes = document.createElement('ul');
  notes.className = 'notes';
  for (const n of (result.notes as string[] | undefined) ?? []) {
    const li = document.createElement('li');
    li.textContent = n;
    notes.append(li);
  }
  // What "Allow unmodelled" let through, said with the answer it changes (the CLI's warning line).
  const leftOut = (result.scenario as Record<string, unknown> | undefined)?.notModelled;
  const warning = document.createElement('p');
  warning.id = 'left-out';
  warning.className = 'note warning';
  if (typeof leftOut === 'string') warning.textContent = `Left out, not modelled: ${leftOut}`;
  resultBox.replaceChildren(...(typeof leftOut === 'string' ? [warning] : []), table, ...(means.children.length ? [means] : []), notes);
  summary.dataset.state = 'ready';
  summaryText.innerHTML = headline(result, outcomes, ranked);
  // Refresh the placeholders: a field's default may depend on the others.
  hooks.filled(result.scenario as Input);
  setState('ready');
  hooks.answered();
}

/**
 * The answer in one line, for the top of a narrow window: where outcomes are ranked, the worst one's
 * chance and the chance of the one before it or worse ("out of action 16.87% · down or worse 34.57%");
 * where they are not (a duel), every outcome's ("a wins 28.50% · b wins 23.75% · undecided 47.75%").
 */
function headline(result: Record<string, unknown>, outcomes: readonly ExactOutcomeJson[], ranked: boolean): string {
  const worst = outcomes.at(-1);
  const before = outcomes.at(-2);
  const parts = !ranked
    ? outcomes.map((o) => `${outcomeLabel(o.outcome)} ${pct(o.probability)}`)
    : [
        ...(worst ? [`${outcomeLabel(worst.outcome)} ${pct(worst.probability)}`] : []),
        // Of two outcomes (a check's fail and success) the one before "or worse" is every roll.
        ...(outcomes.length > 2 && before?.orWorse !== undefined ? [`${orWorseLabel(before.outcome)} ${pct(before.orWorse)}`] : []),
      ];
  // Each chance kept whole on its line, its separator with it ("b wins" once broke from its 24.30%).
  return `<span class="kind">${esc(String(result.kind))}</span>: ${parts.map((p, i) => `<span class="part">${esc(p)}${i < parts.length - 1 ? ' ·' : ''}</span>`).join(' ')}`;
}

function heading(result: Record<string, unknown>): string {
  const system = systemOf(result.system);
  const edition = system.editions.find((e) => e.id === result.edition)?.title ?? String(result.edition);
  return `${system.title} (${edition}), ${String(result.kind)}`;
}
/** The simulation's estimates, beside the exact values: each row's estimate, interval and count. */
export function showEstimates(outcomes: readonly { outcome: string; count: number; probability: number; ciLow: number; ciHigh: number }[]): void {
  for (const o of outcomes) {
    const tr = resultBox.querySelector<HTMLTableRowElement>(`tr[data-outcome="${CSS.escape(o.outcome)}"]`);
    if (!tr) continue;
    tr.dataset.count = String(o.count);
    const cells = tr.querySelectorAll('td.sim');
    cells[0]!.textContent = `${pct(o.probability)} (${pct(o.ciLow)}-${pct(o.ciHigh)})`;
    cells[1]!.textContent = o.count.toLocaleString('en-GB');
  }
  resultBox.querySelector('table')?.classList.add('simulated');
}

/** The last run's estimates go: the rows show one run at a time, and none of a scenario since changed. */
export function clearEstimates(): void {
  for (const tr of resultBox.querySelectorAll<HTMLTableRowElement>('tr[data-count]')) delete tr.dataset.count;
  for (const td of resultBox.querySelectorAll('td.sim')) td.textContent = '';
}

/** The chart and CSV of the answer on screen, with a simulation's estimates once run. */
export function showRun(chart: Record<string, unknown>, runCsv: string): void {
  csv = runCsv;
  void drawChart(chart, requestId);
}

async function drawChart(spec: Record<string, unknown>, forRequest: number): Promise<void> {
  chartView = (await embedChart(chartBox, spec, () => forRequest === requestId, chartView)) ?? chartView;
}

// The full answer, below the form on a narrow screen: its heading takes the focus, so the keyboard goes on from there.
document.getElementById('to-answer')!.addEventListener('click', () => {
  const answerHeading = document.getElementById('answer-heading')!;
  answerHeading.focus({ preventScroll: true });
  answerHeading.scrollIntoView({ block: 'start' });
});
// The scenario as the user gave it: `injury-lab exact FILE` reads it unchanged (files it names beside it).
document.getElementById('download-scenario')!.addEventListener('click', () => download(`${fileName()}.json`, 'application/json', JSON.stringify(input, null, 2) + '\n'));
document.getElementById('download-csv')!.addEventListener('click', () => {
  if (csv) download(`${fileName()}.csv`, 'text/csv', csv);
});
document.getElementById('download-svg')!.addEventListener('click', async () => {
  if (chartView) download(`${fileName()}.svg`, 'image/svg+xml', await chartView.toSVG());
});
document.getElementById('download-png')!.addEventListener('click', async () => {
  if (!chartView) return;
  const a = document.createElement('a');
  a.href = await chartView.toImageURL('png', 2);
  a.download = `${fileName()}.png`;
  a.click();
});
// What `injury-lab exact FILE --format json` prints for it.
document.getElementById('download-answer')!.addEventListener('click', () => {
  if (exact) download(`${fileName()}-exact.json`, 'application/json', JSON.stringify(exact, null, 2) + '\n');
});
