/**
 * A Web Worker of the page: exact answers off the main thread (a duel's chain takes a while, and the
 * page must never freeze as the user types), and simulated chunks, one worker per core. The chunks are
 * the CLI's: the same kernel from the same scenario, the same streams `Rng.forChunk(seed, chunk)`, so
 * the counts summed over any number of workers equal `injury-lab simulate`'s for the same seed and trials.
 */
import { CHUNK_SIZE, UsageError, answerCsv, chartSpec, compareChartSpec, compareInThread, compareJson, comparePresenter, differencesLine, sideBestLines, compareGrid, wideCsv, sweepInThread, DEFAULT_BATCHES, findingOf, sweepChartSpec, sweepJson, sweepPresenter, compileKernel, crossCheck, describeOpened, evaluateParsed, exactChartSpec, exactJson, openedFiles, pageRun, pageScenario, playChunks, summarize } from '../engine.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';

interface WorkerScope {
  onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

/** The files the user opened: a scenario's `rules`, `profiles`, `roster` and `catalogue` name them. */
let shelf = new Map<string, Uint8Array>();
/**
 * The opened files as a scenario reads them, speaking of the page's own control where the CLI would name
 * its flag. What the box lets through is shown with the answer (its scenario's notModelled).
 */
const files = () => openedFiles(shelf, { allowUnmodelled: 'tick "Allow unmodelled"' });
const parse = (input: unknown) => pageScenario(input, files());

/** The last scenario's kernel, kept while the same input keeps coming (every batch of one run). */
let cached: { key: string; kernel: ReturnType<typeof compileKernel> } | undefined;

function kernelFor(input: unknown) {
  const key = JSON.stringify(input);
  if (cached?.key !== key) cached = { key, kernel: compileKernel({ type: 'scenario', scenario: parse(input) }) };
  return cached.kernel;
}

/** A grid's simulation plan as the CLI's sweep and compare make it from --trials and --seed: the default batches. */
const planOf = (sim: { trials: number; seed: number } | undefined) => (sim ? { sim: { trials: sim.trials, seed: sim.seed, batches: DEFAULT_BATCHES } } : {});

scope.onmessage = async (e) => {
  const req = e.data;
  try {
    if (req.type === 'files') {
      shelf = new Map(req.files);
      cached = undefined;
      if (req.describe) scope.postMessage({ type: 'opened', id: req.id, files: describeOpened(shelf) });
    } else if (req.type === 'sweep') {
      const sweep = await sweepInThread(req.input as Record<string, unknown>, [req.vary], files(), planOf(req.sim));
      const finding = findingOf(sweep);
      scope.postMessage({
        type: 'swept',
        id: req.id,
        json: sweepJson(sweep),
        chart: sweepChartSpec(sweep),
        csv: sweepPresenter.csv({ sweep, cumulative: false }),
        wide: wideCsv(sweep, {}),
        table: sweepPresenter.table({ sweep, cumulative: false }),
        // The finding, and for a side's choices which is best for it, as the CLI's table ends.
        words: [...(finding === undefined ? [] : [finding]), ...sideBestLines(sweep)],
      });
    } else if (req.type === 'matrix') {
      const vary = [
        { field: 'weapon', values: [...req.weapons], title: 'Weapon (cost)' },
        { field: 'target', values: [...req.models], title: 'Model (cost)' },
      ];
      const sweep = await sweepInThread(req.input as Record<string, unknown>, vary, files());
      const worst = sweep.outcomes[sweep.outcomes.length - 1]!;
      let value: Record<string, unknown> | undefined;
      let valueNote: string | undefined;
      try {
        value = chartSpec(sweep, { type: 'value', by: 'weapon', outcome: worst, file: 'weapon-value' } as never) as Record<string, unknown>;
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        valueNote = e.message;
      }
      const finding = findingOf(sweep);
      scope.postMessage({
        type: 'swept',
        id: req.id,
        json: sweepJson(sweep),
        chart: sweepChartSpec(sweep, { outcome: worst }),
        csv: sweepPresenter.csv({ sweep, cumulative: false }),
        wide: wideCsv(sweep, {}),
        table: sweepPresenter.table({ sweep, cumulative: false }),
        words: finding === undefined ? [] : [finding],
        ...(value ? { value } : {}),
        ...(valueNote !== undefined ? { valueNote } : {}),
      });
    } else if (req.type === 'compare') {
      const result = await compareInThread(
        req.scenarios.map((s) => ({ name: s.name, file: s.name, raw: s.raw })),
        files(),
        planOf(req.sim),
      );
      const json = compareJson(result);
      scope.postMessage({ type: 'compared', id: req.id, json, chart: compareChartSpec(result), csv: comparePresenter.csv(result), wide: wideCsv(compareGrid(result), {}), table: comparePresenter.table(result), words: [differencesLine(result), ...json.verdicts] });
    } else if (req.type === 'exact') {
      const scenario = parse(req.input);
      const exact = evaluateParsed(scenario);
      scope.postMessage({ type: 'exact', id: req.id, result: exactJson(exact), chart: exactChartSpec(scenario, exact), csv: answerCsv(scenario, exact) });
    } else if (req.type === 'check') {
      const scenario = parse(req.input);
      const exact = evaluateParsed(scenario);
      const run = pageRun(scenario, { trials: req.trials, seed: req.seed, workers: req.workers, seconds: req.seconds, tally: req.tally });
      const report = crossCheck(exact.answer, run);
      scope.postMessage({
        type: 'checked',
        id: req.id,
        summary: summarize(run),
        check: { passed: report.passed, failures: report.failures },
        chart: exactChartSpec(scenario, exact, {}, run),
        csv: answerCsv(scenario, exact, run),
      });
    } else {
      const { kernel, tallyLength } = kernelFor(req.input);
      const tally = new Float64Array(tallyLength);
      playChunks(kernel, { seed: req.seed, firstChunk: req.firstChunk, chunkCount: req.chunkCount, chunkSize: CHUNK_SIZE, totalTrials: req.totalTrials }, tally);
      scope.postMessage({ type: 'tally', id: req.id, firstChunk: req.firstChunk, chunkCount: req.chunkCount, tally }, [tally.buffer]);
    }
  } catch (err) {
    const bug = !(err instanceof UsageError);
    scope.postMessage({ type: 'error', id: req.id, message: err instanceof Error ? err.message : String(err), bug });
  }
};
