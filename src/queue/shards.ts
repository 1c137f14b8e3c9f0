import { createHash } from 'node:crypto';
import { showValue } from '../errors.js';
import { refusal } from '../messages.js';
import type { ExactAnswer, ReportLayout, Scenario } from '../model/types.js';
import { add, formatFraction, fraction, ZERO, type Fraction } from '../exact/fraction.js';
import { kindExact } from '../rules/exact-kinds.js';
import { parseScenarioWith, type ScenarioFiles } from '../input/scenario-core.js';
import { kindSimulation } from '../rules/simulations.js';
import { CHUNK_SIZE } from '../sim/protocol.js';
import { tallyOffsets } from '../model/tally.js';
import { MAX_SEED, MAX_TRIALS } from '../sim/run-limits.js';
import { toolVersion } from '../version.js';
import { MAX_JSON_BYTES } from '../json-text.js';
import type { DuelChances } from '../exact-result.js';
import { DUEL_KIND } from '../rules/duel-report.js';
import { describeAllowed } from '../model/field-schema.js';
import type { ResolvedBattle } from '../rules/trench-crusade/battle/resolved.js';
import { battleFields } from '../rules/trench-crusade/battle/fields.js';
import { BATTLE_BLOOD_POLICIES, BATTLE_TACTICS, MAX_MOVEMENT_INCHES, MAX_RANGE_INCHES } from '../rules/trench-crusade/battle/kind.js';
import { SEQUENCE_KIND } from '../rules/trench-crusade/sequence/fields.js';
import { MAX_ENTRY_COUNT, MAX_SIDE_MODELS } from '../input/battle-core.js';

/**
 * What travels through the Redis queue (issue #27): a shard is a range of a run's seeded chunks, and
 * its result is the tally of those chunks. A chunk's counts depend only on the scenario, the seed, the
 * chunk's index and the run's trials, and tallies are sums of whole numbers, so the submitter's sum of
 * shard tallies, in whatever order they come back, is the local run's tally exactly.
 * Nothing here talks to Redis: the shapes, their checks and the queue URL are plain code to test.
 */

/** Version of the job shapes below; a worker refuses jobs of any other. */
export const SHARD_PROTOCOL = 1;
/** The job names a worker runs: a chunk range of a simulation, a whole exact cell, and a batch of a price field's duels. */
export const SHARD_JOB = 'shard';
export const EXACT_JOB = 'exact';
export const DUELS_JOB = 'duels';
/** Chunks per shard: 16 chunks of 65,536 trials, about a million trials, some tens of milliseconds. */
export const SHARD_CHUNKS = 16;

/** One queue per tool version, so workers of another version never see the jobs they could not run. */
export function shardQueueName(version: string = toolVersion): string {
  return `injury-lab-${version.replace(/[^0-9A-Za-z.-]/g, '_')}-shards`;
}

/** A range of a run's seeded chunks, as every simulation shard carries it. */
interface ShardRange {
  readonly v: number;
  readonly tool: 'injury-lab';
  readonly version: string;
  readonly runId: string;
  readonly shard: number;
  readonly seed: number;
  readonly firstChunk: number;
  readonly chunkCount: number;
  readonly totalTrials: number;
}

export interface ShardJob extends ShardRange {
  /** The checked scenario (parseScenario's), plain JSON: fields, and a rule table of plain values. */
  readonly scenario: Scenario;
}

/** A shard of a battle (src/input/battle.ts): its settings, entries and every attack as a checked sequence. */
export interface BattleShardJob extends ShardRange {
  readonly battle: ResolvedBattle;
}

/** An exact cell: the checked scenario, solved whole by a worker's exact engine; its answer comes back as fractions (encodeAnswer). */
export interface ExactJob {
  readonly v: number;
  readonly tool: 'injury-lab';
  readonly version: string;
  readonly runId: string;
  readonly scenario: Scenario;
}

