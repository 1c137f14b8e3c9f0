/**
 * `npm run bench` (`-- --json` for one JSON document, `-- --only web`, `-- --only queue` or `-- --only price` for
 * the web page's, the job queue's or the pricing's part alone): the
 * simulator's speed against the practical limit, the raw dice loop, measured in one run on this machine.
 *
 * - Per worker: one worker thread, the Trench Crusade core `injury` scenario with 0, +2 and -2 injury
 *   dice and the core `attack`; the figure is injury rolls (trials) per second.
 * - Raw: the same generator drawing the same number of unbiased d6 per trial, totalled and counted,
 *   and nothing else. The ratio simulated / raw says how much the rules cost over the dice themselves.
 * - Speed-up from 1 to 2 workers on 10^8 trials, and peak memory (RSS) of a 10^9-trial run, measured
 *   in a child process so this process's own allocations do not count.
 * - Exact engine: the time to solve the largest scenarios of each system, the ones the test suite only
 *   checks for correctness (tests never time anything).
 * - Duels (bench/duel.ts): an exact 10-round duel under fixed and optimal policies, and simulated duels
 *   per second on one worker.
 * - Catalogue sweep: a 14 x 53 weapons x models matrix planned through catalogue files, against the same
 *   through the profiles file they export, by an edition's rules and by a variant file's
 *   (bench/catalogue-sweep.ts); the issue's target is within 3x.
 * - Web page (bench/web.ts, issue 26): each file of dist/web raw and gzipped (level 9), the files a visit
 *   loads against 2 MB gzipped; in headless Chromium (/usr/bin/chromium; skipped, with a line saying so,
 *   without it), the time from a field's change to the new exact answer for single rolls of both systems
 *   (median and best of 20 changes after 5 warm-up ones, against 50 ms), from navigation to the first
 *   answer, and simulated attacks per second on the page against the CLI's simulate() on the same
 *   2,000,000 trials.
 * - Job queue (bench/queue.ts, issue 27): on a redis-server of its own (skipped, with a line saying so,
 *   without one), 64 shards of attacks through simulateOnQueue with 1, 2 and 4 local worker processes
 *   (--concurrency 1) against the in-process pool with 1, 2 and 4 threads, every tally checked against the
 *   local run's: trials per second, the fraction of linear (against 1 process, and against the machine's
 *   cores), the ratio to the pool, and the overhead per shard (queue with 1 process against pool with 1
 *   thread, on attacks and on cheap injury shards) against >= 0.9 of linear and < 5 ms per shard.
 * - Pricing (bench/price.ts, issue 40): the exact duels of `price` on the community catalogues (skipped,
 *   with a line saying so, without their mirror): a faction and the whole catalogue on 2 threads, and
 *   through the job queue with 1 and 2 worker processes; and the faction priced by battles (issue 50).
 *
 * Each rate is the best of a few repetitions after a warm-up: other work on the machine only ever slows
 * a run down, so the fastest repetition is the least disturbed one. Rates are given per second of wall
 * clock and per second of CPU time (process.cpuUsage, all threads): on a machine that other jobs share,
 * the CPU-time figure is what a worker achieves while it actually runs, and the load average printed
 * first says how shared the machine was.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { fastestExactSolve } from './exact-timing.js';
import { RSS_LINE } from './rss-line.js';
import { CATALOGUE_TARGET_RATIO, MATRIX, catalogueSweeps } from './catalogue-sweep.js';
import { DUEL_TARGETS, OPTIMAL_DUEL, OPTIMAL_LEDGE_DUEL, duelExactTimings, duelsPerSecond } from './duel.js';
import { BATTLE_TARGET, battlesPerSecond } from './battle.js';
import { goalLines, issue39Goals } from './goals.js';
import type { BranchBound } from './branch-bound.js';
import { queueFigures, queueTargetLine } from './queue.js';
import { priceFigures } from './price.js';
import { CHROMIUM, PAGE_SIM, WEB_TARGETS, bundleSize, pageFigures, type BundleSize, type PageFigures } from './web.js';
import { parseScenario } from '../src/input/scenario.js';
import type { Scenario } from '../src/model/types.js';
import { compileKernel } from '../src/sim/chunks.js';
import { CHUNK_SIZE, type KernelSource } from '../src/sim/protocol.js';
import { Rng } from '../src/sim/rng.js';
import { closePool, simulate, simulateSource } from '../src/pool/simulate.js';

const TRIALS_PER_WORKER = 2e7;
const REPEATS = 3;
const SPEEDUP_TRIALS = 1e8;
const MEMORY_TRIALS = 1e9;

/** The numpy figures quoted in the issue (default_rng, integers, partition, bincount; one core). */
const NUMPY_RANGE: Record<string, [number, number] | undefined> = {
  'injury 0': [45e6, 64e6],
  'injury +2': [20e6, 24e6],
};

