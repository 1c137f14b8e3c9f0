import { tallyOffsets } from '../model/tally.js';
import type { TalliedTrials } from '../model/types.js';
import { meanInterval, wilson } from './interval.js';
import { Z95 } from './normal.js';

export interface OutcomeSummary {
  readonly outcome: string;
  readonly count: number;
  readonly probability: number;
  readonly ciLow: number;
  readonly ciHigh: number;
}

export interface MeanSummary {
  readonly id: string;
  readonly jsonKey: string;
  readonly label: string;
  readonly value: number;
  readonly ciLow: number;
  readonly ciHigh: number;
}

export interface BinSummary {
  readonly bin: string;
  readonly count: number;
  readonly probability: number;
  readonly ciLow: number;
  readonly ciHigh: number;
}

export interface HistogramSummary {
  readonly id: string;
  readonly label: string;
  readonly bins: readonly BinSummary[];
}

/** Estimates with 95% intervals: Wilson for proportions, normal approximation for means. */
export interface SimSummary {
  readonly trials: number;
  readonly outcomes: readonly OutcomeSummary[];
  readonly means: readonly MeanSummary[];
  readonly histograms: readonly HistogramSummary[];
}

export function summarize(run: TalliedTrials): SimSummary {
  const { layout, trials: n, tally } = run;
  const at = tallyOffsets(layout);
  const proportion = (count: number) => {
    const { low, high } = wilson(count, n, Z95);
    return { count, probability: count / n, ciLow: low, ciHigh: high };
  };
  return {
    trials: n,
    outcomes: layout.outcomes.map((outcome, i) => ({ outcome, ...proportion(tally[i]!) })),
    means: layout.means.map((m, j) => {
      const { mean, low, high } = meanInterval(tally[at.means + 2 * j]!, tally[at.means + 2 * j + 1]!, n, Z95);
      return { id: m.id, jsonKey: m.jsonKey, label: m.label, value: mean, ciLow: low, ciHigh: high };
    }),
    histograms: layout.histograms.map((h, k) => ({
      id: h.id,
      label: h.label,
      bins: h.bins.map((bin, b) => ({ bin, ...proportion(tally[at.histograms[k]! + b]!) })),
    })),
  };
}