export function exactJob(runId: string, scenario: Scenario): ExactJob {
  return { v: SHARD_PROTOCOL, tool: 'injury-lab', version: toolVersion, runId, scenario };
}

/**
 * Duels per job, at most: a field's duel takes some 2 ms to solve (the bench's catalogue field), while a
 * job costs its submitter some 2.3 ms of CPU and Redis 0.6 ms whatever it holds (measured with a job per
 * duel). 32 make a job of some 60 ms, its trip a twentieth of that; a job's data stays near 120 KB (a
 * duel's scenario is some 3.6 KB of JSON, most of it the rule table); and the field's last jobs, which
 * leave the other workers idle, are short. A field of 12 entries (132 duels) is still 5 jobs.
 */
export const DUELS_PER_JOB = 32;

/** A batch of a field's duels (src/pricing/duel-matrix.ts): checked scenarios of the duel kind, each solved whole; only their chances come back (encodeDuelChances). */
export interface DuelsJob {
  readonly v: number;
  readonly tool: 'injury-lab';
  readonly version: string;
  readonly runId: string;
  readonly scenarios: readonly Scenario[];
}

export function duelsJob(runId: string, scenarios: readonly Scenario[]): DuelsJob {
  return { v: SHARD_PROTOCOL, tool: 'injury-lab', version: toolVersion, runId, scenarios };
}

/** The job id of a shard: a shard added twice is one job, and its result is counted once. */
export function shardJobId(runId: string, shard: number): string {
  return `${runId}-${shard}`;
}

/**
 * The shards of a run's chunks fromChunk .. ceil(trials / CHUNK_SIZE) - 1: a whole run from chunk 0, or a
 * round of a run to a precision, which goes on from the chunks played before it.
 */
export function shardCount(trials: number, fromChunk = 0): number {
  return Math.ceil((Math.ceil(trials / CHUNK_SIZE) - fromChunk) / SHARD_CHUNKS);
}

/** Shard `shard` of a run whose chunks up to fromChunk are played already: chunks from fromChunk + shard x SHARD_CHUNKS. */
export function shardJob(runId: string, shard: number, scenario: Scenario, seed: number, trials: number, fromChunk = 0): ShardJob {
  return { ...shardRange(runId, shard, seed, trials, fromChunk), scenario };
}

/** Shard `shard` of a battle's run, as shardJob. */
export function battleShardJob(runId: string, shard: number, battle: ResolvedBattle, seed: number, trials: number, fromChunk = 0): BattleShardJob {
  return { ...shardRange(runId, shard, seed, trials, fromChunk), battle };
}

function shardRange(runId: string, shard: number, seed: number, trials: number, fromChunk: number): ShardRange {
  const chunks = Math.ceil(trials / CHUNK_SIZE);
  const firstChunk = fromChunk + shard * SHARD_CHUNKS;
  return {
    v: SHARD_PROTOCOL,
    tool: 'injury-lab',
    version: toolVersion,
    runId,
    shard,
    seed,
    firstChunk,
    chunkCount: Math.min(SHARD_CHUNKS, chunks - firstChunk),
    totalTrials: trials,
  };
}

/** Trials a shard plays. */
export function shardTrials(job: Pick<ShardJob, 'firstChunk' | 'chunkCount' | 'totalTrials'>): number {
  return Math.min(job.totalTrials, (job.firstChunk + job.chunkCount) * CHUNK_SIZE) - job.firstChunk * CHUNK_SIZE;
}

