/**
 * The look every chart shares: the width charts are planned for, fonts and sizes, vega's config, the
 * series' colours and dashes, the diverging colours of changes, and the text colour on a filled mark.
 */

/** The report page's column (report/page.ts: 1,060 px less its padding) less the figure's border. */
export const CHART_WIDTH = 1000;

const FONT = 'DejaVu Sans, Verdana, Arial, sans-serif';

export const LABEL_SIZE = 12;

export const TITLE_SIZE = 13;

export const TITLE_FONT_SIZE = 17;

/** Line colours of a chart's series, each of its own hue (two greens would read as one series). */
export const SERIES_COLOURS = ['#1f4e79', '#4c9f70', '#8e6bbf', '#3fa7c4', '#7f6f5f', '#c05aa8', '#2b2b2b', '#8b6914'];

const SERIES_DASHES = [[1, 0], [6, 3], [2, 2], [8, 3, 2, 3]];

/**
 * The colour and dash of series `i`: the dash steps on with the colour and once more each time the
 * colours start over, so no two of the first colours x dashes series share both.
 */
export function seriesStyle(i: number): { colour: string; dash: number[] } {
  const round = Math.floor(i / SERIES_COLOURS.length);
  return { colour: SERIES_COLOURS[i % SERIES_COLOURS.length]!, dash: SERIES_DASHES[(i + round) % SERIES_DASHES.length]! };
}

export const CONFIG = {
  font: FONT,
  background: 'white',
  padding: 12,
  title: { fontSize: TITLE_FONT_SIZE, subtitleFontSize: 12.5, subtitleColor: '#444444', anchor: 'start', offset: 12, subtitlePadding: 4, limit: CHART_WIDTH - 30 },
  axis: { labelFontSize: LABEL_SIZE, titleFontSize: TITLE_SIZE, titleFontWeight: 'bold', labelLimit: 400, titleColor: '#222222', labelColor: '#222222', gridColor: '#e6e6e6' },
  // Vega cuts legend titles at 180 px by default ("Chance of at lea..."); the plans below give them room.
  legend: { labelFontSize: LABEL_SIZE, titleFontSize: TITLE_SIZE, labelLimit: 400, titleLimit: 400, symbolSize: 140 },
  header: { labelFontSize: LABEL_SIZE, titleFontSize: TITLE_SIZE, labelLimit: 400 },
  view: { stroke: '#cccccc' },
} as const;

/** Text colour from the row's precomputed `ink` (white on dark segments), without a second colour scale. */
export const INK = { condition: { test: "datum.ink === '#ffffff'", value: '#ffffff' }, value: '#111111' };

/** Diverging colours for changes: blue down, white none, red up (ColorBrewer RdBu, colour-blind safe). */
export const FALL_COLOUR = '#2166ac';

export const NO_CHANGE_COLOUR = '#f7f7f7';

export const RISE_COLOUR = '#b2182b';

/** Linear interpolation between two #rrggbb colours, as the heat map's rgb scale does it. */
export function mix(a: string, b: string, t: number): string {
  const ca = [1, 3, 5].map((i) => parseInt(a.slice(i, i + 2), 16));
  const cb = [1, 3, 5].map((i) => parseInt(b.slice(i, i + 2), 16));
  return `#${ca.map((v, i) => Math.round(v + (cb[i]! - v) * t).toString(16).padStart(2, '0')).join('')}`;
}
