/**
 * Where the tests still import the charts' names from, until their imports follow the names into
 * src/present/chart/ (#49: the charts are a room of their own now; the next step moves these imports).
 */
export { chartNotes, chartSpec, chartTitle, sameDefaultTitle } from './chart/charts.js';
export { CHART_TYPES, chartDimensions, type ChartDef, type ChartType, type VlSpec } from './chart/definition.js';
export { heatmapTop, sharedScaleKey } from './chart/heatmap.js';
export { MAX_HEATMAP_ROWS } from './chart/map-base.js';
export { valueTip } from './chart/shared/cells.js';
export { textWidth } from './chart/shared/text.js';
export { CHART_WIDTH, CONFIG, FALL_COLOUR, INK, mix, NO_CHANGE_COLOUR, RISE_COLOUR, SERIES_COLOURS, seriesStyle } from './chart/shared/theme.js';
export type { ChartOptions } from './chart/shared/titles.js';
export { MAX_BARS } from './chart/stacked-bars.js';
export { DEFAULT_VALUE_PER, MAX_VALUE_CHANCE, VALUE_OUTLIER_RATIO, valueMeasure, valueRows, valueSkipped } from './chart/value.js';