/** The scenario survives JSON unchanged (the job travels as JSON), or the run is refused before anything is queued. */
export function assertJsonSafe(scenario: Scenario | ResolvedBattle, what: 'scenario' | 'battle' = 'scenario'): void {
  const text = JSON.stringify(scenario);
  if (text !== undefined && text.length > MAX_SCENARIO_CHARS) throw refusal('--queue', `the ${what} is ${text.length} characters of JSON, more than a worker takes (${MAX_SCENARIO_CHARS})`, 'run it without --queue');
  if (text === undefined || JSON.stringify(JSON.parse(text)) !== text || !sameJson(scenario, JSON.parse(text))) {
    throw new Error(`this ${what} does not survive the trip through the queue as JSON`);
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a === 'number') return Object.is(a, b);
  if (typeof a !== 'object' || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const MOST_DEPTH = 8;
const MOST_KEYS = 2000;

/** A worker's check of a job it was handed (a shard, an exact cell, a batch of duels): a reason to refuse it, or undefined when it can be played. */
export function refuseJob(name: string, data: unknown): string | undefined {
  if (name !== SHARD_JOB && name !== EXACT_JOB && name !== DUELS_JOB) return `job kind ${showValue(name)} is not injury-lab's (it runs only ${SHARD_JOB}, ${EXACT_JOB} and ${DUELS_JOB} jobs)`;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'the job data is not an object';
  const d = data as Record<string, unknown>;
  if (d.tool !== 'injury-lab') return `the job is not injury-lab's (tool ${showValue(d.tool)})`;
  if (d.v !== SHARD_PROTOCOL || d.version !== toolVersion) {
    return `the job is of injury-lab ${showValue(d.version)} (shard protocol ${showValue(d.v)}), this worker is injury-lab ${toolVersion} (shard protocol ${SHARD_PROTOCOL}): run workers of the submitter's version`;
  }
  if (typeof d.runId !== 'string' || !/^[0-9a-f-]{1,64}$/.test(d.runId)) return `runId ${showValue(d.runId)} is not a run id`;
  if (name === DUELS_JOB) return refuseDuels(d.scenarios);
  const bad = name === SHARD_JOB ? refuseChunkRange(d) : undefined;
  if (bad) return bad;
  if (name === SHARD_JOB && d.battle !== undefined) return d.scenario === undefined ? refuseBattle(d.battle) : 'the shard carries a scenario and a battle; a shard plays one';
  return refuseScenario(d.scenario, name === SHARD_JOB ? 'simulated' : 'solved exactly');
}

/** Attacks of one Shoot or Fight action a battle's weapon may make (AUTOMATIC N, CLEAVE N). */
const MOST_ATTACKS_PER_ACTION = 10;
/** A battle's JSON nests its attacks four deep under a side, each a scenario with its rule table. */
const MOST_BATTLE_DEPTH = 14;
const MOST_BATTLE_KEYS = 1_000_000;

/**
 * A battle shard's battle, checked as the CLI builds one: its settings within their fields' ranges, each
 * side's entries and weapons in shape, as many attacks as entries x weapons x enemy entries, and every
 * attack a scenario of the sequence kind that this worker's checks give back unchanged (recheckScenario).
 */
function refuseBattle(b: unknown): string | undefined {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return 'the battle is not an object';
  let keys = 0;
  const plain = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string' || typeof v === 'boolean' || v === null) return true;
    if (typeof v === 'number') return Number.isFinite(v);
    if (typeof v !== 'object' || depth > MOST_BATTLE_DEPTH) return false;
    const entries = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v as object);
    keys += entries.length;
    return keys <= MOST_BATTLE_KEYS && entries.every(([, x]) => plain(x, depth + 1));
  };
  if (!plain(b, 0)) return 'the battle is not plain JSON of settings, entries and attacks';
  if (JSON.stringify(b).length > MAX_SCENARIO_CHARS) return `the battle is more than ${MAX_SCENARIO_CHARS} characters of JSON`;
  const battle = b as Record<string, unknown>;
  const inRange = (v: unknown, low: number, high: number, whole = false) => typeof v === 'number' && v >= low && v <= high && (!whole || Number.isInteger(v));
  for (const f of battleFields) {
    const v = battle[f.name];
    const s = f.schema;
    const ok = s.type === 'boolean' ? typeof v === 'boolean' : s.type === 'string' ? (s.enum as readonly unknown[]).includes(v) : s.type === 'integer' || s.type === 'number' ? inRange(v, s.minimum, s.maximum, s.type === 'integer') : false;
    if (!ok) return `the battle's ${f.name} ${showValue(v)} is not allowed (${describeAllowed(s)})`;
  }
  if (typeof battle.system !== 'string' || typeof battle.edition !== 'string') return 'the battle has no system or edition';
  const sides = [battle.a, battle.b] as Record<string, unknown>[];
  for (const [i, side] of sides.entries()) {
    const key = i === 0 ? 'a' : 'b';
    if (typeof side !== 'object' || side === null) return `the battle has no side ${key}`;
    if (typeof side.label !== 'string' || !(BATTLE_TACTICS as readonly unknown[]).includes(side.tactic) || !(BATTLE_BLOOD_POLICIES as readonly unknown[]).includes(side.blood)) return `side ${key}'s label, tactic or blood policy is not one a battle has`;
    const entries = side.entries as Record<string, unknown>[];
    if (!Array.isArray(entries) || entries.length < 1 || entries.length > MAX_SIDE_MODELS) return `side ${key}'s entries are not a list of 1 to ${MAX_SIDE_MODELS}`;
    for (const e of entries) {
      const weapons = e.weapons as Record<string, unknown>[];
      const entryOk = typeof e.name === 'string' && inRange(e.count, 1, MAX_ENTRY_COUNT, true) && inRange(e.victoryPoints, 0, Number.MAX_SAFE_INTEGER) && inRange(e.movement, 0, MAX_MOVEMENT_INCHES) && Array.isArray(weapons) && weapons.length >= 1;
      if (!entryOk) return `side ${key}'s entry ${showValue(e.name)} is not an entry a battle has (name, count, victory points, movement, weapons)`;
      for (const w of weapons) {
        const weaponOk = typeof w.name === 'string' && typeof w.ranged === 'boolean' && typeof w.assault === 'boolean' && inRange(w.rangeInches, 0, MAX_RANGE_INCHES) && inRange(w.attacks, 1, MOST_ATTACKS_PER_ACTION, true);
        if (!weaponOk) return `side ${key}'s entry ${showValue(e.name)} has a weapon that is not one a battle has`;
      }
    }
    if (entries.reduce((n, e) => n + (e.count as number), 0) > MAX_SIDE_MODELS) return `side ${key} has more than ${MAX_SIDE_MODELS} models`;
  }
  for (const [i, side] of sides.entries()) {
    const entries = side.entries as Record<string, unknown>[];
    const enemies = (sides[1 - i]!.entries as unknown[]).length;
    const attacks = side.attacks as unknown[][][];
    const shaped = Array.isArray(attacks) && attacks.length === entries.length && attacks.every((byWeapon, e) => Array.isArray(byWeapon) && byWeapon.length === (entries[e]!.weapons as unknown[]).length && byWeapon.every((byTarget) => Array.isArray(byTarget) && byTarget.length === enemies));
    if (!shaped) return `side ${i === 0 ? 'a' : 'b'}'s attacks are not one per entry, weapon and enemy entry`;
    for (const pair of attacks.flat(2)) {
      const sc = pair as Record<string, unknown>;
      if (typeof sc !== 'object' || sc === null || sc.kind !== SEQUENCE_KIND || sc.system !== battle.system) return `an attack of side ${i === 0 ? 'a' : 'b'} is not a ${SEQUENCE_KIND} of ${String(battle.system)}`;
      const bad = recheckScenario(sc, JSON.stringify(sc));
      if (bad) return `an attack of side ${i === 0 ? 'a' : 'b'}: ${bad}`;
    }
  }
  return undefined;
}

