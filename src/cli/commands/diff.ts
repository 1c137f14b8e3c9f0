import type { CommandModule } from 'yargs';
import { showValue } from '../../errors.js';
import { notAllowed, refusal } from '../../messages.js';
import { DEFAULT_TOP, diffPresenter } from '../../present/tables/diff.js';
import { existsSync } from 'node:fs';
import { diffGridCells, diffGridOutcomes, diffRules, keywordGrid, readDiffGrid, resolveSide } from '../../analysis/diff.js';
import { diffChartSpec } from '../../present/chart/diff.js';
import { CHART_ENDINGS, checkChartFile, writeChartSpec } from '../../present/write/one-off-chart.js';
import { terminalSafe } from '../../terminal-safe.js';
import { addChartLayoutOptions, chartRequestFromArgv } from '../chart-options.js';
import { diffMapSpec, planDiffMap } from '../../present/chart/diff-map.js';
import { parseScenario } from '../../input/scenario.js';
import { pickedOutcomes } from '../outcome-pick.js';
import { findSystem } from '../../rules/registry.js';
import { addFormatOption, parseFormat } from '../options.js';

export const diffCommand: CommandModule = {
  command: 'diff <base> <other>',
  describe: 'What a change of rules does: two editions or variant files, exactly, over a grid of common situations; the largest moves first',
  builder: (y) =>
    addFormatOption(
      addChartLayoutOptions(y
        .positional('base', { type: 'string', describe: 'An edition (core, playtest, ...) or a variant file' })
        .positional('other', { type: 'string', describe: 'An edition or a variant file' })
        .option('system', { type: 'string', describe: 'The system whose edition names BASE and OTHER are (default: found from them)' })
        .option('grid', { type: 'string', describe: 'A grid file: { "scenario": {...}, "vary": [...] } or a list of them (default: the system\'s standard grid)' })
        .option('top', { type: 'number', describe: 'How many of the largest moves the table (and --chart) lists', default: DEFAULT_TOP })
        .option('chart', { type: 'string', describe: `Also draw the largest moves as a chart into this file, one bar per cell and outcome in points: ${CHART_ENDINGS.join(', ')} (.vl.json: the Vega-Lite spec; .html: a page that works offline)` })
        .option('outcome', { type: 'string', describe: "Keep only this outcome's moves (several: ids separated by commas), each cell's own; with --chart, the chart's one outcome" })
        .option('force', { type: 'boolean', describe: 'Replace an existing --chart file', default: false })),
      diffPresenter(),
    )
      .example('$0 diff core examples/variants/out-of-action-on-10.json', 'what moving Out of Action to 10+ does')
      .example('$0 diff comprehensive core --format csv', 'two editions, every cell and outcome as CSV')
      .example('$0 diff core examples/variants/out-of-action-on-10.json --outcome out-of-action --chart ooa.svg', 'where Out of Action moves, as a chart')
      .example('$0 diff core examples/variants/out-of-action-on-10.json --chart-type heatmap --x injuryDice --y armour --chart map.svg', 'the change over two fields of the grid, a panel per kind'),
  handler: async (argv) => {
    const top = argv.top;
    if (typeof top !== 'number' || !Number.isInteger(top) || top < 1) throw notAllowed('--top', top, 'a whole number from 1');
    const format = parseFormat(argv.format, diffPresenter(top), 'diff');
    const chartRequest = chartRequestFromArgv(argv);
    let system;
    if (argv.system !== undefined) {
      system = typeof argv.system === 'string' ? findSystem(argv.system) : undefined;
      if (!system) throw refusal('--system', `${showValue(argv.system)} is not a known system`);
    }
    const baseGiven = String(argv.base);
    const otherGiven = String(argv.other);
    // An edition name alone does not say its system; a variant file does, so resolve that side first.
    const base0 = system ? resolveSide(baseGiven, system) : undefined;
    const other = resolveSide(otherGiven, system ?? base0?.system);
    const base = base0 ?? resolveSide(baseGiven, other.system);
    if (base.system !== other.system) throw refusal('diff', `${showValue(baseGiven)} is ${base.system.id} and ${showValue(otherGiven)} ${other.system.id}`, 'allowed: two sides of one system');
    // The standard grid, and a part for each keyword the two sides give different effects.
    const changed = keywordGrid(base, other);
    const grid = typeof argv.grid === 'string' ? readDiffGrid(argv.grid) : [...base.system.diffGrid, ...changed];
    // The chart's file is checked before the grid is evaluated: a file that cannot be written costs nothing.
    if (chartRequest) checkChartFile(chartRequest, [baseGiven, otherGiven, ...(typeof argv.grid === 'string' ? [argv.grid] : [])].filter((f) => existsSync(f)));
    // What is asked of the cells (--outcome) is checked on their kinds' outcomes before any is solved.
    const cells = diffGridCells(base, other, grid);
    const picked = pickedOutcomes(argv, diffGridOutcomes(cells), 'the cells of this diff', format);
    // Its largest moves (bars, the default), or one outcome's change laid out over fields of the grid,
    // planned over the grid's cells before any is evaluated.
    if (chartRequest?.type === 'bars' && chartRequest.axes !== undefined) {
      throw refusal(`--${Object.keys(chartRequest.axes)[0]}`, "a diff's bars are its largest moves, one per cell and outcome: no field goes on them", 'leave it out, or --chart-type heatmap or lines');
    }
    const laidOut = chartRequest && (chartRequest.type === 'heatmap' || chartRequest.type === 'lines' || (chartRequest.type === undefined && chartRequest.axes !== undefined));
    const map =
      chartRequest && laidOut
        ? planDiffMap(
            cells,
            { ...chartRequest, ...(picked ? { outcome: picked[0]! } : {}), type: chartRequest.type ?? (chartRequest.axes?.series !== undefined ? 'lines' : 'heatmap') },
            (kind) => parseScenario({ system: base.system.id, edition: base.edition, kind }) as unknown as Record<string, unknown>,
          )
        : undefined;
    const result = diffRules(base, other, grid, typeof argv.grid === 'string' ? `grid file ${argv.grid}` : changed.length ? 'standard grid and the changed keywords' : 'standard', cells);
    // The chart first: if it cannot be written, nothing has been printed.
    if (chartRequest) {
      const asked = [`${result.system}: ${result.base.label} -> ${result.other.label}, over the ${result.grid} grid`];
      if (map) {
        await writeChartSpec(chartRequest, diffMapSpec(result, map), [], asked);
        process.stderr.write(`injury-lab: wrote ${terminalSafe(chartRequest.file)}${map.held.length ? ` (held at their defaults: ${map.held.map(terminalSafe).join(', ')})` : ''}\n`);
      } else {
        const { spec, notes } = diffChartSpec(result, { top, ...(picked ? { outcome: picked[0]! } : {}) });
        await writeChartSpec(chartRequest, spec, notes, asked);
        process.stderr.write(`injury-lab: wrote ${terminalSafe(chartRequest.file)}${notes.length ? ` (${notes.map(terminalSafe).join('; ')})` : ''}\n`);
      }
    }
    process.stdout.write(diffPresenter(top, picked)[format](result));
  },
};