const TARGETS = { ratio: 0.5, speedup: 1.8, peakMemoryMB: 150 };

interface Case {
  readonly id: string;
  readonly label: string;
  readonly scenario: Scenario;
}

const cases: Case[] = [
  { id: 'injury 0', label: 'injury, 0 injury dice', scenario: parseScenario({ system: 'trench-crusade', edition: 'core', kind: 'injury', injuryDice: 0 }, 'bench') },
  { id: 'injury +2', label: 'injury, +2 injury dice', scenario: parseScenario({ system: 'trench-crusade', edition: 'core', kind: 'injury', injuryDice: 2 }, 'bench') },
  { id: 'injury -2', label: 'injury, -2 injury dice', scenario: parseScenario({ system: 'trench-crusade', edition: 'core', kind: 'injury', injuryDice: -2 }, 'bench') },
  { id: 'attack', label: 'attack (success roll, then injury on a hit)', scenario: parseScenario({ system: 'trench-crusade', edition: 'core', kind: 'attack' }, 'bench') },
];

/** Counts the 32-bit words a kernel draws: with rejection so rare (4 in 2^32), words are d6 rolled. */
class CountingRng extends Rng {
  words = 0;
  override nextUint32(): number {
    this.words++;
    return super.nextUint32();
  }
}

/** Average d6 a kernel rolls per trial, from 10^5 trials in this thread. */
function dicePerTrial(of: Scenario | KernelSource): number {
  const source: KernelSource = 'system' in of ? { type: 'scenario', scenario: of } : of;
  const { kernel, tallyLength } = compileKernel(source);
  const rng = new CountingRng();
  rng.reseed(12345, 0);
  const trials = 100_000;
  kernel.run(rng, trials, new Float64Array(tallyLength));
  return rng.words / trials;
}

interface Rate {
  /** Trials per second of wall clock. */
  wall: number;
  /** Trials per second of CPU time, all threads of the process. */
  cpu: number;
}

/** Best wall and best CPU rate over `times` runs of `trials` trials. */
async function best(times: number, trials: number, run: () => Promise<unknown>): Promise<Rate> {
  const top: Rate = { wall: 0, cpu: 0 };
  for (let i = 0; i < times; i++) {
    const cpu = process.cpuUsage();
    const wall = performance.now();
    await run();
    const wallSeconds = (performance.now() - wall) / 1000;
    const used = process.cpuUsage(cpu);
    top.wall = Math.max(top.wall, trials / wallSeconds);
    top.cpu = Math.max(top.cpu, trials / ((used.user + used.system) / 1e6));
  }
  return top;
}

interface CaseResult {
  id: string;
  label: string;
  dicePerTrial: number;
  /** Simulated injury rolls (trials) per second, one worker. */
  simulated: Rate;
  /** The raw loop's d6 per second. */
  rawDice: Rate;
  /** The raw loop's d6 per second divided by the kernel's d6 per trial: the rolls per second it allows. */
  rawRolls: Rate;
  /** simulated / rawRolls, from the CPU-time rates (the wall-clock ratio in `ratioWall`). */
  ratio: number;
  ratioWall: number;
  numpyRange?: [number, number];
}