/** A batch of duels: 1 to DUELS_PER_JOB scenarios, each one an exact cell would be, of the duel kind (only a duel's chances are read from its answer). */
function refuseDuels(scenarios: unknown): string | undefined {
  if (!Array.isArray(scenarios) || scenarios.length < 1 || scenarios.length > DUELS_PER_JOB) {
    return `the job's scenarios are not a list of 1 to ${DUELS_PER_JOB} duels (${Array.isArray(scenarios) ? `${scenarios.length} of them` : showValue(scenarios)})`;
  }
  for (const [i, s] of scenarios.entries()) {
    const bad = refuseScenario(s, 'solved exactly') ?? ((s as Record<string, unknown>).kind === DUEL_KIND ? undefined : `the scenario is of kind ${showValue((s as Record<string, unknown>).kind)}, not a ${DUEL_KIND}`);
    if (bad) return `duel ${i + 1} of the ${scenarios.length} in the batch: ${bad}`;
  }
  return undefined;
}

function refuseChunkRange(d: Record<string, unknown>): string | undefined {
  const whole = (key: string, low: number, high: number): string | undefined =>
    Number.isSafeInteger(d[key]) && (d[key] as number) >= low && (d[key] as number) <= high ? undefined : `${key} ${showValue(d[key])} is not a whole number from ${low} to ${high}`;
  const bad =
    whole('seed', 0, MAX_SEED) ??
    whole('totalTrials', 1, MAX_TRIALS) ??
    whole('shard', 0, Number.MAX_SAFE_INTEGER) ??
    whole('firstChunk', 0, Number.MAX_SAFE_INTEGER) ??
    whole('chunkCount', 1, SHARD_CHUNKS);
  if (bad) return bad;
  const chunks = Math.ceil((d.totalTrials as number) / CHUNK_SIZE);
  if ((d.firstChunk as number) + (d.chunkCount as number) > chunks) return `chunks ${String(d.firstChunk)} + ${String(d.chunkCount)} go past the run's ${chunks}`;
  return undefined;
}

