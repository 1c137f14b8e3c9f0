import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import { chartSpec } from '../src/present/chart/charts.js';
import { loadReportDef, parseReportDef } from '../src/present/report/definition.js';
import { parseDimension } from '../src/analysis/dimensions.js';
import { findSystem } from '../src/rules/registry.js';
import { runReport } from '../src/present/report/run.js';
import { reportCsv } from '../src/present/write/report.js';

/** Reports that compare rules: `rules` as a dimension, and heat maps of the change against one of them. */

const VARIANT = '../examples/variants/out-of-action-on-10.json';
const def = (charts: unknown[], vary: unknown[] = [{ field: 'rules', values: ['none', VARIANT] }, 'armour=none,standard', 'injuryDice=0..1']) =>
  parseReportDef({ title: 'Rules', analyses: [{ id: 'a', title: 'A', scenario: { kind: 'injury' }, vary, charts }] }, 'reports/rules-test.json');

describe('a rules dimension in a report', () => {
  it('names each value by its variant, reading the files from the report\'s folder', () => {
    const shipped = loadReportDef('reports/variant-example.json');
    const rules = shipped.analyses[0]!.vary[0];
    expect(rules).toMatchObject({ field: 'rules' });
    const d = def([{ type: 'heatmap', x: 'injuryDice', y: 'armour', facet: 'rules', outcome: 'out-of-action' }]);
    expect(d.analyses[0]!.cells).toBe(8);
  });

  it('draws the change against the baseline: Out of Action 10+ against 9+ on 2D6 is 6/36 - 10/36', async () => {
    const d = def([{ type: 'heatmap', x: 'injuryDice', y: 'armour', facet: 'rules', outcome: 'out-of-action', differenceFrom: 'edition rules' }]);
    const run = await runReport(d);
    const sweep = run.analyses[0]!.sweep;
    const spec = chartSpec(sweep, d.analyses[0]!.charts[0]!);
    const rows = (spec.data as { values: { x: string; y: string; facet: string; p: number; label: string }[] }).values;
    // Only the variant's panel: the baseline's own cells would all read 0.
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.facet))).toEqual(new Set(['Out of Action on 10+']));
    const plain = rows.find((r) => r.y === 'none' && r.x === '0')!;
    expect(plain.p).toBeCloseTo(6 / 36 - 10 / 36, 12);
    expect(plain.label).toBe('-11.1');
    // Standard armour, 2D6 - 1: 10+ is 11+ on the dice (3/36), 9+ is 10+ (6/36).
    expect(rows.find((r) => r.y === 'standard' && r.x === '0')!.p).toBeCloseTo(3 / 36 - 6 / 36, 12);
    // The tidy CSV names the variant in its own column, beside the varied fields.
    const csv = reportCsv(run).split('\n');
    const header = csv[0]!.split(',');
    expect(header.slice(2, 5)).toEqual(['variant', 'armour', 'injuryDice']);
    expect(csv.filter((l) => l.includes(',Out of Action on 10+,')).length).toBe(4 * 4);
  });

  it('refuses a difference chart without a facet, or against a value the facet does not have', () => {
    const message = (charts: unknown[], vary?: unknown[]) => {
      try {
        def(charts, vary);
      } catch (e) {
        if (e instanceof UsageError) return e.message;
        throw e;
      }
      return 'accepted';
    };
    expect(message([{ type: 'heatmap', x: 'injuryDice', y: 'armour', facet: 'rules', outcome: 'down', differenceFrom: 'core' }])).toBe(
      'reports/rules-test.json: analysis "a" (analyses[0]): charts[0] (heatmap): differenceFrom: "core" is not a value of rules; allowed: edition rules, Out of Action on 10+',
    );
    expect(message([{ type: 'heatmap', x: 'injuryDice', y: 'rules', facet: 'armour', outcome: 'down', differenceFrom: 'edition rules' }])).toMatch(/differenceFrom: "edition rules" is not a value of armour/);
    expect(message([{ type: 'heatmap', x: 'injuryDice', y: 'armour', facet: 'rules', outcome: 'down' }], [{ field: 'rules', values: ['none', 'nope.json'] }, 'armour=none', 'injuryDice=0'])).toMatch(/variant file "reports\/nope.json": no such file/);
  });
});

describe('--vary rules=... (the text form)', () => {
  it('reads each value whole: a variant path keeps its slashes', () => {
    const d = parseDimension('rules=none,examples/variants/out-of-action-on-10.json', findSystem('trench-crusade')!, 'injury');
    expect(d.values.map((v) => [v.values[0], v.label])).toEqual([
      ['none', 'edition rules'],
      ['examples/variants/out-of-action-on-10.json', 'Out of Action on 10+'],
    ]);
    // Several fields still split each value by "/".
    expect(parseDimension('armour,shield=none/false,standard/true', findSystem('trench-crusade')!, 'injury').values.map((v) => v.values)).toEqual([
      ['none', false],
      ['standard', true],
    ]);
  });
});
