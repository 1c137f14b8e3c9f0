/**
 * The simulation: the seed and trials form, a pool of workers playing the CLI's chunks with the CLI's
 * seeds, the progress, and the run's part of the link (&seed=&trials=). Its estimates are shown in the
 * answer's table, through the hooks page.ts gives it.
 */
import { CHUNK_SIZE } from '../engine.js';
import { seedAndTrials } from './format.js';
import type { WorkerReply } from './protocol.js';
import { exact, input, pageState, setState, writeHash, linkProblem, type Input } from './state.js';
import { newWorker, post, shelf } from './workers.js';

interface CheckedJson {
  readonly summary: { readonly outcomes: readonly Estimate[] };
  readonly check?: { readonly passed: boolean; readonly failures: readonly string[] };
  readonly chart: Record<string, unknown>;
  readonly csv: string;
}

/** One outcome's estimate, its 95% interval and count, as the engine's summarize gives it. */
export interface Estimate {
  readonly outcome: string;
  readonly count: number;
  readonly probability: number;
  readonly ciLow: number;
  readonly ciHigh: number;
}

export interface SimulationHooks {
  /** A run's estimates, for the answer's table. */
  readonly showEstimates: (outcomes: readonly Estimate[]) => void;
  readonly clearEstimates: () => void;
  /** A run's chart and CSV (the answer's, with the estimates). */
  readonly showRun: (chart: Record<string, unknown>, csv: string) => void;
}

let hooks: SimulationHooks;

export function wireSimulation(h: SimulationHooks): void {
  hooks = h;
}

const simForm = document.getElementById('simulate-form') as HTMLFormElement;
const seedInput = document.getElementById('seed') as HTMLInputElement;
const trialsInput = document.getElementById('trials') as HTMLInputElement;
const simButton = document.getElementById('simulate') as HTMLButtonElement;
const cancelButton = document.getElementById('cancel') as HTMLButtonElement;
const progress = document.getElementById('progress') as HTMLProgressElement;
const simStatus = document.getElementById('sim-status')!;

let running: { workers: Worker[]; cancelled: boolean } | undefined;
/** A run asked for (by the link) before its answer was in: it starts once the answer is. */
let pendingSim: { seed: number; trials: number } | undefined;
/**
 * The seed and trials of the simulation on screen (run, or asked for by the link), kept in the link
 * whatever else writes it: a sweep or a kept scenario once dropped it.
 */
let simInLink: { seed: number; trials: number } | undefined;

/** The run's part of the link. */
export function simulationInLink(): readonly string[] {
  return simInLink ? [`seed=${simInLink.seed}`, `trials=${simInLink.trials}`] : [];
}

/** The run a link asks for (&seed= and &trials=): it starts once the answer is in. */
export function simulationFromLink(params: URLSearchParams): void {
  pendingSim = undefined;
  const seedText = params.get('seed');
  const trialsText = params.get('trials');
  if (seedText === null && trialsText === null) return;
  try {
    const { seed, trials } = seedAndTrials(seedText ?? '', trialsText ?? '');
    seedInput.value = String(seed);
    trialsInput.value = String(trials);
    pendingSim = { seed, trials };
  } catch (err) {
    linkProblem(`This link's simulation cannot run: ${(err as Error).message}`);
  }
}

/** The answer is in: a run asked for before it starts now. */
export function runPending(): void {
  if (!pendingSim) return;
  const s = pendingSim;
  pendingSim = undefined;
  simInLink = s;
  void simulate(s.seed, s.trials);
}

/** The scenario changed: the simulation on screen is of the old one, and leaves the link with it. */
export function forgetSimulation(): void {
  simInLink = undefined;
  if (running) cancelButton.click();
  hooks.clearEstimates();
  simStatus.textContent = '';
  progress.hidden = true;
}

/** The opened files, to the workers already started (a new one gets them as it starts). */
export function sendFilesToSimulation(): void {
  for (const w of simPool) post(w, { type: 'files', id: 0, files: [...shelf], describe: false });
}

simForm.addEventListener('submit', (e) => {
  e.preventDefault();
  let run: { seed: number; trials: number };
  try {
    run = seedAndTrials(seedInput.value, trialsInput.value);
  } catch (err) {
    simStatus.textContent = (err as Error).message;
    return;
  }
  simInLink = run;
  writeHash();
  void simulate(run.seed, run.trials);
});

/**
 * The simulation workers, started on the first run and kept: starting a worker loads the engine (a few
 * hundred milliseconds), which would cost more than a million trials. Cancel ends them mid-chunk.
 */
let simPool: Worker[] = [];

function simWorkers(n: number): Worker[] {
  while (simPool.length < n) simPool.push(newWorker());
  return simPool.slice(0, n);
}