function refuseScenario(s: unknown, work: 'simulated' | 'solved exactly'): string | undefined {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return 'the scenario is not an object';
  let keys = 0;
  const plain = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string' || typeof v === 'boolean' || v === null) return true;
    if (typeof v === 'number') return Number.isFinite(v);
    if (typeof v !== 'object' || Array.isArray(v) || depth > MOST_DEPTH) return false;
    const entries = Object.entries(v as object);
    keys += entries.length;
    return keys <= MOST_KEYS && entries.every(([, x]) => plain(x, depth + 1));
  };
  if (!plain(s, 0)) return 'the scenario is not a plain object of fields and rules';
  // Before any check parses it: a real scenario (its fields and a rule table) is a few KB.
  const text = JSON.stringify(s);
  if (text.length > MAX_SCENARIO_CHARS) return `the scenario is ${text.length} characters of JSON; a scenario is at most ${MAX_SCENARIO_CHARS}`;
  const sc = s as Record<string, unknown>;
  if (typeof sc.system !== 'string' || typeof sc.kind !== 'string' || typeof sc.rules !== 'object' || sc.rules === null) return 'the scenario has no system, kind or rules';
  try {
    if (work === 'simulated') kindSimulation(sc as unknown as Scenario);
    else kindExact(sc as unknown as Scenario);
  } catch {
    return `the scenario's system and kind ${showValue(`${sc.system}/${sc.kind}`)} are not ${work} by this worker`;
  }
  return recheckScenario(sc, text);
}

/** Reads no file: a shard's scenario carries everything (its rule table, its profiles' fields laid in). */
const noFiles: ScenarioFiles = {
  variant: () => {
    throw new Error('a shard names no variant file');
  },
  profiles: () => {
    throw new Error('a shard names no profiles file');
  },
  roster: () => {
    throw new Error('a shard names no roster');
  },
  catalogue: () => {
    throw new Error('a shard names no catalogue');
  },
};

/**
 * Scenarios checked lately, by a digest of their text: a sweep through the queue has up to 64 cells'
 * jobs out at once, interleaved, so one remembered scenario would be parsed again for nearly every job.
 * Kept by digest, not by text, so what a worker remembers is bounded in bytes whatever the jobs hold
 * (256 texts of 32 MB once took a 256 MB heap down): 256 digests and reasons cut to 500 characters.
 */
