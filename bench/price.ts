/**
 * The pricing part of `npm run bench` (issue 40): how long `injury-lab price` takes to solve the exact
 * duels of a real field, through the exact worker threads (2 of them) and through the job queue.
 *
 * The fields come from the community's Trench Crusade catalogues (github.com/Fawkstrot11/TrenchCrusade),
 * read from a git mirror of that repository (INJURY_LAB_CATALOGUE_MIRROR, default CATALOGUE_MIRROR):
 * the files of its newest commit are copied to a temporary folder, read as `injury-lab profiles
 * --catalogue` reads them and exported as the profiles file `price --profiles` takes. Without the
 * mirror the part is skipped, with a line saying so.
 *
 * - A faction: Trench Pilgrims (the game system, the faction and the shared weapon and equipment
 *   catalogues), every model with each melee weapon of its loadout, as `price --profiles` makes its field.
 * - The whole catalogue: every model of every faction with each melee weapon of its loadout is counted
 *   and estimated at the faction's rate (at b47df59: 869 entries, 754,292 duels, about a quarter of an
 *   hour on 2 cores: too long for a bench); the field timed instead is every model of every faction
 *   with a Trench Club, and each model with the weapons the catalogue gives it alone.
 * - The faction by battles (issue 50, part 2): `price --by battles --attack-type melee` at its defaults,
 *   on the simulation threads: match-ups, battles, seconds, battles a second.
 * - The job queue (as bench/queue.ts: a redis-server of its own, skipped without one): the catalogue's
 *   field solved by 1 and by 2 `injury-lab worker` processes (--concurrency 1), its duels DUELS_PER_JOB
 *   to a job, and the speed-up; each matrix must equal the pool's, fraction for fraction.
 *
 * Every run uses the default policy `none` and 10 rounds, and is timed once (a run is tens of thousands
 * of duels: its own average), wall clock and CPU seconds (this process with its threads; for the queue,
 * the worker processes too). On a machine other work shares, the CPU figure is the steadier one.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { readCatalogueProfiles } from '../src/import/read-battlescribe.js';
import { readProfilesFile } from '../src/input/read-files.js';
import { closeExactPool, exactThreads } from '../src/pool/exact.js';
import { profilesPresenter } from '../src/present/tables/profiles.js';
import { type DuelEntry, type DuelMatrix, solveDuelMatrix } from '../src/pricing/duel-matrix.js';
import { fieldFromProfiles } from '../src/pricing/field.js';
import { DUELS_PER_JOB, parseQueueUrl } from '../src/queue/shards.js';
import { checkPriceSettings, type BattlePriceSettings } from '../src/pricing/price-settings.js';
import { battlePriceOfSettings } from '../src/pricing/battle-price-run.js';
import { closePool } from '../src/pool/simulate.js';
import { withQueue } from '../src/queue/submit.js';
import { redisAvailable, startRedis } from './local-redis.js';
import { REDIS_SERVER, cpuOf, startWorkers, stop } from './queue.js';

/** Where the mirror of the community catalogues is looked for when INJURY_LAB_CATALOGUE_MIRROR names none. */
export const CATALOGUE_MIRROR = '/work/.mirror/Fawkstrot11+TrenchCrusade/repo';
const GAME_SYSTEM = 'Trench Crusade.gst';
const FACTION = 'Trench Pilgrims.cat';
/** Catalogues every faction links to: the weapons and equipment it may buy. */
const SHARED = ['Melee Weapons.cat', 'Ranged Weapons.cat', 'Equipment.cat'];
/** Rules only, no models or weapons of their own: left out of the whole catalogue. */
const NOT_A_FACTION = ['Campaign Rules.cat'];
/** The melee weapon every model of the catalogue's timed field carries: offered to every faction. */
const COMMON_WEAPON = 'Trench Club';
const THREADS = 2;
const PROCESSES = [1, 2];

export interface FieldTiming {
  readonly label: string;
  readonly entries: number;
  readonly duels: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly duelsPerSecond: number;
}

export interface BattleTiming {
  readonly entries: number;
  readonly matchups: number;
  readonly battles: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly battlesPerSecond: number;
  /** ln(fair price) on ln(price) over the faction. */
  readonly fairPriceRSquared: number | undefined;
}

