/**
 * Messages between the page (page.ts) and its Web Workers (worker.ts). A worker gets the scenario as the
 * user wrote it and parses it itself with the engine: the parsed scenario holds functions of its rule
 * table that do not survive postMessage, and parsing costs microseconds next to any answer.
 */

import type { OpenedFile } from '../engine.js';

/** Where early.ts leaves the worker it starts before the page's script runs, for workers.ts to take. */
export const EARLY_WORKER = 'injuryLabEarlyWorker';

/** Answer one scenario exactly: the same JSON as `injury-lab exact --format json`. */
export interface ExactRequest {
  readonly type: 'exact';
  readonly id: number;
  readonly input: unknown;
}

/**
 * Play chunks firstChunk .. firstChunk + chunkCount - 1 of a run of `totalTrials` from `seed`, as the
 * CLI's worker threads play them (src/sim/chunks.ts), and send back their tally.
 */
export interface ChunksRequest {
  readonly type: 'chunks';
  readonly id: number;
  readonly input: unknown;
  readonly seed: number;
  readonly firstChunk: number;
  readonly chunkCount: number;
  readonly totalTrials: number;
}

/** Summarise a finished run's tally (intervals) and check it against the exact answer, as the CLI does. */
export interface CheckRequest {
  readonly type: 'check';
  readonly id: number;
  readonly input: unknown;
  readonly trials: number;
  readonly seed: number;
  readonly workers: number;
  readonly seconds: number;
  readonly tally: Float64Array;
}

/** The files the user opened, by name: every later request's scenario may name them. */
export interface FilesRequest {
  readonly type: 'files';
  readonly id: number;
  readonly files: readonly (readonly [string, Uint8Array])[];
  /** Reply with what each file is (the exact worker, for the list); simulation workers only keep them. */
  readonly describe: boolean;
}

/** A grid's simulation as `sweep` and `compare` take it: --trials per cell (in the default batches) and --seed. */
export interface GridSim {
  readonly trials: number;
  readonly seed: number;
}

/** A one-field sweep of the scenario, exactly and, given `sim`, simulated: `injury-lab sweep --vary FIELD=VALUES [--trials N --seed S]`. */
export interface SweepRequest {
  readonly type: 'sweep';
  readonly id: number;
  readonly input: unknown;
  /** As --vary takes it: "injuryDice=0..3", "armour=none,standard". */
  readonly vary: string;
  readonly sim?: GridSim;
}

/** Two or more named scenarios compared exactly and, given `sim`, simulated: `injury-lab compare`. */
export interface CompareRequest {
  readonly type: 'compare';
  readonly id: number;
  readonly scenarios: readonly { readonly name: string; readonly raw: Record<string, unknown> }[];
  readonly sim?: GridSim;
}

/**
 * Every weapon against every model of the scenario's profiles, exactly (a report's matchup matrix): the
 * heat map, and the value chart of the weapons' chance of the kind's worst outcome per 10 of their cost.
 */
export interface MatrixRequest {
  readonly type: 'matrix';
  readonly id: number;
  readonly input: unknown;
  readonly weapons: readonly string[];
  readonly models: readonly string[];
}

export type WorkerRequest = ExactRequest | ChunksRequest | CheckRequest | FilesRequest | SweepRequest | CompareRequest | MatrixRequest;

/** What the page shows of a sweep or a comparison: the CLI's JSON document, its chart, its CSV and its words. */
export interface GridReply {
  readonly id: number;
  readonly json: Record<string, unknown>;
  readonly chart: Record<string, unknown>;
  readonly csv: string;
  /** The matrix `--wide` writes (its text), and what fills its cells (the line the CLI says on stderr). */
  readonly wide: { readonly text: string; readonly note: string };
  /** The table the command line prints. */
  readonly table: string;
  /** The sweep's one-sentence finding, or the comparison's verdicts. */
  readonly words: readonly string[];
  /** A matrix's value chart, or why it has none (the engine's refusal: no costs, a chance that cannot double). */
  readonly value?: Record<string, unknown>;
  readonly valueNote?: string;
}

export interface CheckedReply {
  readonly type: 'checked';
  readonly id: number;
  readonly summary: { readonly outcomes: readonly { outcome: string; count: number; probability: number; ciLow: number; ciHigh: number }[] };
  readonly check: { readonly passed: boolean; readonly failures: readonly string[] };
  /** The chart and CSV again, with the run's estimates and intervals beside the exact values. */
  readonly chart: Record<string, unknown>;
  readonly csv: string;
}

export type WorkerReply =
  /** The answer as `exact --format json` prints it, its chart (the Vega-Lite spec `exact --chart` draws) and its CSV. */
  | { readonly type: 'exact'; readonly id: number; readonly result: Record<string, unknown>; readonly chart: Record<string, unknown>; readonly csv: string }
  | { readonly type: 'tally'; readonly id: number; readonly firstChunk: number; readonly chunkCount: number; readonly tally: Float64Array }
  | CheckedReply
  | { readonly type: 'opened'; readonly id: number; readonly files: readonly OpenedFile[] }
  | ({ readonly type: 'swept' } & GridReply)
  | ({ readonly type: 'compared' } & GridReply)
  /** A refusal of the user's input (the CLI's one line), or `bug` for anything else. */
  | { readonly type: 'error'; readonly id: number; readonly message: string; readonly bug: boolean };