const checked = new Map<string, string | undefined>();
const MOST_REMEMBERED = 256;
const MOST_REASON_CHARS = 500;
/**
 * A scenario's JSON: a default one is about 3 KB, most of it the rule table. A variant file may hold up
 * to 1 MiB (MAX_JSON_BYTES) and travels inlined, so twice that: no real scenario comes near it.
 */
export const MAX_SCENARIO_CHARS = 2 * MAX_JSON_BYTES;

/** What the remembered checks hold, in characters (for the test that bounds it). */
export function rememberedChars(): number {
  let n = 0;
  for (const [digest, reason] of checked) n += digest.length + (reason?.length ?? 0);
  return n;
}

/**
 * The scenario checked as the CLI checks one: its fields, with its rule table as an inline variant,
 * parsed again here, must give back the very scenario sent (the labels variant, weapon and target
 * aside, which no kernel reads). So a worker plays only what the submitter's own checks would pass.
 * Jobs carrying a scenario checked lately are not checked again.
 */
function recheckScenario(sc: Record<string, unknown>, text: string): string | undefined {
  const digest = createHash('sha256').update(text).digest('base64');
  if (checked.has(digest)) return checked.get(digest);
  const { rules, variant: _variant, weapon: _weapon, target: _target, ...fields } = sc;
  let reason: string | undefined;
  try {
    const again = parseScenarioWith({ ...fields, rules: { system: sc.system, edition: sc.edition, rules } }, noFiles) as unknown as Record<string, unknown>;
    const { variant: _v, weapon: _w, target: _t, ...parsed } = again;
    if (!sameJson(parsed, { ...fields, rules })) reason = 'the scenario is not one the checks of this version give';
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    reason = `the scenario does not pass this worker's checks: ${message.length > MOST_REASON_CHARS ? `${message.slice(0, MOST_REASON_CHARS)}...` : message}`;
  }
  // The oldest goes first once the map is full (a Map keeps its insertion order).
  if (checked.size >= MOST_REMEMBERED) checked.delete(checked.keys().next().value!);
  checked.set(digest, reason);
  return reason;
}

/** An exact answer as it travels back from a worker: every fraction as "p/q" (or "p"), the kind's notes and extra fields as they are. */
export interface EncodedAnswer {
  readonly outcomes: string[];
  readonly means: string[];
  readonly histograms: string[][];
  readonly extra?: Record<string, unknown>;
  readonly notes?: string[];
}

export function encodeAnswer(answer: ExactAnswer): EncodedAnswer {
  return {
    outcomes: answer.outcomes.map(formatFraction),
    means: answer.means.map(formatFraction),
    histograms: answer.histograms.map((h) => h.map(formatFraction)),
    ...(answer.extra ? { extra: { ...answer.extra } } : {}),
    ...(answer.notes ? { notes: [...answer.notes] } : {}),
  };
}

/** The most digits a fraction's numerator or denominator may have: far above any answer (a 10-round duel's are some hundreds). */
const MOST_DIGITS = 20_000;
const FRACTION_TEXT = new RegExp(`^(-?\\d{1,${MOST_DIGITS}})(?:/(\\d{1,${MOST_DIGITS}}))?$`);

function readFraction(v: unknown): Fraction | undefined {
  if (typeof v !== 'string') return undefined;
  const m = FRACTION_TEXT.exec(v);
  if (!m || (m[2] !== undefined && BigInt(m[2]) === 0n)) return undefined;
  const f = fraction(BigInt(m[1]!), BigInt(m[2] ?? '1'));
  // Only the reduced form a worker writes: "2/4" or "-0" is not an answer this version gives.
  return formatFraction(f) === v ? f : undefined;
}

function sumsToOne(fs: readonly Fraction[]): boolean {
  let sum = ZERO;
  for (const f of fs) sum = add(sum, f);
  return sum.num === 1n && sum.den === 1n;
}

