/**
 * A validated scenario's exact answer, with its outcomes' "or worse" sums and its manifest: what the
 * exact worker threads run (src/pool/exact.ts), so nothing here reads files or parses input
 * (src/evaluate.ts parses, then comes here).
 */
import { type Fraction, ONE, formatFraction, sub, toNumber } from './exact/fraction.js';
import type { ExactAnswer, ReportLayout, Scenario } from './model/types.js';
import { toolVersion } from './version.js';
import { editionOf, kindExact } from './rules/exact-kinds.js';
import { orWorse, total } from './running-sums.js';
import type { DUEL_OUTCOMES } from './rules/duel-report.js';

export interface ExactOutcome {
  outcome: string;
  probability: number;
  exact: string;
  /**
   * This outcome or a more severe one (the outcomes are listed from mildest to most severe); absent
   * where they are not ranked (a duel's winners: "b wins or worse" means nothing).
   */
  orWorse?: number;
  orWorseExact?: string;
}

export interface ExactValue {
  value: number;
  exact: string;
}

export interface Manifest {
  tool: 'injury-lab';
  version: string;
  system: string;
  edition: string;
  ruleSources: string[];
}

export interface ExactResult {
  system: string;
  edition: string;
  kind: string;
  scenario: Scenario;
  outcomes: ExactOutcome[];
  /** Means by JSON key, e.g. expectedBloodMarkers. */
  means: Record<string, ExactValue>;
  histograms: Record<string, { bin: string; probability: number; exact: string }[]>;
  notes: string[];
  extra: Record<string, unknown>;
  manifest: Manifest;
  /** The raw exact answer, for code that compares fractions. */
  answer: ExactAnswer;
  layout: ReportLayout;
}

export function manifestFor(scenario: Scenario): Manifest {
  const edition = editionOf(scenario);
  return {
    tool: 'injury-lab',
    version: toolVersion,
    system: scenario.system,
    edition: scenario.edition,
    ruleSources: edition ? edition.source.split(/,\s*/) : [],
  };
}

export const value = (f: Fraction): ExactValue => ({ value: toNumber(f), exact: formatFraction(f) });

/**
 * Evaluates a scenario parseScenario has already validated, as it is: what a worker thread runs on a
 * scenario the main thread parsed and sent over (a structured clone, whose rule table is no longer the
 * object parseScenario marked as checked).
 */
export function evaluateParsed(scenario: Scenario): ExactResult {
  const kind = kindExact(scenario);
  return exactResultOf(scenario, kind.layout(scenario), kind.exact(scenario));
}

/** What solves a grid's exact cells: the calling thread (threadSolver), the CLI's exact threads (src/pool/exact.ts), or a queue's hosts (src/queue/submit.ts). */
export interface ExactSolver {
  solve(scenario: Scenario, signal?: AbortSignal): Promise<ExactResult>;
  /**
   * Duels solved many at a time, only their chances back: what a solver offers when a duel's own trip
   * costs about as much as solving it (a queue's job). Without it a field's duels go one by one to solve.
   */
  readonly duelBatches?: DuelBatchSolver;
}

/** A duel's three chances: all a field's matrix keeps of its answer (a whole answer, with its scenario, is some ten kilobytes). */
export interface DuelChances {
  readonly aWins: Fraction;
  readonly bWins: Fraction;
  readonly undecided: Fraction;
}

export interface DuelBatchSolver {
  /** Duels handed over at a time: as many as make one job worth its trip. */
  readonly perBatch: number;
  /** Each duel's chances, in the order given; the first failure (a duel refused, an abort) rejects. */
  solve(scenarios: readonly Scenario[], signal?: AbortSignal): Promise<DuelChances[]>;
}

/** The chances of a duel kind's answer, read by outcome id. */
export function duelChancesOf(result: ExactResult): DuelChances {
  const at = (id: (typeof DUEL_OUTCOMES)[number]) => result.answer.outcomes[result.layout.outcomes.indexOf(id)]!;
  return { aWins: at('a-wins'), bWins: at('b-wins'), undecided: at('undecided') };
}

/** The calling thread as a solver: the web page's grid worker. */
export const threadSolver: ExactSolver = {
  solve: async (scenario, signal) => {
    signal?.throwIfAborted();
    return evaluateParsed(scenario);
  },
};

/** A solved answer as the outputs read it: each fraction also as a number, "this or worse", means and histograms by name. */
export function exactResultOf(scenario: Scenario, layout: ReportLayout, answer: ExactAnswer): ExactResult {
  const sum = total(answer.outcomes);
  if (sub(sum, ONE).num !== 0n) throw new Error(`internal: ${scenario.kind} outcomes sum to ${formatFraction(sum)}, not 1`);
  const cumulative = orWorse(answer.outcomes);
  const means: Record<string, ExactValue> = {};
  layout.means.forEach((m, i) => (means[m.jsonKey] = value(answer.means[i]!)));
  const histograms: ExactResult['histograms'] = {};
  layout.histograms.forEach((h, i) => {
    histograms[h.id] = h.bins.map((bin, j) => ({ bin, ...renameValue(answer.histograms[i]![j]!) }));
  });
  return {
    system: scenario.system,
    edition: scenario.edition,
    kind: scenario.kind,
    scenario,
    outcomes: layout.outcomes.map((outcome, i) => ({
      outcome,
      probability: toNumber(answer.outcomes[i]!),
      exact: formatFraction(answer.outcomes[i]!),
      ...(layout.unranked ? {} : { orWorse: toNumber(cumulative[i]!), orWorseExact: formatFraction(cumulative[i]!) }),
    })),
    means,
    histograms,
    notes: [...(answer.notes ?? [])],
    extra: { ...(answer.extra ?? {}) },
    manifest: manifestFor(scenario),
    answer,
    layout,
  };
}

function renameValue(f: Fraction): { probability: number; exact: string } {
  return { probability: toNumber(f), exact: formatFraction(f) };
}
