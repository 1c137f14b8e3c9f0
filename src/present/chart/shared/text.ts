import { CHART_WIDTH, LABEL_SIZE } from './theme.js';

/**
 * How wide text is, by vega's own estimate (0.8 em a character): what every plan of a chart's room for
 * labels and titles is made with.
 */

/** Width vega will reserve for a text, by its own estimate. */
export function textWidth(text: string, size = LABEL_SIZE): number {
  return Math.floor(0.8 * text.length * size);
}

export const maxWidth = (texts: readonly string[], size = LABEL_SIZE) => Math.max(0, ...texts.map((t) => textWidth(t, size)));

/**
 * Room between row labels and the axis title. Vega places the title by its own estimate of the labels'
 * width, which falls short of what the font draws by about a twentieth of ours (0.8 em a letter): long
 * labels ("Lantern Warden with Thornpike (102)") would run under the title without it.
 */
export function rowTitlePadding(labelWidth: number): number {
  return 4 + Math.ceil(0.15 * labelWidth);
}

/** Characters per subtitle line that vega will not cut short (its estimate: 0.8 em per character). */
export const SUBTITLE_CHARS = Math.floor((CHART_WIDTH - 40) / (0.8 * 12.5));
/** Characters per title line, likewise (17 px titles). */
export const TITLE_CHARS = Math.floor((CHART_WIDTH - 40) / (0.8 * 17));

export const capitalise = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);
