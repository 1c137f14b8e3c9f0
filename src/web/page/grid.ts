/**
 * The grid: a sweep of a field (sweep --vary), a comparison of kept scenarios (compare) or a matrix of
 * every weapon against every model of the profiles in use, exactly and, given trials per cell,
 * simulated; on a worker of its own so that a big sweep never holds up the answer. It owns its part of
 * the link (&vary=, &compare=, &matrix=1, &gridTrials=, &gridSeed=) and its downloads.
 */
import { esc, forbiddenKeyIn, forbiddenKeyProblem, outcomeLabel } from '../engine.js';
import { download, embedChart, fileName, type ChartView } from './chart.js';
import { fractionHtml, pct, ratio, seedAndTrials } from './format.js';
import { profileNames, withoutPicks } from './profiles.js';
import type { GridSim, WorkerReply } from './protocol.js';
import { input, linkProblem, systemOf, writeHash, type Input } from './state.js';
import { newWorker, post } from './workers.js';

const sweepForm = document.getElementById('sweep-form') as HTMLFormElement;
const varyInput = document.getElementById('vary') as HTMLInputElement;
const gridTrialsInput = document.getElementById('grid-trials') as HTMLInputElement;
const gridSeedInput = document.getElementById('grid-seed') as HTMLInputElement;
const keepButton = document.getElementById('keep') as HTMLButtonElement;
const compareButton = document.getElementById('compare') as HTMLButtonElement;
const keptList = document.getElementById('kept')!;
const gridError = document.getElementById('grid-error')!;
const gridResult = document.getElementById('grid-result')!;
const gridChart = document.getElementById('grid-chart')!;
const gridDownloads = document.getElementById('grid-downloads')!;
const matrixRow = document.getElementById('matrix-row')!;
const valueFigure = document.getElementById('value-figure')!;
const valueChart = document.getElementById('value-chart')!;
const valueNote = document.getElementById('value-note')!;

/** The scenarios kept for a comparison, each with its name (what the verdicts call it). */
let kept: { name: string; raw: Input }[] = [];
/** What the grid shows: a sweep's --vary, or a comparison; in the link as &vary= or &compare=. */
let grid: { vary: string } | { compare: true } | { matrix: true } | undefined;
let gridCsv = '';
/** The grid as `--wide` writes it: the matrix a spreadsheet user pastes; its button says what fills the cells. */
let gridWide = '';
const wideButton = document.getElementById('download-grid-wide') as HTMLButtonElement;
let gridView: ChartView | undefined;
let valueView: ChartView | undefined;
let gridRequest = 0;
/** The grid's simulation (--trials per cell and --seed), or none: exact only. In the link as &gridTrials= and &gridSeed=. */
let gridSim: GridSim | undefined;

/** Reads the grid's trials and seed as the CLI reads --trials and --seed; no trials: exact only. A bad value is said where the grid shows, and nothing runs. */
function readGridSim(): boolean {
  const trials = gridTrialsInput.value.trim();
  try {
    gridSim = trials === '' ? undefined : seedAndTrials(gridSeedInput.value, trials);
    return true;
  } catch (err) {
    gridError.textContent = (err as Error).message;
    gridResult.dataset.state = 'error';
    return false;
  }
}

/** A kept scenario's name: the fields it sets ("armour=machine, shield=true"), or "attack defaults". */
function nameOf(raw: Input): string {
  const parts = Object.entries(raw)
    .filter(([k]) => k !== 'system' && k !== 'kind')
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  const base = parts.length ? parts.join(', ') : `${String(raw.kind ?? systemOf(raw.system).kinds[0]!.id)} defaults`;
  let name = base;
  for (let n = 2; kept.some((k) => k.name === name); n++) name = `${base} (${n})`;
  return name;
}

function showKept(): void {
  keptList.replaceChildren(
    ...kept.map((k) => {
      const li = document.createElement('li');
      li.textContent = k.name;
      return li;
    }),
  );
  compareButton.disabled = kept.length < 2;
}

keepButton.addEventListener('click', () => {
  kept.push({ name: nameOf(input), raw: structuredClone(input) });
  showKept();
  writeHash();
});

document.getElementById('clear-kept')!.addEventListener('click', () => {
  kept = [];
  showKept();
  if (grid && 'compare' in grid) clearGrid();
  writeHash();
});

compareButton.addEventListener('click', () => {
  if (!readGridSim()) return;
  grid = { compare: true };
  writeHash();
  askGrid();
});

document.getElementById('matrix')!.addEventListener('click', () => {
  grid = { matrix: true };
  writeHash();
  askGrid();
});

sweepForm.addEventListener('submit', (e) => {
  e.preventDefault();
  if (!readGridSim()) return;
  grid = { vary: varyInput.value.trim() };
  writeHash();
  askGrid();
});

/**
 * Ends the grid's work in flight: its worker, and any reply or chart of it still on its way (a reply
 * already sent is ignored, as a newer request's are: its id is no longer the current one).
 */
function stopGridWork(): void {
  gridRequest++;
  gridWorker?.terminate();
  gridWorker = undefined;
}

