import type { ChartDef, VlSpec } from '../chart/definition.js';
import type { AnalysisDef, PriceAnalysisDef, ReportDef } from './definition.js';
import type { PricedField } from '../../pricing/price-run.js';
import type { BattlePricedField } from '../../pricing/battle-price-run.js';
import type { Rendered } from './render.js';
import type { SweepResult } from '../../analysis/sweep.js';

/**
 * What a report run made, as data: the analyses with their sweeps and drawn charts, and the manifest.
 * Its own file, below both the run (run.ts) and what shows and writes it (page.ts, write/report.ts),
 * which all read it: when it lived in the run's file the three files made a circle.
 */

/** A chart drawn for the page: its file name (no ending), spec, drawings, and what it could not show. */
export interface DrawnChart {
  readonly file: string;
  readonly spec: VlSpec;
  readonly rendered: Rendered;
  /** What the chart could not show (values without a cost, rows past the top ones), one line each, for the page. */
  readonly notes: readonly string[];
}

/** A grid's chart, drawn: its file name is its definition's. */
export interface ChartRun extends Omit<DrawnChart, 'file'> {
  readonly def: ChartDef;
}

export interface AnalysisRun {
  readonly def: AnalysisDef;
  readonly sweep: SweepResult;
  readonly charts: readonly ChartRun[];
  readonly seconds: number;
}

/** A price analysis, priced: from exact duels or from battles (its settings' `by`), and what it rests on. */
export type PriceRun = DuelPriceRun | BattlePriceRun;

interface PriceRunBase {
  readonly def: PriceAnalysisDef;
  /** Its chart (chart/price.ts, chart/battle-price.ts), written as charts/FILE.vl.json, .svg and .png. */
  readonly chart: DrawnChart;
  readonly seconds: number;
}

/** Prices from exact duels: the field's duels, ratings and fair prices. */
export interface DuelPriceRun extends PriceRunBase {
  readonly by: 'duels';
  readonly priced: PricedField;
}

/** Prices from battles at equal ducats: each entry's fair price where its warband wins half against the field. */
export interface BattlePriceRun extends PriceRunBase {
  readonly by: 'battles';
  readonly priced: BattlePricedField;
}

export interface ReportManifest {
  readonly tool: 'injury-lab';
  readonly version: string;
  /** When the report was made (ISO 8601); SOURCE_DATE_EPOCH fixes it for reproducible builds. */
  readonly date: string;
  readonly node: string;
  readonly definition: { readonly file: string; readonly sha256: string };
  readonly systems: readonly string[];
  readonly editions: readonly string[];
  readonly ruleSources: readonly string[];
  readonly analyses: readonly {
    readonly id: string;
    readonly kind: string;
    readonly editions: readonly string[];
    /** Every cell of the grid, the not allowed ones too. */
    readonly cells: number;
    /** How many cells the rules forbid, when any do: left out, shown as "not allowed". */
    readonly notAllowed?: number;
    readonly exact: boolean;
    readonly simulation?: {
      readonly seed: number;
      readonly batches: number;
      readonly trialsPerCell: readonly number[];
      readonly generator: string;
      readonly chunkSize: number;
      readonly commonRandomNumbers: boolean;
    };
  }[];
  /** Each price analysis: what its duels or battles were, so the same settings give the same prices. */
  readonly prices: readonly (
    | {
        readonly id: string;
        readonly kind: 'price';
        readonly by: 'duels';
        readonly edition: string;
        readonly entries: number;
        /** Exact duels solved: two per pair. */
        readonly duels: number;
        readonly rounds: number;
        readonly policy: string;
      }
    | {
        readonly id: string;
        readonly kind: 'price';
        readonly by: 'battles';
        readonly edition: string;
        readonly entries: number;
        /** Battles played in all, and what they were played with. */
        readonly battles: number;
        readonly games: number;
        readonly ducats: number;
        readonly seed: number;
      }
  )[];
}

export interface ReportRun {
  readonly def: ReportDef;
  readonly analyses: readonly AnalysisRun[];
  readonly prices: readonly PriceRun[];
  readonly manifest: ReportManifest;
  readonly seconds: number;
}