/**
 * A worker's exact answer, checked before it is used: as many fractions as the layout has outcomes, means
 * and bins, each a reduced fraction, probabilities from 0 to 1, the outcomes and each histogram's bins
 * summing to exactly 1, and no mean below 0.
 */
export function readExactAnswer(value: unknown, layout: ReportLayout): ExactAnswer | undefined {
  const v = typeof value === 'string' ? safeParse(value) : value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const e = v as Record<string, unknown>;
  const list = (x: unknown, length: number, probability: boolean): Fraction[] | undefined => {
    if (!Array.isArray(x) || x.length !== length) return undefined;
    const fs = x.map(readFraction);
    if (fs.some((f) => f === undefined || (probability && (f.num < 0n || f.num > f.den)))) return undefined;
    return fs as Fraction[];
  };
  const outcomes = list(e.outcomes, layout.outcomes.length, true);
  const means = list(e.means, layout.means.length, false);
  if (!outcomes || !means || !Array.isArray(e.histograms) || e.histograms.length !== layout.histograms.length) return undefined;
  const histograms = layout.histograms.map((h, i) => list((e.histograms as unknown[])[i], h.bins.length, true));
  if (histograms.some((h) => h === undefined)) return undefined;
  // Each trial ends in one outcome and one bin of each histogram; every mean is of counts from 0.
  if (!sumsToOne(outcomes) || !histograms.every((h) => sumsToOne(h!)) || means.some((m) => m.num < 0n)) return undefined;
  if (e.notes !== undefined && !(Array.isArray(e.notes) && e.notes.every((n) => typeof n === 'string'))) return undefined;
  if (e.extra !== undefined && (typeof e.extra !== 'object' || e.extra === null || Array.isArray(e.extra))) return undefined;
  return {
    outcomes,
    means,
    histograms: histograms as Fraction[][],
    ...(e.extra !== undefined ? { extra: e.extra as Record<string, unknown> } : {}),
    ...(e.notes !== undefined ? { notes: e.notes as string[] } : {}),
  };
}

/** A batch's chances as they travel back from a worker: each duel's a-wins, b-wins and undecided as "p/q". */
export function encodeDuelChances(chances: readonly DuelChances[]): string[][] {
  return chances.map((c) => [c.aWins, c.bWins, c.undecided].map(formatFraction));
}

/**
 * A worker's chances for a batch of `duels` duels, checked before they are used: for each duel three
 * reduced fractions from 0 to 1 that sum to exactly 1 (every duel is won by a, by b, or undecided).
 */
export function readDuelChances(value: unknown, duels: number): DuelChances[] | undefined {
  const v = typeof value === 'string' ? safeParse(value) : value;
  if (!Array.isArray(v) || v.length !== duels) return undefined;
  const out: DuelChances[] = [];
  for (const triple of v) {
    if (!Array.isArray(triple) || triple.length !== 3) return undefined;
    const fs = triple.map(readFraction);
    if (fs.some((f) => f === undefined || f.num < 0n || f.num > f.den)) return undefined;
    const [aWins, bWins, undecided] = fs as [Fraction, Fraction, Fraction];
    if (!sumsToOne([aWins, bWins, undecided])) return undefined;
    out.push({ aWins, bWins, undecided });
  }
  return out;
}

/**
 * A shard's result, checked before it is added: its tally (the layout of src/model/tally.ts) for
 * `trials` trials, or why it cannot be one. Every count a trial adds is a whole number from 0 (an
 * outcome, a bin, a mean's value: counts and 0/1 chances, see MeanSpec), so what holds of every honest
 * tally is checked: whole numbers; the outcome counts and each histogram's bins summing to the trials;
 * for each mean, its sum of squares at least its sum (x*x >= x for a whole x >= 0), of the same parity
 * (x*x and x are both odd or both even), and at least sum*sum / trials (Cauchy-Schwarz). A worker that
 * answers zeros, twice the trials, 1e300 or 65,535.5 fails one of them.
 */