/** Stops the grid's work and empties what it showed; `state` is what the grid's result says then (none: no grid). */
function emptyGrid(state?: 'waiting'): void {
  stopGridWork();
  gridError.textContent = '';
  gridResult.replaceChildren();
  gridView?.finalize();
  gridView = undefined;
  gridChart.replaceChildren();
  gridDownloads.hidden = true;
  if (state) gridResult.dataset.state = state;
  else delete gridResult.dataset.state;
  clearValue();
}

function clearGrid(): void {
  grid = undefined;
  emptyGrid();
}

function clearValue(): void {
  valueView?.finalize();
  valueView = undefined;
  valueChart.replaceChildren();
  valueFigure.hidden = true;
  valueNote.textContent = '';
}

/** The grid's own worker: a big sweep must not hold up the answer as the user types. A newer grid ends it. */
let gridWorker: Worker | undefined;

export function askGrid(): void {
  if (!grid) return;
  const id = ++gridRequest;
  gridWorker?.terminate();
  const w = newWorker();
  gridWorker = w;
  gridError.textContent = '';
  gridResult.dataset.state = 'computing';
  w.onmessage = (e: MessageEvent<WorkerReply>) => {
    const reply = e.data;
    if (reply.id !== id || id !== gridRequest) return;
    if (reply.type === 'error') {
      gridResult.replaceChildren();
      gridChart.replaceChildren();
      gridDownloads.hidden = true;
      gridError.textContent = reply.bug ? `Something went wrong inside injury-lab (please report it): ${reply.message}` : reply.message;
      gridResult.dataset.state = 'error';
      delete gridResult.dataset.kind;
    } else if (reply.type === 'swept' || reply.type === 'compared') {
      showGrid(reply.type, reply.json, reply.words);
      gridCsv = reply.csv;
      gridWide = reply.wide.text;
      wideButton.title = reply.wide.note.replace(/^wide CSV: /, '');
      void drawGridChart(reply.chart, id);
      clearValue();
      valueNote.textContent = reply.valueNote ?? '';
      if (reply.value) {
        valueFigure.hidden = false;
        void embedChart(valueChart, reply.value, () => id === gridRequest, undefined).then((v) => (valueView = v));
      }
    } else return;
    w.terminate();
    if (gridWorker === w) gridWorker = undefined;
  };
  const sim = gridSim ? { sim: gridSim } : {};
  if ('vary' in grid) post(w, { type: 'sweep', id, input, vary: grid.vary, ...sim });
  else if ('matrix' in grid) {
    const names = profileNames();
    if (!names) {
      gridError.textContent = 'matrix: no profiles in use; open a profiles file, roster or catalogue and use it first';
      gridResult.dataset.state = 'error';
      return;
    }
    post(w, { type: 'matrix', id, input: withoutPicks(input), weapons: names.weapons, models: names.models });
  } else post(w, { type: 'compare', id, scenarios: kept, ...sim });
}

interface GridOutcome {
  readonly outcome: string;
  readonly exact?: string;
  readonly probability?: number;
  /** A simulated grid's estimate and its 95% interval. */
  readonly estimate?: number;
  readonly ciLow?: number;
  readonly ciHigh?: number;
}

/** A simulated cell's estimate and 95% interval, beside its exact value. */
function estimateText(o: GridOutcome): string {
  return o.estimate === undefined ? '' : ` <span class="sim" data-estimate="${o.estimate}">sim ${pct(o.estimate)} (${pct(o.ciLow!)}-${pct(o.ciHigh!)})</span>`;
}

/** Rows of outcomes: a sweep's cells by their labels, or the compared scenarios by name; then the words. */
function showGrid(type: 'swept' | 'compared', json: Record<string, unknown>, words: readonly string[]): void {
  const outcomes = json.outcomes as readonly string[];
  const rows =
    type === 'swept'
      ? (json.cells as readonly { labels: string[]; outcomes?: GridOutcome[]; allowed?: boolean; reason?: string }[]).map((c) => ({
          name: c.labels.join(', '),
          outcomes: c.outcomes ?? [],
          note: c.allowed === false ? (c.reason ?? 'not allowed') : undefined,
        }))
      : (json.scenarios as readonly { name: string; outcomes: GridOutcome[] }[]).map((s) => ({ name: s.name, outcomes: s.outcomes, note: undefined }));
  const table = document.createElement('table');
  table.id = 'grid-table';
  const head = type === 'swept' ? (json.dimensions as readonly { title: string }[]).map((d) => d.title).join(', ') : 'Scenario';
  table.innerHTML = `<thead><tr><th scope="col">${esc(head)}</th>${outcomes.map((o) => `<th scope="col">${esc(outcomeLabel(o))}</th>`).join('')}</tr></thead>`;
  const body = document.createElement('tbody');
  for (const r of rows) {
    const tr = document.createElement('tr');
    tr.dataset.row = r.name;
    const byId = new Map(r.outcomes.map((o) => [o.outcome, o]));
    tr.innerHTML =
      `<th scope="row">${esc(r.name)}</th>` +
      (r.note !== undefined
        ? `<td colspan="${outcomes.length}">not allowed: ${esc(r.note)}</td>`
        : outcomes
            .map((id) => {
              const o = byId.get(id);
              return o?.exact === undefined ? '<td>-</td>' : `<td data-outcome="${esc(id)}" data-exact="${esc(ratio(o.exact))}">${pct(o.probability!)} ${fractionHtml(o.exact)}${estimateText(o)}</td>`;
            })
            .join(''));
    body.append(tr);
  }
  table.append(body);
  const list = document.createElement('ul');
  list.className = 'words';
  for (const w of words) {
    const li = document.createElement('li');
    li.textContent = w;
    list.append(li);
  }
  gridResult.replaceChildren(list, table);
  gridResult.dataset.state = 'ready';
  gridResult.dataset.kind = type;
  gridDownloads.hidden = false;
}

