import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Vega from 'vega';
import type { VlSpec } from '../chart/definition.js';

/**
 * Vega-Lite spec -> Vega spec -> SVG (vega's headless view, no canvas, no DOM) -> PNG (resvg). The PNG
 * is drawn with the DejaVu Sans files of the dejavu-fonts-ttf package and no system fonts, so the same
 * spec gives the same pixels on every machine, fonts installed or not.
 *
 * vega, vega-lite and resvg are loaded when the first chart is drawn, not with this module: a command
 * that may draw a chart (simulate --chart) but does not would otherwise carry them all its run (tens of
 * megabytes of a 10^9-trial simulation's memory, issue 39).
 */

const require = createRequire(import.meta.url);
const fontDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf'].map((f) => join(fontDir, f));

export interface Rendered {
  readonly vega: Record<string, unknown>;
  readonly svg: string;
  /** Empty when the PNG was not asked for. */
  readonly png: Buffer;
  readonly width: number;
  readonly height: number;
  /** Warnings from vega-lite's compiler and vega's view; a correct chart has none. */
  readonly warnings: readonly string[];
}

/** A logger for vega and vega-lite that collects warnings instead of printing them. */
function collectingLogger(vega: typeof Vega, into: string[]) {
  let level = vega.Warn;
  const logger = {
    level(l?: number) {
      if (l === undefined) return level;
      level = l;
      return logger;
    },
    error(...args: unknown[]) {
      into.push(`error: ${args.map(String).join(' ')}`);
      return logger;
    },
    warn(...args: unknown[]) {
      if (level >= vega.Warn) into.push(`warning: ${args.map(String).join(' ')}`);
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
  };
  return logger;
}

/**
 * Vega's SVG gives each mark its description (the `tip` of the chart builders) as an aria-label, which a screen
 * reader says but a mouse never shows: a `<title>` child makes every browser show it on hover, with no
 * script, so a chart inlined in a page or opened alone tells the exact value of any mark under the pointer.
 */
export function withHoverTitles(svg: string): string {
  return svg.replace(/<(path|rect|circle|line)((?:\s[^<>]*?)?\saria-label="([^"]*)"[^<>]*?role="graphics-symbol"[^<>]*?)\/>/g, (_, tag: string, attrs: string, label: string) => `<${tag}${attrs}><title>${label}</title></${tag}>`);
}

export async function renderChart(spec: VlSpec, opts: { pngScale?: number; png?: boolean } = {}): Promise<Rendered> {
  const [vega, { compile }, { Resvg }] = await Promise.all([import('vega'), import('vega-lite'), import('@resvg/resvg-js')]);
  const warnings: string[] = [];
  const logger = collectingLogger(vega, warnings);
  // vega-lite's TopLevelSpec type is far wider than the plain JSON built here; it checks the spec itself.
  const compiled = compile(spec as never, { logger: logger as never });
  const view = new vega.View(vega.parse(compiled.spec as Vega.Spec), { renderer: 'none', logger: logger as never, logLevel: vega.Warn });
  await view.runAsync();
  const svg = withHoverTitles(await view.toSVG());
  // The outer size (view.width() is the plot's inner width, 0 for faceted charts).
  const size = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(svg);
  const width = size ? Number(size[1]) : 0;
  const height = size ? Number(size[2]) : 0;
  view.finalize();
  if (opts.png === false) return { vega: compiled.spec as Record<string, unknown>, svg, png: Buffer.alloc(0), width, height, warnings };
  const png = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: opts.pngScale ?? 2 },
    background: 'white',
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
  })
    .render()
    .asPng();
  return { vega: compiled.spec as Record<string, unknown>, svg, png, width, height, warnings };
}
