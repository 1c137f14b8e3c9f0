import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { loadReportDef, parseReportDef, type AnalysisDef } from '../src/present/report/definition.js';
import { runReport, type ReportRun } from '../src/present/report/run.js';
import { closePool } from '../src/pool/simulate.js';
import { VALUE_OUTLIER_RATIO } from '../src/present/chart/value.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 24, "Reports": the duel matchup matrix over a profiles file, each side labelled with its cost,
 * and the value chart by a side (P(side wins) per 10 ducats). The analysis "profiles" of
 * reports/trench-duels.json runs it over examples/profiles.json; every figure checked here is
 * recomputed from that file and from the exact engine's answer to each duel written out alone.
 */

const PROFILES = 'examples/profiles.json';
const file = JSON.parse(readFileSync(PROFILES, 'utf8')) as { models: Record<string, { cost: number }>; weapons: Record<string, { cost: number; attackType: string }> };
const MODELS = Object.keys(file.models);
const MELEE = Object.keys(file.weapons).filter((w) => file.weapons[w]!.attackType === 'melee');

let analysis: AnalysisDef;
let run: ReportRun;

beforeAll(async () => {
  const def = loadReportDef('reports/trench-duels.json');
  analysis = def.analyses.find((a) => a.id === 'profiles')!;
  // This analysis alone (report-duels.test.ts runs the rest), specs and SVG only.
  run = await runReport({ ...def, analyses: [analysis] }, { png: false });
}, 120_000);
afterAll(() => closePool());

/** The exact P(outcome) of one duel written out as a scenario of its own, a going first for 10 rounds. */
const duelChance = (a: { model: string; weapon: string }, b: { model: string; weapon: string }, outcome: string): number =>
  evaluateExact({ system: 'trench-crusade', edition: 'core', kind: 'duel', rounds: 10, first: 'a', profiles: PROFILES, a, b }).outcomes.find((o) => o.outcome === outcome)!.probability;

const pairings = MODELS.flatMap((model) => MELEE.map((weapon) => ({ model, weapon, name: `${model} with ${weapon}`, cost: file.models[model]!.cost + file.weapons[weapon]!.cost })));

type ValueRow = { name: string; label: string; cost: number; measure: number; value: number; verdict: string; median: number };
const valueRows = (fileName: string): ValueRow[] => {
  const chart = run.analyses[0]!.charts.find((c) => c.def.file === fileName)!;
  return (chart.spec.data as { values: ValueRow[] }).values;
};

describe('the matchup matrix over examples/profiles.json (reports/trench-duels.json, "profiles")', () => {
  it('takes every model with every melee weapon as side a and as side b, each labelled with its model\'s cost plus its weapon\'s', () => {
    expect(MODELS.length * MELEE.length).toBe(12);
    expect(analysis.cells).toBe(144);
    for (const d of analysis.dimensions) {
      expect(d.values.map((v) => v.values[0])).toEqual(pairings.map((p) => p.name));
      expect(d.values.map((v) => v.cost)).toEqual(pairings.map((p) => p.cost));
      expect(d.values.map((v) => v.label)).toEqual(pairings.map((p) => `${p.name} (${p.cost})`));
      // The pairing is written out as the model and weapon of the file: what each cell's side is.
      expect(d.values.map((v) => [v.side!.model, v.side!.weapon])).toEqual(pairings.map((p) => [p.model, p.weapon]));
    }
    const cell = analysis.planned.find((c) => c.assignment.a === 'Shield Bearer with Great Hammer' && c.assignment.b === 'Machine Brute with Trench Club')!;
    expect(cell.labels).toEqual(['Shield Bearer with Great Hammer (62)', 'Machine Brute with Trench Club (112)']);
  });

  it('gives each cell the duel of the two model-with-weapon sides, as the duel written out alone gives it', () => {
    const sweep = run.analyses[0]!.sweep;
    for (const [ai, bi] of [[0, 11], [5, 7], [11, 0]] as const) {
      const cell = sweep.cells.find((c) => c.point[0] === ai && c.point[1] === bi)!;
      const [a, b] = [pairings[ai]!, pairings[bi]!];
      const direct = evaluateExact({ system: 'trench-crusade', edition: 'core', kind: 'duel', rounds: 10, first: 'a', profiles: PROFILES, a: { model: a.model, weapon: a.weapon }, b: { model: b.model, weapon: b.weapon } });
      expect(cell.outcomes.map((o) => o.exact)).toEqual(direct.outcomes.map((o) => o.exact));
    }
  });

  it("value by a: P(a wins) averaged over the b sides, from the exact engine, per 10 ducats of the side; by b: P(b wins) averaged over the a sides", () => {
    const checks: [string, 'a' | 'b', typeof pairings][] = [
      ['profiles-a-value', 'a', [pairings[0]!, pairings[11]!]],
      ['profiles-b-value', 'b', [pairings[4]!]],
    ];
    for (const [chart, side, sides] of checks) {
      const rows = valueRows(chart);
      expect(rows).toHaveLength(12);
      for (const p of sides) {
        const them = { model: p.model, weapon: p.weapon };
        const chances = pairings.map((q) => {
          const other = { model: q.model, weapon: q.weapon };
          return side === 'a' ? duelChance(them, other, 'a-wins') : duelChance(other, them, 'b-wins');
        });
        const average = chances.reduce((s, x) => s + x, 0) / chances.length;
        const row = rows.find((r) => r.name === p.name)!;
        expect(row.cost).toBe(p.cost);
        expect(row.measure).toBeCloseTo(average, 12);
        expect(row.value).toBeCloseTo((average / p.cost) * 10, 12);
      }
      // Marked as the weapons' are: 1.5 times the median value or more under-priced, the median over 1.5 or less over-priced.
      const sorted = rows.map((r) => r.value).sort((x, y) => x - y);
      const median = (sorted[5]! + sorted[6]!) / 2;
      for (const r of rows) {
        const verdict = r.value >= median * VALUE_OUTLIER_RATIO ? 'under-priced' : r.value <= median / VALUE_OUTLIER_RATIO ? 'over-priced' : 'in line';
        expect({ side: r.name, verdict: r.verdict }).toEqual({ side: r.name, verdict });
      }
      // Best value first.
      expect(rows.map((r) => r.value)).toEqual([...rows.map((r) => r.value)].sort((x, y) => y - x));
    }
    expect(run.analyses[0]!.charts.every((c) => c.rendered.warnings.length === 0)).toBe(true);
  });
});