async function perWorker(c: Case): Promise<CaseResult> {
  const dice = dicePerTrial(c.scenario);
  // Warm up the thread and its JIT on this kernel before timing it.
  await simulate(c.scenario, { trials: 2e6, seed: 99, workers: 1 });
  const sim = await best(REPEATS, TRIALS_PER_WORKER, () => simulate(c.scenario, { trials: TRIALS_PER_WORKER, seed: 1, workers: 1 }));
  // The raw loop rolls a whole number of dice per trial; its dice per second converts to rolls per
  // second at the kernel's (for `attack`, fractional) dice per trial.
  const count = Math.max(1, Math.round(dice));
  const raw = { type: 'dice', sides: 6, count } as const;
  const length = 5 * count + 1;
  await simulateSource(raw, length, { trials: 2e6, seed: 99, workers: 1 });
  const rawTrials = await best(REPEATS, TRIALS_PER_WORKER, () => simulateSource(raw, length, { trials: TRIALS_PER_WORKER, seed: 1, workers: 1 }));
  const rawDice = { wall: rawTrials.wall * count, cpu: rawTrials.cpu * count };
  const rawRolls = { wall: rawDice.wall / dice, cpu: rawDice.cpu / dice };
  return {
    id: c.id,
    label: c.label,
    dicePerTrial: dice,
    simulated: sim,
    rawDice,
    rawRolls,
    ratio: sim.cpu / rawRolls.cpu,
    ratioWall: sim.wall / rawRolls.wall,
    ...(NUMPY_RANGE[c.id] ? { numpyRange: NUMPY_RANGE[c.id] } : {}),
  };
}

interface Speedup {
  trials: number;
  oneWorkerSeconds: number;
  twoWorkerSeconds: number;
  /** Wall-clock speed-up, 1 worker to 2. */
  speedup: number;
  /** CPU seconds over wall seconds in the 2-worker run: how many cores the run actually had. */
  coresUsedByTwoWorkers: number;
}

async function speedup(): Promise<Speedup> {
  const scenario = cases[0]!.scenario;
  const measure = async (workers: number) => {
    await simulate(scenario, { trials: 2e6, seed: 99, workers });
    let fastest = { wall: Number.POSITIVE_INFINITY, cores: 0 };
    for (let i = 0; i < 2; i++) {
      const cpu = process.cpuUsage();
      const run = await simulate(scenario, { trials: SPEEDUP_TRIALS, seed: 1, workers });
      const used = process.cpuUsage(cpu);
      if (run.seconds < fastest.wall) fastest = { wall: run.seconds, cores: (used.user + used.system) / 1e6 / run.seconds };
    }
    return fastest;
  };
  const one = await measure(1);
  const two = await measure(2);
  return { trials: SPEEDUP_TRIALS, oneWorkerSeconds: one.wall, twoWorkerSeconds: two.wall, speedup: one.wall / two.wall, coresUsedByTwoWorkers: two.cores };
}

/**
 * bench/branch-bound.ts in a process of its own. In this one, after the parts before it, the kernel's
 * call sites have seen every kind of scenario and V8 optimises them for none: measured here the attack
 * kernel ran at 0.48 of its dice-with-the-branch bound, in a fresh process at 0.83-0.88.
 */
function branchBoundInFreshProcess(): BranchBound {
  const module = new URL('./branch-bound.js', import.meta.url).href;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', `import { branchBound } from ${JSON.stringify(module)}; console.log(JSON.stringify(branchBound(${REPEATS})));`], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`bench/branch-bound.ts failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as BranchBound;
}

/**
 * Peak memory of `injury-lab simulate` itself over MEMORY_TRIALS trials on the default workers: the CLI
 * run as a user runs it, in a child process, its peak RSS (worker threads included) reported at exit by
 * rss-at-exit.js. (Measured until issue 39 in a child of this benchmark, which carried the benchmark's own
 * imports, the browser driver and the queue client among them: 235 MB, of which the CLI's was 166.)
 */
function peakMemory(): { trials: number; workers: number; peakRssMB: number; seconds: number } {
  const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
  const probe = fileURLToPath(new URL('./rss-at-exit.js', import.meta.url));
  const child = spawnSync(process.execPath, ['--import', probe, cli, 'simulate', '--kind', 'injury', '--trials', String(MEMORY_TRIALS), '--seed', '1', '--format', 'json'], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`memory child failed: ${child.stderr}`);
  const line = child.stderr.split('\n').find((l) => l.startsWith(RSS_LINE));
  if (!line) throw new Error(`memory child said no peak RSS: ${child.stderr}`);
  const run = JSON.parse(child.stdout) as { workers: number; seconds: number };
  return { trials: MEMORY_TRIALS, workers: run.workers, peakRssMB: Number(line.slice(RSS_LINE.length)), seconds: run.seconds };
}