export interface QueueTiming {
  readonly processes: number;
  readonly seconds: number;
  /** CPU seconds of the worker processes, of this process (the submitter), of redis-server. */
  readonly cpu: { workers: number; submitter: number; redis: number };
  /** The matrix equals the pool's, fraction for fraction. */
  readonly sameMatrix: true;
}

export interface PriceFigures {
  readonly mirror: string;
  readonly commit: string;
  readonly threads: number;
  readonly faction: FieldTiming;
  /** Every model of every faction with each melee weapon of its loadout: counted, not timed. */
  readonly wholeCatalogue: { readonly models: number; readonly meleeWeapons: number; readonly entries: number; readonly duels: number };
  readonly catalogue: FieldTiming;
  /** The faction priced by battles at the defaults (issue 50, part 2): `price --by battles --attack-type melee`. */
  readonly battles: BattleTiming;
  /** Undefined when there is no redis-server. */
  readonly queue?: { readonly field: string; readonly runs: QueueTiming[]; readonly speedup: number };
}

const git = (dir: string, ...args: string[]) => spawnSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** The mirror's newest catalogue files, copied into `into`; or why they cannot be (no mirror, not one git reads, a file missing). */
function copyCatalogues(into: string): { mirror: string; commit: string; files: string[] } | { skipped: string } {
  const mirror = process.env.INJURY_LAB_CATALOGUE_MIRROR ?? CATALOGUE_MIRROR;
  if (!existsSync(mirror)) return { skipped: `no mirror of the community catalogues at ${mirror} (set INJURY_LAB_CATALOGUE_MIRROR to one)` };
  const listed = git(mirror, 'ls-tree', '--name-only', 'HEAD');
  if (listed.status !== 0) return { skipped: `${mirror} is not a git repository git can read: ${listed.stderr.trim()}` };
  const names = listed.stdout.split('\n').filter((n) => n.endsWith('.cat') || n.endsWith('.gst'));
  for (const needed of [GAME_SYSTEM, FACTION, ...SHARED]) if (!names.includes(needed)) return { skipped: `${mirror} has no ${needed}` };
  for (const name of names) {
    const blob = spawnSync('git', ['--git-dir', mirror, 'show', `HEAD:${name}`], { maxBuffer: 64 * 1024 * 1024 });
    if (blob.status !== 0) return { skipped: `git could not read ${name} of ${mirror}` };
    writeFileSync(join(into, name), blob.stdout);
  }
  return { mirror, commit: git(mirror, 'rev-parse', '--short', 'HEAD').stdout.trim(), files: names };
}

/** The catalogues read and exported as a profiles file (`profiles --catalogue ... --format json`), which `price --profiles` reads back. */
function exportProfiles(dir: string, catalogues: readonly string[], name: string): string {
  const file = join(dir, name);
  writeFileSync(file, profilesPresenter.json(readCatalogueProfiles(catalogues.map((c) => join(dir, c)))));
  return file;
}

/** The field `price --profiles` makes of a profiles file. */
function fieldOf(file: string, options: Parameters<typeof fieldFromProfiles>[1] = {}): { field: DuelEntry[] } {
  return { field: fieldFromProfiles(readProfilesFile(file), options) };
}

const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/**
 * The duels' base: the exported profiles, what a duel does not model left out as price --allow-unmodelled
 * leaves it (the whole catalogue holds weapons with INFECTION MARKERS, ruling T41, which stop a duel).
 */
const baseOf = (file: string) => ({ profiles: file, allowUnmodelled: true });

async function timeOnThreads(label: string, field: readonly DuelEntry[], file: string): Promise<{ timing: FieldTiming; matrix: DuelMatrix }> {
  const cpu = ownCpu();
  const t = performance.now();
  const matrix = await solveDuelMatrix(field, { base: baseOf(file), solver: exactThreads, atOnce: THREADS });
  const seconds = (performance.now() - t) / 1000;
  const duels = field.length * (field.length - 1);
  return { timing: { label, entries: field.length, duels, seconds, cpuSeconds: ownCpu() - cpu, duelsPerSecond: duels / seconds }, matrix };
}