/** A one-analysis duel definition over a profiles file (an absolute path: read from the report file's folder otherwise). */
const duelDef = (vary: unknown[], charts: unknown[], scenario: Record<string, unknown> = { profiles: resolve(PROFILES) }) => ({
  title: 'matchups',
  analyses: [{ id: 'm', title: 'm', scenario: { system: 'trench-crusade', kind: 'duel', rounds: 2, ...scenario }, vary, charts }],
});
const b = { field: 'b', values: ['Machine Brute with Trench Club'] };
const heat = { type: 'heatmap', x: 'b', y: 'a', outcome: 'a-wins' };
const refused = (doc: unknown) => refusal(() => parseReportDef(doc, 'bad.json'));

describe('a side named from the profiles', () => {
  it('mixes names and named sides; a named side that names a profile is priced and keeps its name, one that names none has no cost and is left out of the value chart with a note', () => {
    const def = parseReportDef(
      duelDef(
        [{ field: 'a', values: ['Machine Brute', { name: 'armoured club', value: { armour: 'standard', weapon: 'Trench Club' } }, { name: 'plain', value: {} }] }, b],
        [heat, { type: 'value', by: 'a' }],
      ),
      'ok.json',
    );
    const a = def.analyses[0]!;
    // A model alone costs the model's price; a named side with a weapon of the file costs that weapon's.
    expect(a.dimensions[0]!.values.map((v) => [v.label, v.cost])).toEqual([
      ['Machine Brute (110)', 110],
      ['armoured club (2)', 2],
      ['plain', undefined],
    ]);
    expect(a.charts[1]).toMatchObject({ type: 'value', by: 'a', outcome: 'a-wins' });
  });

  it('a side over a base side: priced as the side its cells make (its model with the base side\'s weapon)', () => {
    const def = parseReportDef(duelDef([{ field: 'a', values: ['Shield Bearer', 'Reinforced Veteran with Executioner\'s Axe'] }, b], [heat], { profiles: resolve(PROFILES), a: { weapon: 'Great Hammer' } }), 'ok.json');
    expect(def.analyses[0]!.dimensions[0]!.values.map((v) => v.label)).toEqual(['Shield Bearer (62)', "Reinforced Veteran with Executioner's Axe (83)"]);
    // The named pairing wins over the base side's weapon, in the cell as in its price.
    expect(def.analyses[0]!.planned[1]!.scenario).toMatchObject({ a: { model: 'Reinforced Veteran', weapon: "Executioner's Axe" } });
  });

  it("a roster's side costs its whole model's price, the weapon being part of it (never model plus weapon)", () => {
    const roster = resolve('examples/roster-example.ros');
    const def = parseReportDef(
      duelDef([{ field: 'a', values: ['Ash Acolyte with Censer Flail', { name: 'apart', value: { model: 'Ash Acolyte', weapon: 'Censer Flail' } }] }, { field: 'b', values: ['Cinder Brute with Cinder Maul'] }], [heat], { roster }),
      'ok.json',
    );
    const [a, bDim] = def.analyses[0]!.dimensions;
    // The roster lists the Ash Acolyte at 39 ducats with its kit, the Censer Flail at 8: the side is 39.
    expect(a!.values.map((v) => v.label)).toEqual(['Ash Acolyte with Censer Flail (39)', 'apart (39)']);
    expect(bDim!.values.map((v) => v.label)).toEqual(['Cinder Brute with Cinder Maul (115)']);
  });

  it('refuses in one line: a name the file does not hold (with a did-you-mean per part), a half pairing, a name without profiles, and a value chart by a side measuring anything but its win', () => {
    const cases: [unknown, RegExp][] = [
      [duelDef([{ field: 'a', values: ['Shield Bearer with Great Hamer'] }, b], [heat]), /^bad\.json: analysis "m" \(analyses\[0\]\): vary: a: "Shield Bearer with Great Hamer" is not a model or a "MODEL with WEAPON" of profiles file ".*" \(did you mean "Shield Bearer with Great Hammer"/],
      [duelDef([{ field: 'a', models: ['Sheild Bearer'], weapons: ['Trench Club'] }, b], [heat]), /vary: a: "Sheild Bearer with Trench Club" is not a model .* \(did you mean "Shield Bearer with Trench Club"\?\)/],
      [duelDef([{ field: 'a', models: ['Shield Bearer'] }, b], [heat]), /vary: a: "models" needs "weapons" too: every model is taken with every weapon; allowed: "models": \[/],
      [duelDef([{ field: 'a', models: ['Shield Bearer'], weapons: ['Trench Club'], values: ['Machine Brute'] }, b], [heat]), /vary: a: give "values" or "models" with "weapons", not both/],
      [duelDef([{ field: 'first', models: ['Shield Bearer'], weapons: ['Trench Club'] }, b], [heat]), /vary: first: "models" and "weapons" vary a whole side/],
      [duelDef([{ field: 'a', values: ['Machine Brute'] }, b], [heat], {}), /vary: a: "Machine Brute": a side named by its profile needs "profiles", "roster" or "catalogue" in the scenario/],
      [duelDef([{ field: 'a', values: ['Machine Brute'] }, b], [heat, { type: 'value', by: 'a', outcome: 'b-wins' }]), /charts\[1\] \(value\): outcome: "b-wins" is not allowed; allowed: "a-wins" \(a value chart by side "a" measures its chance to win\), or leave it out$/],
      [duelDef([{ field: 'a', values: ['Machine Brute'] }, b], [heat, { type: 'value', by: 'a', mean: 'expectedActivations' }]), /charts\[1\] \(value\): mean: a value chart by side "a" measures its chance to win \("a-wins"\); leave "mean" out$/],
      [duelDef([{ field: 'a', values: [{ name: 'plain', value: {} }] }, b], [heat, { type: 'value', by: 'a' }]), /charts\[1\] \(value\): no side of "a" has a cost above 0; a value chart divides by each side's cost/],
    ];
    for (const [doc, message] of cases) {
      const m = refused(doc);
      expect(m).toMatch(message);
      expect(m).not.toMatch(/\n/);
    }
  });

  it('from the command line: a bad name is one line with a did-you-mean and exit 2; a pairing of a profiles file is a side of a single duel too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-matchups-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(duelDef([{ field: 'a', values: ['Machine Brute with Great Hamer'] }, b], [heat])));
    const r = await cliInProcess('report', bad, '--check-only');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^injury-lab: .*bad\.json: analysis "m" \(analyses\[0\]\): vary: a: "Machine Brute with Great Hamer" is not a model or a "MODEL with WEAPON" .*\(did you mean "Machine Brute with Great Hammer"/);
    // --a-profile "MODEL with WEAPON" over a profiles file: the same duel as its model and weapon named apart.
    const paired = await cliInProcess('exact', '--kind', 'duel', '--profiles', PROFILES, '--a-profile', 'Shield Bearer with Great Hammer', '--b-profile', 'Machine Brute with Trench Club', '--format', 'json');
    const apart = await cliInProcess('exact', '--kind', 'duel', '--profiles', PROFILES, '-a', 'model=Shield Bearer,weapon=Great Hammer', '-b', 'model=Machine Brute,weapon=Trench Club', '--format', 'json');
    expect(paired.code).toBe(0);
    const outcomes = (text: string) => (JSON.parse(text) as { outcomes: unknown }).outcomes;
    expect(outcomes(paired.stdout)).toEqual(outcomes(apart.stdout));
  });
});