/** The largest exact answers each system is asked for: the slowest cases of the exact engine. */
const exactCases: { label: string; fields: Record<string, unknown> }[] = [
  {
    label: 'trench-crusade injury: +10 dice, 20 markers, bloodbath, deadly',
    fields: { system: 'trench-crusade', edition: 'core', kind: 'injury', injuryDice: 10, bloodMarkersSpent: 20, bloodbath: true, deadly: true },
  },
  {
    label: 'd20-warband attack: 10 attacks, 10 wounds, advantage',
    fields: { system: 'd20-warband', kind: 'attack', stat: 2, attacks: 10, wounds: 10, defence: '-', attackType: 'ranged', state: 'staggered', advantage: true, injury: -4 },
  },
];

interface ExactTiming {
  label: string;
  /** Fastest of REPEATS solves, in milliseconds, after one warm-up solve. */
  milliseconds: number;
}

function exactTimings(): ExactTiming[] {
  return exactCases.map(({ label, fields }) => ({ label, milliseconds: fastestExactSolve(parseScenario(fields, 'bench'), REPEATS) }));
}

const M = (x: number) => (x / 1e6).toFixed(1);
const KB = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

interface WebFigures {
  bundle: BundleSize;
  /** Undefined when there is no Chromium to run the page in. */
  page?: PageFigures;
  targets: { bundle: { target: string; value: number; met: boolean }; exact?: { target: string; worstMedianMs: number; met: boolean } };
}

/** The web page's figures (bench/web.ts), printed as they come. */
async function webFigures(log: (line: string) => void): Promise<WebFigures> {
  const bundle = await bundleSize();
  log(`web page bundle (dist/web), raw and gzipped at level 9:`);
  for (const f of bundle.files) log(`  ${f.name.padEnd(24)} ${KB(f.bytes).padStart(8)} ${KB(f.gzipBytes).padStart(8)} gzipped${f.loaded ? '' : ' (not loaded by a visit)'}`);
  log(`  ${'loaded by a visit'.padEnd(24)} ${KB(bundle.totalBytes).padStart(8)} ${KB(bundle.totalGzipBytes).padStart(8)} gzipped (target ${bundle.target})`);
  const bundleCheck = { target: bundle.target, value: bundle.totalGzipBytes, met: bundle.met };
  const page = await pageFigures();
  if (!page) {
    log(`web page in Chromium: skipped, ${CHROMIUM} is missing (apt-get install -y chromium)`);
    return { bundle, targets: { bundle: bundleCheck } };
  }
  log('');
  log(`web page in headless Chromium ${page.chromium}, timed in the page: a field's change to the new exact answer (median, best, worst of ${page.latency[0]?.changes} after a warm-up); navigation to the first answer (median, best of fresh loads):`);
  for (const l of page.latency) {
    log(
      `  ${`${l.label}, ${l.field}`.padEnd(40)} change ${l.medianMs.toFixed(1).padStart(5)} ms median, ${l.bestMs.toFixed(1).padStart(5)} best, ${l.worstMs.toFixed(1).padStart(5)} worst ` +
        `(target < ${WEB_TARGETS.exactMs} ms)  first answer ${l.firstAnswerMedianMs.toFixed(0).padStart(4)} ms median, ${l.firstAnswerBestMs.toFixed(0)} best`,
    );
  }
  const sim = page.simulation;
  log(
    `  simulated ${PAGE_SIM.scenario.kind}, ${sim.trials.toLocaleString('en-GB')} trials, best of ${PAGE_SIM.repeats}: page ${M(sim.pageTrialsPerSecond)} M/s (${sim.pageSeconds.toFixed(2)} s, ${sim.pageWorkers} workers, Simulate click to done), ` +
      `chunks alone ${M(sim.pageChunkTrialsPerSecond)} M/s (${sim.pageChunkSeconds.toFixed(2)} s); ` +
      `CLI simulate() ${M(sim.cliTrialsPerSecond)} M/s (${sim.cliSeconds.toFixed(2)} s, ${sim.cliWorkers} workers): the page's chunks at ${(sim.pageChunkTrialsPerSecond / sim.cliTrialsPerSecond).toFixed(2)}x the CLI's (click to done ${(sim.pageTrialsPerSecond / sim.cliTrialsPerSecond).toFixed(2)}x)`,
  );
  const worstMedianMs = Math.max(...page.latency.map((l) => l.medianMs));
  return { bundle, page, targets: { bundle: bundleCheck, exact: { target: `< ${WEB_TARGETS.exactMs} ms median after a change`, worstMedianMs, met: page.latency.every((l) => l.met) } } };
}