export function readShardResult(value: unknown, layout: ReportLayout, trials: number): number[] | string {
  const v = typeof value === 'string' ? safeParse(value) : value;
  const offsets = tallyOffsets(layout);
  if (!Array.isArray(v)) return 'it is not a list of counts';
  if (v.length !== offsets.length) return `it has ${v.length} counts where the layout has ${offsets.length}`;
  const at = v.findIndex((x) => typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0);
  if (at >= 0) return `count ${at} is ${JSON.stringify(v[at])}, not a whole number from 0`;
  const tally = v as number[];
  const sum = (from: number, n: number) => tally.slice(from, from + n).reduce((a, b) => a + b, 0);
  const outcomes = sum(offsets.outcomes, layout.outcomes.length);
  if (outcomes !== trials) return `its outcome counts sum to ${outcomes}, not the shard's ${trials} trials`;
  for (const [i, h] of layout.histograms.entries()) {
    const bins = sum(offsets.histograms[i]!, h.bins.length);
    if (bins !== trials) return `its histogram ${h.id} sums to ${bins}, not the shard's ${trials} trials`;
  }
  for (const [i, m] of layout.means.entries()) {
    const total = tally[offsets.means + 2 * i]!;
    const squares = tally[offsets.means + 2 * i + 1]!;
    // In BigInt: a sum of squares passes 2^53 in a long shard of large counts; the check must not round.
    const consistent = squares >= total && (squares - total) % 2 === 0 && BigInt(total) * BigInt(total) <= BigInt(trials) * BigInt(squares);
    if (!consistent) return `its mean ${m.id} (sum ${total}, sum of squares ${squares}) is no sum of ${trials} whole counts`;
  }
  return tally;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface QueueAddress {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly username?: string;
  readonly password?: string;
  readonly tls: boolean;
  /** host:port, what messages print (never the password). */
  readonly shown: string;
}

/**
 * A URL that does not parse, shown without what may be a password: everything between the scheme and
 * the last "@" (a password may hold "/", "#" or "@" itself, which is why it did not parse).
 */
function withoutPassword(text: string): string {
  const at = text.lastIndexOf('@');
  if (at < 0) return text;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
  return `${scheme}***@${text.slice(at + 1)}`;
}

/** Reads --queue: redis://[user:password@]host[:port][/db] (rediss:// for TLS). A bad URL is a refusal that does not echo a password. */
export function parseQueueUrl(text: unknown): QueueAddress {
  const want = 'a Redis URL such as redis://HOST:6379 (redis://:PASSWORD@HOST:6379/0; rediss:// for TLS)';
  if (typeof text !== 'string' || text === '') throw refusal('--queue', `expected ${want}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refusal('--queue', `${showValue(withoutPassword(text))} is not a URL`, `expected ${want}${text.includes('@') ? '; a password holding / # ? or @ is written percent-encoded (%2F %23 %3F %40)' : ''}`);
  }
  // An "@" after the host is a password's own, cut at a "/" it holds: the URL parsed, but not as meant.
  if (url.pathname.includes('@')) throw refusal('--queue', `${showValue(withoutPassword(text))} is not a URL as meant`, `expected ${want}; a password holding / # ? or @ is written percent-encoded (%2F %23 %3F %40)`);
  const shownUrl = `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw refusal('--queue', `${showValue(shownUrl)} is not a Redis URL`, `expected ${want}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') throw refusal('--queue', `${showValue(shownUrl)} names no host`, `expected ${want}`);
  const port = url.port === '' ? 6379 : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!/^\d{0,2}$/.test(dbText) || !Number.isInteger(db)) throw refusal('--queue', `${showValue(shownUrl)} names no database number after the host`, 'give one such as /0, or none');
  if (url.search !== '' || url.hash !== '') throw refusal('--queue', `${showValue(shownUrl)} has a ?query or #fragment`, 'give none');
  return {
    host,
    port,
    db,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    tls: url.protocol === 'rediss:',
    shown: `${url.hostname}:${port}`,
  };
}