function endSimWorkers(): void {
  for (const w of simPool) w.terminate();
  simPool = [];
}

cancelButton.addEventListener('click', () => {
  if (!running) return;
  running.cancelled = true;
  endSimWorkers();
  running = undefined;
  simButton.disabled = false;
  cancelButton.disabled = true;
  simStatus.textContent = 'Cancelled.';
  setState(exact ? 'ready' : 'error');
});

/**
 * Chunks in batches to whichever worker is free, as piscina hands out tasks on the command line; the
 * tally is a sum, so the order the batches finish in changes nothing.
 */
async function simulate(seed: number, trials: number): Promise<void> {
  if (!exact || pageState() === 'computing') {
    pendingSim = { seed, trials };
    return;
  }
  if (running) cancelButton.click();
  const chunks = Math.ceil(trials / CHUNK_SIZE);
  const cores = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 16, chunks));
  const batch = Math.max(1, Math.min(64, Math.ceil(chunks / (cores * 8))));
  // The last run's counts go: the rows show one run at a time.
  hooks.clearEstimates();
  const run = { workers: simWorkers(cores), cancelled: false };
  running = run;
  const scenario = input;
  setState('simulating');
  simButton.disabled = true;
  cancelButton.disabled = false;
  progress.value = 0;
  progress.hidden = false;
  simStatus.textContent = `Simulating ${trials.toLocaleString('en-GB')} trials on ${cores} worker${cores === 1 ? '' : 's'}...`;
  const started = performance.now();
  let next = 0;
  let done = 0;
  let tally: Float64Array | undefined;
  try {
    await Promise.all(
      run.workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            const give = () => {
              if (run.cancelled) return resolve();
              if (next >= chunks) return resolve();
              const first = next;
              const count = Math.min(batch, chunks - first);
              next += count;
              post(w, { type: 'chunks', id: 0, input: scenario, seed, firstChunk: first, chunkCount: count, totalTrials: trials });
            };
            w.onmessage = (e: MessageEvent<WorkerReply>) => {
              const reply = e.data;
              if (reply.type === 'error') return reject(new Error(reply.message));
              if (reply.type !== 'tally') return;
              if (!tally) tally = new Float64Array(reply.tally.length);
              for (let i = 0; i < tally.length; i++) tally[i]! += reply.tally[i]!;
              done += Math.min(trials, (reply.firstChunk + reply.chunkCount) * CHUNK_SIZE) - reply.firstChunk * CHUNK_SIZE;
              progress.value = done / trials;
              give();
            };
            w.onerror = (e) => reject(new Error(e.message));
            give();
          }),
      ),
    );
  } catch (err) {
    endSimWorkers();
    running = undefined;
    simButton.disabled = false;
    cancelButton.disabled = true;
    simStatus.textContent = (err as Error).message;
    setState('error');
    return;
  }
  if (run.cancelled || running !== run) return;
  running = undefined;
  const seconds = (performance.now() - started) / 1000;
  const checked = await check(run.workers[0]!, { input: scenario, trials, seed, workers: cores, seconds, tally: tally! });
  showSimulation(checked, { seed, trials, seconds, cores });
  hooks.showRun(checked.chart, checked.csv);
}

/** Intervals and the exact-versus-simulated check, by the engine's own summarize and crossCheck (in a worker). */
function check(w: Worker, run: { input: Input; trials: number; seed: number; workers: number; seconds: number; tally: Float64Array }): Promise<CheckedJson> {
  return new Promise((resolve, reject) => {
    w.onmessage = (e: MessageEvent<WorkerReply>) => {
      const reply = e.data;
      if (reply.type === 'checked') resolve({ summary: reply.summary, check: reply.check, chart: reply.chart, csv: reply.csv });
      else if (reply.type === 'error') reject(new Error(reply.message));
    };
    post(w, { type: 'check', id: 0, ...run });
  });
}

function showSimulation(checked: CheckedJson, run: { seed: number; trials: number; seconds: number; cores: number }): void {
  hooks.showEstimates(checked.summary.outcomes);
  const agree = checked.check
    ? checked.check.passed
      ? ' Simulation agrees with the exact answer.'
      : ` SIMULATION DISAGREES with the exact answer: ${checked.check.failures.join('; ')}`
    : '';
  // The seconds whole, for a machine to read (the benchmark's page against the CLI, chunks against chunks).
  simStatus.dataset.seconds = String(run.seconds);
  simStatus.textContent = `${run.trials.toLocaleString('en-GB')} trials from seed ${run.seed} in ${run.seconds.toFixed(1)} s on ${run.cores} worker${run.cores === 1 ? '' : 's'}.${agree}`;
  progress.value = 1;
  simButton.disabled = false;
  cancelButton.disabled = true;
  setState('done');
}

