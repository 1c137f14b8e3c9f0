/**
 * What a chart is as a report definition gives it (ChartDef): its type and the dimensions it puts on its
 * channels. Every file of the room reads it; it imports none of them.
 */

export type ChartDef = (
  | {
      readonly type: 'stacked-bars';
      readonly y: string;
      readonly facet?: string;
      /** "This or worse": the segments laid most severe first, each labelled where its "or worse" ends. */
      readonly cumulative?: boolean;
      readonly title?: string;
      readonly file: string;
    }
  | {
      readonly type: 'lines';
      readonly x: string;
      readonly series?: string;
      readonly facet?: string;
      readonly outcomes?: readonly string[];
      readonly cumulative?: boolean;
      /** "step-after" for quantities that hold until the next threshold (fall heights). */
      readonly interpolate?: 'linear' | 'step-after';
      readonly title?: string;
      readonly file: string;
    }
  | {
      readonly type: 'heatmap';
      readonly x: string;
      readonly y: string;
      readonly facet?: string;
      readonly outcome: string;
      readonly cumulative?: boolean;
      /**
       * A value (its label) of the facet dimension: each other facet shows its change against that one,
       * in percentage points (e.g. a variant against the edition's rules), on a diverging scale.
       */
      readonly differenceFrom?: string;
      /**
       * Colour the cells on a scale from 0% to 100% instead of from 0 to the largest value (rounded up to
       * a tenth): maps of chances read whole (who wins a duel) look alike whatever their largest cell.
       */
      readonly fullScale?: boolean;
      readonly title?: string;
      readonly file: string;
    }
  | {
      /**
       * What each weapon (or model) gives for its price: `outcome`'s chance (or, with `survive`, the
       * chance of escaping it; or the mean `mean`) per `per` of cost, averaged over the analysis's other
       * dimensions, as bars from best to worst value, with the outliers marked.
       */
      readonly type: 'value';
      readonly by: string;
      readonly outcome?: string;
      readonly cumulative?: boolean;
      readonly survive?: boolean;
      readonly mean?: string;
      readonly per?: number;
      readonly title?: string;
      readonly file: string;
    }
) & {
  /** What the chart was asked about, as the first line under its title ("attack; pierce 2, stat 10"). */
  readonly context?: string;
};

export type ChartType = ChartDef['type'];

/** A chart as a definition gives it, before its file name is settled and its options checked. */
export type ChartInput = { readonly type: ChartType; readonly file?: string; readonly [option: string]: unknown };

export const CHART_TYPES: readonly ChartType[] = ['stacked-bars', 'lines', 'heatmap', 'value'];

/** The dimensions a chart puts on its channels, in the order they are listed. */
export function chartDimensions(c: ChartDef): string[] {
  switch (c.type) {
    case 'stacked-bars':
      return [c.y, ...(c.facet ? [c.facet] : [])];
    case 'lines':
      return [c.x, ...(c.series ? [c.series] : []), ...(c.facet ? [c.facet] : [])];
    case 'heatmap':
      return [c.x, c.y, ...(c.facet ? [c.facet] : [])];
    case 'value':
      return [c.by];
  }
}

/** A spec as plain JSON (vega-lite's own types are far larger than what this file uses). */
export type VlSpec = Record<string, unknown>;
