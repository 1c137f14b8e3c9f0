export { chiSquareGoodnessOfFit, MIN_EXPECTED, type GoodnessOfFit } from './chi-square.js';
export {
  crossCheck,
  FAMILY_ALPHA,
  worstZ,
  type BinCheck,
  type CrossCheckReport,
  type HistogramCheck,
  type MeanCheck,
  type OutcomeCheck,
} from './cross-check.js';
export { meanInterval, wilson, type Interval, type MeanEstimate } from './interval.js';
export { chiSquareUpperTail, normalCdf, normalQuantile, normalTwoSided, Z95 } from './normal.js';
export {
  summarize,
  type BinSummary,
  type HistogramSummary,
  type MeanSummary,
  type OutcomeSummary,
  type SimSummary,
} from './summary.js';