const count = (n: number) => n.toLocaleString('en-GB');

/** The pricing figures (undefined when the catalogues' mirror is missing), printed as they come. */
export async function priceFigures(log: (line: string) => void): Promise<PriceFigures | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'injury-lab-bench-price-'));
  const children: ChildProcess[] = [];
  try {
    const copied = copyCatalogues(dir);
    if ('skipped' in copied) {
      log(`price: skipped, ${copied.skipped}`);
      return undefined;
    }
    const { mirror, commit } = copied;
    log(`price (issue 40): exact duels, policy none, 10 rounds, each run timed once; the community catalogues at ${commit} (${mirror})`);
    const pilgrimsFile = exportProfiles(dir, [GAME_SYSTEM, FACTION, ...SHARED], 'pilgrims.json');
    const factions = copied.files.filter((f) => f.endsWith('.cat') && !SHARED.includes(f) && !NOT_A_FACTION.includes(f));
    const catalogueFile = exportProfiles(dir, [GAME_SYSTEM, ...factions, ...SHARED], 'catalogue.json');

    // Warm-up: the threads started and their code compiled before anything is timed.
    await solveDuelMatrix(fieldOf(pilgrimsFile).field.slice(0, 6), { base: { profiles: pilgrimsFile }, solver: exactThreads, atOnce: THREADS });

    const pilgrims = fieldOf(pilgrimsFile);
    const line = (t: FieldTiming) =>
      `${count(t.entries)} entries, ${count(t.duels)} duels: ${t.seconds.toFixed(1)} s (CPU ${t.cpuSeconds.toFixed(1)} s, ${(t.cpuSeconds / t.seconds).toFixed(2)} cores busy), ${count(Math.round(t.duelsPerSecond))} duels/s`;
    const { timing: faction } = await timeOnThreads('Trench Pilgrims, every model with each melee weapon of its loadout', pilgrims.field, pilgrimsFile);
    log(`  ${faction.label}, ${THREADS} threads:`);
    log(`    ${line(faction)}`);

    // The same faction priced by battles at the defaults (700 ducats, 20,000 battles an entry and count).
    const battleSettings = checkPriceSettings({ profiles: pilgrimsFile, allowUnmodelled: true, by: 'battles', attackType: 'melee' }, (name) => name) as BattlePriceSettings;
    const battleCpu = ownCpu();
    const battleStart = performance.now();
    const { result: byBattles } = await battlePriceOfSettings(battleSettings, { workers: THREADS });
    const battleSeconds = (performance.now() - battleStart) / 1000;
    await closePool();
    const battles: BattleTiming = {
      entries: byBattles.entries.length,
      matchups: byBattles.battles / byBattles.gamesPerMatchup,
      battles: byBattles.battles,
      seconds: battleSeconds,
      cpuSeconds: ownCpu() - battleCpu,
      battlesPerSecond: byBattles.battles / battleSeconds,
      fairPriceRSquared: byBattles.fairPriceRSquared,
    };
    log(`  Trench Pilgrims by battles (price --by battles --attack-type melee, the defaults: ${battleSettings.ducats} ducats, ${count(battleSettings.games)} battles an entry and count), ${THREADS} threads:`);
    log(
      `    ${count(battles.entries)} entries, ${count(battles.matchups)} match-ups of ${byBattles.gamesPerMatchup} battles, ${count(battles.battles)} battles: ${battleSeconds.toFixed(1)} s ` +
        `(CPU ${battles.cpuSeconds.toFixed(1)} s), ${count(Math.round(battles.battlesPerSecond))} battles/s; ln(fair price) on ln(price) r² ${battles.fairPriceRSquared?.toFixed(2) ?? '-'}`,
    );

    const catalogueProfiles = readProfilesFile(catalogueFile);
    const melee = [...catalogueProfiles.weapons.values()].filter((w) => (w.fields.attackType ?? 'melee') === 'melee');
    const everything = fieldOf(catalogueFile).field.length;
    const wholeCatalogue = { models: catalogueProfiles.models.size, meleeWeapons: melee.length, entries: everything, duels: everything * (everything - 1) };
    const minutes = wholeCatalogue.duels / faction.duelsPerSecond / 60;
    log(
      `  whole catalogue (${factions.length} factions), every model with each melee weapon of its loadout: ${count(wholeCatalogue.models)} models, ${count(wholeCatalogue.meleeWeapons)} melee weapons, ` +
        `${count(wholeCatalogue.entries)} entries, ${count(wholeCatalogue.duels)} duels: about ${minutes.toFixed(0)} minutes at the faction's rate, too long for a bench; timed instead:`,
    );
    // Every model once with a weapon all may buy, and each model with the weapons it alone is given.
    const ownWeapons = melee.filter((w) => [...catalogueProfiles.models.keys()].some((m) => w.name.startsWith(`${m} with `))).map((w) => w.name);
    const catalogueField = fieldOf(catalogueFile, { weapons: [COMMON_WEAPON, ...ownWeapons] });
    const catalogueLabel = `every model of every faction with a ${COMMON_WEAPON}, and each with its own melee weapons`;
    const { timing: catalogue, matrix: poolMatrix } = await timeOnThreads(catalogueLabel, catalogueField.field, catalogueFile);
    log(`  ${catalogue.label}, ${THREADS} threads:`);
    log(`    ${line(catalogue)}`);
    await closeExactPool();

    if (!redisAvailable) {
      log(`  job queue: skipped, ${REDIS_SERVER} is missing (apt-get install -y redis-server)`);
      return { mirror, commit, threads: THREADS, faction, wholeCatalogue, catalogue, battles };
    }
    const redis = await startRedis();
    try {
      const address = parseQueueUrl(redis.url);
      const runs: QueueTiming[] = [];
      log(`  the same ${count(catalogue.duels)} duels through the job queue (${DUELS_PER_JOB} duels a job; worker processes with --concurrency 1; redis-server on 127.0.0.1):`);
      for (const k of PROCESSES) {
        // A fresh set of k workers, so the queue counts exactly k.
        await Promise.all(children.splice(0).map(stop));
        await startWorkers(redis.url, address, k, children);
        const workersCpu = () => children.reduce((sum, c) => sum + cpuOf(c.pid), 0);
        const before = { workers: workersCpu(), own: ownCpu(), redis: cpuOf(redis.pid) };
        const t = performance.now();
        const matrix = await withQueue({ address }, (session) => solveDuelMatrix(catalogueField.field, { base: baseOf(catalogueFile), solver: session }));
        const seconds = (performance.now() - t) / 1000;
        if (!isDeepStrictEqual(matrix, poolMatrix)) throw new Error(`price bench: the matrix through the queue (${k} processes) differs from the pool's`);
        const run: QueueTiming = {
          processes: k,
          seconds,
          cpu: { workers: workersCpu() - before.workers, submitter: ownCpu() - before.own, redis: cpuOf(redis.pid) - before.redis },
          sameMatrix: true,
        };
        runs.push(run);
        log(
          `    ${k} worker process${k === 1 ? ' ' : 'es'}: ${seconds.toFixed(1)} s, ${count(Math.round(catalogue.duels / seconds))} duels/s ` +
            `(CPU workers ${run.cpu.workers.toFixed(1)} s, submitter ${run.cpu.submitter.toFixed(1)} s, redis ${run.cpu.redis.toFixed(1)} s); the pool's fractions: yes`,
        );
      }
      const speedup = runs[0]!.seconds / runs.at(-1)!.seconds;
      log(`    speed-up from 1 to ${PROCESSES.at(-1)} processes: ${speedup.toFixed(2)}x; against the ${THREADS}-thread pool: ${(catalogue.seconds / runs.at(-1)!.seconds).toFixed(2)}x its rate`);
      return { mirror, commit, threads: THREADS, faction, wholeCatalogue, catalogue, battles, queue: { field: catalogueLabel, runs, speedup } };
    } finally {
      await Promise.all(children.map(stop));
      await redis.stop();
    }
  } finally {
    await closeExactPool();
    rmSync(dir, { recursive: true, force: true });
  }
}