async function drawGridChart(spec: Record<string, unknown>, forRequest: number): Promise<void> {
  gridView = (await embedChart(gridChart, spec, () => forRequest === gridRequest, gridView)) ?? gridView;
}

const gridName = () => `${fileName()}-${grid && 'vary' in grid ? 'sweep' : grid && 'matrix' in grid ? 'matrix' : 'compare'}`;
document.getElementById('download-grid-csv')!.addEventListener('click', () => {
  if (gridCsv) download(`${gridName()}.csv`, 'text/csv', gridCsv);
});
wideButton.addEventListener('click', () => {
  if (gridWide) download(`${gridName()}-matrix.csv`, 'text/csv', gridWide);
});
document.getElementById('download-grid-svg')!.addEventListener('click', async () => {
  if (gridView) download(`${gridName()}.svg`, 'image/svg+xml', await gridView.toSVG());
});


/** The grid's part of the link. */
export function gridInLink(): readonly string[] {
  const parts: string[] = [];
  if (grid && 'vary' in grid) parts.push(`vary=${encodeURIComponent(grid.vary)}`);
  if (gridSim && grid && !('matrix' in grid)) parts.push(`gridTrials=${gridSim.trials}`, `gridSeed=${gridSim.seed}`);
  if (grid && 'matrix' in grid) parts.push('matrix=1');
  if (kept.length) parts.push(`compare=${encodeURIComponent(JSON.stringify(kept))}`);
  return parts;
}

/** The grid a link gives: its sweep, matrix or kept scenarios, and its trials and seed; asked for by askGrid. */
export function gridFromLink(params: URLSearchParams): void {
  clearGrid();
  gridSim = undefined;
  const gridTrials = params.get('gridTrials');
  gridTrialsInput.value = gridTrials ?? '';
  gridSeedInput.value = params.get('gridSeed') ?? '';
  if (gridTrials !== null) {
    try {
      gridSim = seedAndTrials(params.get('gridSeed') ?? '', gridTrials);
    } catch (err) {
      linkProblem(`This link's sweep or comparison cannot be simulated (it is answered exactly): ${(err as Error).message}`);
    }
  }
  const vary = params.get('vary');
  const compare = params.get('compare');
  kept = [];
  if (compare !== null) {
    try {
      const list = JSON.parse(compare) as unknown;
      if (!Array.isArray(list) || !list.every((k) => k && typeof k === 'object' && typeof k.name === 'string' && k.raw && typeof k.raw === 'object' && !Array.isArray(k.raw))) throw new Error('not a list of {"name", "raw"} scenarios');
      const forbidden = forbiddenKeyIn(list);
      if (forbidden !== undefined) throw new Error(`its ${forbiddenKeyProblem(forbidden).problem}`);
      kept = list as typeof kept;
    } catch (err) {
      linkProblem(`This link's kept scenarios could not be read (${(err as Error).message}); none are kept.`);
    }
  }
  showKept();
  if (vary !== null) {
    varyInput.value = vary;
    grid = { vary };
  } else if (params.get('matrix') === '1') grid = { matrix: true };
  else if (kept.length >= 2) grid = { compare: true };
}

/**
 * The scenario changed, and waits for a link's files before it is answered: a sweep or matrix of it
 * waits too. Its work in flight is of the scenario as it was, so it is stopped and what it showed
 * cleared; opened, the files ask for it anew (filesChangedForGrid). A comparison keeps its scenarios.
 */
export function holdGridForFiles(): void {
  if (!grid || !('vary' in grid || 'matrix' in grid)) return;
  emptyGrid('waiting');
}

/** The scenario changed: a sweep or matrix varies it as it now is; a comparison is of the kept scenarios, which stay as they were. */
export function scenarioChangedForGrid(): void {
  if (grid && ('vary' in grid || 'matrix' in grid)) askGrid();
}

/** Files were opened: a sweep, comparison or matrix naming them is answered now. */
export function filesChangedForGrid(): void {
  if (grid) askGrid();
}

/** The matrix's button, shown while the scenario's profiles offer one. */
export function offerMatrix(offered: boolean): void {
  matrixRow.hidden = !offered;
}