const webTargetLine = (w: WebFigures) =>
  `web bundle ${w.targets.bundle.met ? 'met' : 'MISSED'} (${KB(w.targets.bundle.value)} gzipped, target ${w.targets.bundle.target})` +
  (w.targets.exact ? `; web exact answer ${w.targets.exact.met ? 'met' : 'MISSED'} (worst median ${w.targets.exact.worstMedianMs.toFixed(1)} ms, target ${w.targets.exact.target})` : '; web page in Chromium skipped');

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const log = (line: string) => {
    if (!json) process.stdout.write(line + '\n');
  };
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
  if (only !== undefined && only !== 'web' && only !== 'queue' && only !== 'price') throw new Error(`--only: the parts that run alone are "web", "queue" and "price", not ${JSON.stringify(only)}`);
  if (only === 'price') {
    const load = loadavg()[0]!;
    log(`injury-lab benchmark, pricing only: node ${process.version}, ${availableParallelism()} cores, load average ${load.toFixed(2)}`);
    const price = await priceFigures(log);
    if (json) process.stdout.write(JSON.stringify({ node: process.version, cores: availableParallelism(), loadAverageBefore: load, price: price ?? null }, null, 2) + '\n');
    return;
  }
  if (only === 'queue') {
    const load = loadavg()[0]!;
    log(`injury-lab benchmark, job queue only: node ${process.version}, ${availableParallelism()} cores, load average ${load.toFixed(2)}`);
    const queue = await queueFigures(log);
    log('');
    log(`targets: ${queueTargetLine(queue)}`);
    if (json) process.stdout.write(JSON.stringify({ node: process.version, cores: availableParallelism(), loadAverageBefore: load, queue: queue ?? null }, null, 2) + '\n');
    return;
  }
  if (only === 'web') {
    log(`injury-lab benchmark, web page only: node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(2)}`);
    const web = await webFigures(log);
    log('');
    log(`targets: ${webTargetLine(web)}`);
    if (json) process.stdout.write(JSON.stringify({ node: process.version, cores: availableParallelism(), loadAverageBefore: loadavg()[0], web }, null, 2) + '\n');
    return;
  }

  const load = loadavg()[0]!;
  log(`injury-lab benchmark: node ${process.version}, ${availableParallelism()} cores, ${Rng.generatorName}, chunks of ${CHUNK_SIZE}`);
  log(`load average before the run: ${load.toFixed(2)}${load > 0.5 ? ' (other work is running: wall-clock figures are pessimistic, CPU-time ones less so)' : ''}`);
  log(`per worker: 1 worker thread, best of ${REPEATS} runs of ${TRIALS_PER_WORKER.toExponential(0)} trials; M rolls per CPU second (per wall second)`);
  log('');
  const results: CaseResult[] = [];
  for (const c of cases) {
    const r = await perWorker(c);
    results.push(r);
    const numpy = r.numpyRange
      ? `  numpy ${M(r.numpyRange[0])}-${M(r.numpyRange[1])}: ${(r.simulated.cpu / r.numpyRange[1]).toFixed(2)}x its best`
      : '';
    log(
      `${r.label.padEnd(44)} ${r.dicePerTrial.toFixed(2)} d6/roll  simulated ${M(r.simulated.cpu).padStart(5)} (${M(r.simulated.wall)})  ` +
        `raw ${M(r.rawRolls.cpu).padStart(5)} (${M(r.rawRolls.wall)})  ratio ${r.ratio.toFixed(2)} (${r.ratioWall.toFixed(2)})${numpy}`,
    );
  }
  const s = await speedup();
  log('');
  log(
    `speed-up on ${s.trials.toExponential(0)} trials (injury, 0 dice): 1 worker ${s.oneWorkerSeconds.toFixed(2)} s, ` +
      `2 workers ${s.twoWorkerSeconds.toFixed(2)} s: ${s.speedup.toFixed(2)}x (the 2-worker run had ${s.coresUsedByTwoWorkers.toFixed(2)} cores of CPU time)`,
  );
  await closePool();
  const mem = peakMemory();
  log(`peak memory for ${mem.trials.toExponential(0)} trials on ${mem.workers} workers: ${mem.peakRssMB.toFixed(0)} MB RSS (${mem.seconds.toFixed(1)} s, ${M(mem.trials / mem.seconds)} M trials/s)`);
  const branches = branchBoundInFreshProcess();
  log(
    `attack kernel in a fresh process: ${M(branches.kernel)} M/s; its dice alone, the injury roll only on a hit as a player rolls it: ${M(branches.diceOnHit)} M/s ` +
      `(the kernel at ${(branches.kernel / branches.diceOnHit).toFixed(2)}x); the same dice with no condition: ${M(branches.diceUnconditional)} M/s (bench/branch-bound.ts)`,
  );
  const exactRuns = exactTimings();
  const duelSim = await duelsPerSecond(REPEATS, 4e6);
  const battleSim = await battlesPerSecond(REPEATS, 2e5);
  await closePool();
  log('');
  log(`exact engine, in this thread, best of ${REPEATS} solves:`);
  for (const e of exactRuns) log(`  ${e.label.padEnd(64)} ${e.milliseconds.toFixed(1).padStart(7)} ms`);
  const duelRuns = duelExactTimings(REPEATS);
  log('');
  log(`duels (issue 24), exact in this thread, best of ${REPEATS} solves:`);
  for (const d of duelRuns) log(`  ${d.label.padEnd(64)} ${d.milliseconds.toFixed(1).padStart(7)} ms (target < ${d.target} ms)`);
  // The dice bound: one worker's raw loop draws so many d6 per second, and a duel rolls so many.
  const duelDice = dicePerTrial(duelSim.scenario);
  const diceBound = results[0]!.rawDice.wall / duelDice;
  log(`  ${duelSim.label.padEnd(64)} ${M(duelSim.perSecond).padStart(7)} M/s (target >= ${M(DUEL_TARGETS.duelsPerSecond)}; ${duelDice.toFixed(1)} d6 per duel, so the raw dice loop alone allows ${M(diceBound)} M/s)`);
  // Issue 50: whole battles, against the same bound.
  const battleDice = dicePerTrial(battleSim.source);
  const battleDiceBound = results[0]!.rawDice.wall / battleDice;
  log('');
  log(`battles (issue 50), simulated, best of ${REPEATS}:`);
  log(`  ${battleSim.label.padEnd(64)} ${Math.round(battleSim.perSecond).toLocaleString('en-US').padStart(7)} /s (target >= ${BATTLE_TARGET.toLocaleString('en-US')}; ${battleDice.toFixed(0)} d6 per battle, so the raw dice loop alone allows ${Math.round(battleDiceBound).toLocaleString('en-US')} /s)`);
  const catalogueRuns = catalogueSweeps(REPEATS);
  const timing = (label: string, seconds: number) => log(`  ${label.padEnd(64)} ${seconds.toFixed(2).padStart(7)} s`);
  for (const cat of catalogueRuns) {
    log('');
    log(`catalogue sweep, ${MATRIX.weapons} weapons x ${MATRIX.models} models by ${cat.rules} (${cat.cells} cells, grid checked and every cell parsed), best of ${REPEATS}:`);
    timing(`through ${cat.files} catalogue files (${(cat.catalogueBytes / 1e6).toFixed(1)} MB, read afresh each run)`, cat.catalogueSeconds);
    timing(`through the profiles file they export (${(cat.profilesFileBytes / 1e3).toFixed(0)} kB)`, cat.profilesFileSeconds);
    log(`  ratio ${cat.ratio.toFixed(2)}x; the same scenarios both ways: ${cat.sameScenarios ? 'yes' : 'NO'}`);
  }
  log('');
  const web = await webFigures(log);
  log('');
  const queue = await queueFigures(log);
  log('');
  const price = await priceFigures(log);
  const worstCatalogueRatio = Math.max(...catalogueRuns.map((c) => c.ratio));
  const worstRatio = Math.min(...results.map((r) => r.ratio));
  const checks = {
    ratio: { target: `>= ${TARGETS.ratio}`, worst: worstRatio, met: worstRatio >= TARGETS.ratio },
    speedup: { target: `>= ${TARGETS.speedup}`, value: s.speedup, met: s.speedup >= TARGETS.speedup },
    peakMemory: { target: `< ${TARGETS.peakMemoryMB} MB`, value: mem.peakRssMB, met: mem.peakRssMB < TARGETS.peakMemoryMB },
    beatsNumpy: {
      target: 'above the top of the numpy range per core',
      met: results.every((r) => !r.numpyRange || r.simulated.cpu > r.numpyRange[1]),
    },
    duelExact: { target: 'fixed policies < 50 ms, optimal < 50 ms (< 200 ms by ledges)', met: duelRuns.every((d) => d.milliseconds < d.target) },
    duelSimulation: { target: `>= ${M(DUEL_TARGETS.duelsPerSecond)} M duels/s per worker`, value: duelSim.perSecond, dicePerDuel: duelDice, rawDiceBound: diceBound, met: duelSim.perSecond >= DUEL_TARGETS.duelsPerSecond },
    battleSimulation: { target: `>= ${BATTLE_TARGET} battles/s per worker (10 models a side, 6 turns)`, value: battleSim.perSecond, dicePerBattle: battleDice, rawDiceBound: battleDiceBound, met: battleSim.perSecond >= BATTLE_TARGET },
    catalogueSweep: {
      target: `<= ${CATALOGUE_TARGET_RATIO}x the profiles file`,
      worst: worstCatalogueRatio,
      met: worstCatalogueRatio <= CATALOGUE_TARGET_RATIO && catalogueRuns.every((c) => c.sameScenarios),
    },
  };
  log('');
  log(
    `targets: simulated/raw ${checks.ratio.met ? 'met' : 'MISSED'} (worst ${worstRatio.toFixed(2)}, target ${checks.ratio.target}); ` +
      `speed-up ${checks.speedup.met ? 'met' : 'MISSED'} (${s.speedup.toFixed(2)}x, target ${checks.speedup.target}); ` +
      `memory ${checks.peakMemory.met ? 'met' : 'MISSED'} (${mem.peakRssMB.toFixed(0)} MB, target ${checks.peakMemory.target}); ` +
      `numpy ${checks.beatsNumpy.met ? 'beaten' : 'NOT beaten'}; ` +
      `catalogue sweep ${checks.catalogueSweep.met ? 'met' : 'MISSED'} (worst ${worstCatalogueRatio.toFixed(2)}x, target ${checks.catalogueSweep.target}); ` +
      `exact duels ${checks.duelExact.met ? 'met' : 'MISSED'}; simulated duels ${checks.duelSimulation.met ? 'met' : 'MISSED'} (${M(duelSim.perSecond)} M/s, target ${checks.duelSimulation.target}); ` +
      webTargetLine(web) +
      '; ' +
      queueTargetLine(queue),
  );
  const goals = issue39Goals({
    duelsPerSecond: duelSim.perSecond,
    duelDiceBound: diceBound,
    attackRatio: results.find((r) => r.id === 'attack')!.ratio,
    peakRssMB: mem.peakRssMB,
    optimalMs: duelRuns.find((d) => d.label === OPTIMAL_DUEL)!.milliseconds,
    optimalLedgeMs: duelRuns.find((d) => d.label === OPTIMAL_LEDGE_DUEL)!.milliseconds,
    ...(web.page ? { pageOverCli: web.page.simulation.pageChunkTrialsPerSecond / web.page.simulation.cliTrialsPerSecond } : {}),
    ...(queue ? { queueTwoOfLinear: queue.queue.find((q) => q.processes === 2)!.ofLinear } : {}),
  });
  log('');
  log('issue 39 (fast everywhere), its goals:');
  for (const line of goalLines(goals)) log(line);
  if (json) {
    const doc = {
      node: process.version,
      cores: availableParallelism(),
      loadAverageBefore: load,
      generator: Rng.generatorName,
      chunkSize: CHUNK_SIZE,
      trialsPerWorkerRun: TRIALS_PER_WORKER,
      repeats: REPEATS,
      perWorker: results,
      speedup: s,
      memory: mem,
      exact: exactRuns,
      branchBound: branches,
      duels: { exact: duelRuns, simulated: duelSim },
      catalogueSweeps: catalogueRuns,
      web,
      queue: queue ?? null,
      price: price ?? null,
      issue39: goals,
      targets: {
        ...checks,
        webBundle: web.targets.bundle,
        ...(web.targets.exact ? { webExact: web.targets.exact } : {}),
        ...(queue ? { queueScaling: queue.targets.linear, queueOverhead: queue.targets.overhead } : {}),
      },
    };
    process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
  }
}

await main();
