import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { parseScenario } from '../src/input/scenario.js';
import { chartNotes, chartSpec } from '../src/present/chart/charts.js';
import type { ChartDef } from '../src/present/chart/definition.js';
import { valueRows } from '../src/present/chart/value.js';
import { parseReportDef } from '../src/present/report/definition.js';
import { runReport } from '../src/present/report/run.js';
import { runSweep, type SweepResult } from '../src/analysis/sweep.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 25 part 7: value charts that cannot contradict each other. Every value chart prices what its
 * buyer gets (more is better for that buyer), says so in its subtitle, refuses a chance above one half
 * for every bar (per ducat it only ranks by cheapness), and names a bar marked by its price alone.
 */

// Three models and two weapons of our own, with costs: the Brute is tough and dear, the Club cheap.
const dir = mkdtempSync(join(tmpdir(), 'value-charts-'));
const PROFILES = join(dir, 'profiles.json');
writeFileSync(
  PROFILES,
  JSON.stringify({
    system: 'trench-crusade',
    models: {
      Trooper: { armour: 'none', cost: 20 },
      Shield: { armour: 'standard', shield: true, cost: 40 },
      Brute: { armour: 'machine', tough: true, cost: 60 },
    },
    weapons: { Club: { attackType: 'melee', cost: 2 }, Hammer: { attackType: 'melee', injuryDice: 1, cost: 12 } },
  }),
);

const analysis = (scenario: Record<string, unknown>, vary: unknown[], chart: Record<string, unknown>) => ({
  title: 'Value',
  analyses: [{ id: 'a', title: 'A', scenario: { system: 'trench-crusade', profiles: PROFILES, ...scenario }, vary, charts: [{ file: 'v', ...chart }] }],
});

/** The run of a one-chart definition: the sweep and its value chart, checked. */
async function run(doc: unknown): Promise<{ sweep: SweepResult; chart: Extract<ChartDef, { type: 'value' }> }> {
  const def = parseReportDef(doc, join(dir, 'v.json'));
  const chart = def.analyses[0]!.charts[0]!;
  if (chart.type !== 'value') throw new Error('a value chart');
  const done = await runReport(def, { png: false });
  return { sweep: done.analyses[0]!.sweep, chart };
}

/** Computes the sweep without drawing (runReport draws, which a refused chart never reaches). */
async function sweepOf(doc: unknown) {
  const def = parseReportDef(doc, join(dir, 'v.json'));
  const chart = def.analyses[0]!.charts[0]!;
  const a = def.analyses[0]!;
  const sweep = await runSweep({ base: a.base, vary: a.vary, exact: a.exact, planned: { dimensions: a.dimensions, cells: a.planned, notAllowed: a.notAllowed } });
  return { sweep, chart };
}

const subtitle = (sweep: SweepResult, chart: ChartDef) => ((chartSpec(sweep, chart).title as { subtitle: string[] }).subtitle.join(' '));

const exactOf = (scenario: Record<string, unknown>) => evaluateExact(parseScenario({ system: 'trench-crusade', profiles: PROFILES, ...scenario }));
const outOfAction = (weapon: string, target: string) => exactOf({ kind: 'attack', weapon, target }).outcomes.find((o) => o.outcome === 'out-of-action')!.probability;
const attacksToTakeOut = (target: string) => {
  const r = exactOf({ kind: 'sequence', attacks: 1, policy: 'all', weapon: 'Club', target });
  return (r.means as Record<string, { value: number }>).expectedAttacks!.value;
};

describe('a value chart says what its bar measures and for whom more is better', () => {
  it('a weapon: the outcome\'s chance per attack, better for the weapon\'s buyer; the 2-ducat club is named as marked by its price alone', async () => {
    const { sweep, chart } = await run(analysis({ kind: 'attack', target: 'Trooper' }, [{ field: 'weapon', values: ['Club', 'Hammer'] }], { type: 'value', by: 'weapon', outcome: 'out-of-action' }));
    const text = subtitle(sweep, chart);
    expect(text).toContain("Each bar: chance of out of action per attack, one cell each, per 10 of the weapon's own cost; more is better for the weapon's buyer.");
    expect(text).toContain("gives the weapon's buyer more for the money than the median weapon");
    // By hand: the club's chance (16.9%) per 2 ducats against the hammer's (31.0%) per 12. The median of
    // two is their mean; the club is at 1.5x it or more, the hammer at 1/1.5 or less.
    const club = (outOfAction('Club', 'Trooper') / 2) * 10;
    const hammer = (outOfAction('Hammer', 'Trooper') / 12) * 10;
    const rows = valueRows(sweep, chart);
    expect(rows.map((r) => [r.name, r.verdict])).toEqual([
      ['Club', 'under-priced'],
      ['Hammer', 'over-priced'],
    ]);
    expect(rows[0]!.value).toBeCloseTo(club, 12);
    expect(rows[1]!.value).toBeCloseTo(hammer, 12);
    expect(club).toBeGreaterThanOrEqual(((club + hammer) / 2) * 1.5);
    // The club does less per attack than the median weapon: under-priced only for being cheap, and both
    // the chart and the page say so; the hammer does more, so its over-priced mark is its price alone too.
    expect(outOfAction('Club', 'Trooper')).toBeLessThan(outOfAction('Hammer', 'Trooper'));
    expect(rows.map((r) => r.byPrice)).toEqual([true, true]);
    expect(chartNotes(sweep, chart)).toEqual([
      "Marked by price alone (under-priced though its chance of out of action per attack is below the median weapon's, 23.9%, or over-priced though above it): Club (2) under-priced, 16.9%; Hammer (12) over-priced, 31.0%.",
    ]);
    expect(text).toContain('Marked by price alone');
  });

  it("a model's mean: attacks to take it out, better for the model's buyer; the dear tough model that takes the most attacks per ducat is under-priced", async () => {
    const { sweep, chart } = await run(
      analysis({ kind: 'sequence', attacks: 1, policy: 'all', weapon: 'Club' }, [{ field: 'target', values: ['Trooper', 'Shield', 'Brute'] }], { type: 'value', by: 'target', mean: 'expectedAttacks' }),
    );
    expect(subtitle(sweep, chart)).toContain("Each bar: expected attacks to Out of Action with unlimited attacks, one cell each, per 10 of the model's cost; more is better for the model's buyer.");
    // By hand from the exact engine: 3.63 attacks per 20 ducats, 7.08 per 40, 24.39 per 60, per 10
    // ducats 1.81, 1.77, 4.07: the median is the Trooper's 1.81, and the Brute is above 1.5x it.
    const perTen = { Trooper: (attacksToTakeOut('Trooper') / 20) * 10, Shield: (attacksToTakeOut('Shield') / 40) * 10, Brute: (attacksToTakeOut('Brute') / 60) * 10 };
    const rows = valueRows(sweep, chart);
    for (const r of rows) expect(r.value).toBeCloseTo(perTen[r.name as keyof typeof perTen], 10);
    expect(rows[0]!.median).toBeCloseTo(perTen.Trooper, 10);
    expect(perTen.Brute).toBeGreaterThanOrEqual(1.5 * perTen.Trooper);
    expect(rows.map((r) => [r.name, r.verdict])).toEqual([
      ['Trooper', 'in line'],
      ['Shield', 'in line'],
      ['Brute', 'under-priced'],
    ]);
    // It takes the most attacks too: its mark is not its price alone.
    expect(rows.find((r) => r.name === 'Brute')!.byPrice).toBe(false);
    expect(chartNotes(sweep, chart)).toEqual([]);
  });

  it("a model's chance of escaping an outcome, better for the model's buyer", async () => {
    // Three attacks: the Trooper escapes Out of Action under half the time, so the chance is priced.
    const { sweep, chart } = await run(
      analysis({ kind: 'sequence', attacks: 3, policy: 'all', weapon: 'Hammer' }, [{ field: 'target', values: ['Trooper', 'Shield'] }], { type: 'value', by: 'target', outcome: 'out-of-action', survive: true }),
    );
    expect(subtitle(sweep, chart)).toContain("Each bar: chance of escaping out of action within 3 attacks, one cell each, per 10 of the model's cost; more is better for the model's buyer.");
  });

  it("a duel's side: its chance to win, better for that side's buyer", async () => {
    const { sweep, chart } = await run(
      analysis({ kind: 'duel', rounds: 2, b: { model: 'Shield', weapon: 'Club' } }, [{ field: 'a', models: ['Trooper'], weapons: ['Club', 'Hammer'] }], { type: 'value', by: 'a' }),
    );
    expect(subtitle(sweep, chart)).toContain("Each bar: chance a wins within 2 rounds, one cell each, per 10 of the whole model's cost, with its weapon; more is better for side a's buyer.");
  });
});

describe('a value chart refuses a measure whose ratio to cost means nothing', () => {
  it("a model's chance of escaping Out of Action in one attack (83% to 100%): above one half for every model, it would rank them by cheapness", async () => {
    const { sweep, chart } = await sweepOf(
      analysis({ kind: 'attack', weapon: 'Club' }, [{ field: 'target', values: ['Trooper', 'Shield', 'Brute'] }], { type: 'value', by: 'target', outcome: 'out-of-action', survive: true }),
    );
    // The lowest is the Trooper's: 1 - 16.9%.
    expect(1 - outOfAction('Club', 'Trooper')).toBeCloseTo(0.8311, 4);
    expect(refusal(() => chartSpec(sweep, chart as ChartDef))).toBe(
      'chart "v" (value): the chance of escaping out of action per attack is above 50% for every model (the lowest 83.1%), so it cannot double however much is spent, and divided by cost it only ranks the models by cheapness; allowed: a chance of at most 50% for some model: for a model, the attacks it takes ("mean": "expectedAttacks", in a sequence), or escaping a likelier outcome',
    );
  });

  it('a measure that more of is worse for the buyer the chart prices for is refused before anything runs', () => {
    // The line after the report file and analysis it names.
    const make = (scenario: Record<string, unknown>, vary: unknown[], chart: Record<string, unknown>) =>
      refusal(() => parseReportDef(analysis(scenario, vary, chart), join(dir, 'v.json'))).replace(`${join(dir, 'v.json')}: analysis "a" (analyses[0]): `, '');
    const models = [{ field: 'target', values: ['Trooper', 'Brute'] }];
    const weapons = [{ field: 'weapon', values: ['Club', 'Hammer'] }];
    expect(make({ kind: 'attack' }, models, { type: 'value', by: 'target', outcome: 'out-of-action' })).toBe(
      'charts[0] (value): a model\'s chance of "out-of-action" is what its buyer pays to escape, so more of it per ducat is no bargain; add "survive": true (the chance of escaping it), or give a "mean" such as "expectedAttacks" (attacks it takes)',
    );
    expect(make({ kind: 'attack' }, weapons, { type: 'value', by: 'weapon', outcome: 'out-of-action', survive: true })).toMatch(/^charts\[0\] \(value\): survive: the chance that the target escapes is what the weapon's buyer pays to lower/);
    // Blood markers placed favour the attacker, so they price a weapon and not a model.
    expect(make({ kind: 'attack' }, weapons, { type: 'value', by: 'weapon', mean: 'expectedBloodMarkers' })).toBe('accepted');
    expect(make({ kind: 'attack' }, models, { type: 'value', by: 'target', mean: 'expectedBloodMarkers' })).toBe(
      'charts[0] (value): mean: more of "expectedBloodMarkers" (blood markers placed) is better for the weapon\'s buyer, not for the model\'s buyer, whose value this chart prices; allowed: an outcome',
    );
    expect(make({ kind: 'sequence', attacks: 2 }, weapons, { type: 'value', by: 'weapon', mean: 'expectedAttacks' })).toMatch(
      /mean: more of "expectedAttacks" \(attacks to Out of Action with unlimited attacks\) is better for the model's buyer, not for the weapon's buyer, whose value this chart prices; allowed: an outcome$/,
    );
    expect(make({ kind: 'sequence', attacks: 2 }, models, { type: 'value', by: 'target', mean: 'expectedBloodMarkersSpent' })).toMatch(/is better for neither side, not for the model's buyer, .*; allowed: expectedAttacksMade, toughSavedChance, expectedAttacks, or an outcome$/);
  });
});

describe('a value chart ranks like with like (issue 38 item 5)', () => {
  // A roster's weapons are priced two ways: a bare weapon at its own cost (Censer Flail, 8 ducats), a
  // "MODEL with WEAPON" at the whole model's (Ash Acolyte with Censer Flail, 39). One median over both
  // called every cheap bare weapon under-priced and every whole model over-priced.
  const weapons = ['Thornpike', 'Ember Carbine', 'Censer Flail', 'Scrap Pistol', 'Brazier Cannon', 'Lantern Warden with Thornpike', 'Thorn Sentinel with Ember Carbine', 'Ash Acolyte with Censer Flail', 'Ash Acolyte with Scrap Pistol', 'Cinder Brute with Brazier Cannon', 'Cinder Brute with Cinder Maul'];
  const doc = {
    title: 'Value',
    analyses: [{ id: 'a', title: 'A', scenario: { kind: 'attack', roster: join(process.cwd(), 'examples/roster-example.ros'), target: 'Thorn Sentinel' }, vary: [{ field: 'weapon', values: weapons }], charts: [{ file: 'v', type: 'value', by: 'weapon', outcome: 'out-of-action' }] }],
  };

  it('each bar is weighed against the median of its own kind of price, and the chart has a panel for each, saying what it divides by', async () => {
    const { sweep, chart } = await sweepOf(doc);
    if (chart.type !== 'value') throw new Error('a value chart');
    const rows = valueRows(sweep, chart);
    const kinds = Object.fromEntries(rows.map((r) => [r.name, r.costOf]));
    expect(kinds).toMatchObject({ Thornpike: 'weapon', 'Censer Flail': 'weapon', 'Ash Acolyte with Censer Flail': 'loadout', 'Cinder Brute with Brazier Cannon': 'loadout' });
    // By hand: each row's value is its chance per 10 of its cost, and its median that of its kind's values.
    const oa = (weapon: string) => evaluateExact(parseScenario({ ...doc.analyses[0]!.scenario, weapon })).outcomes.find((o) => o.outcome === 'out-of-action')!.probability;
    const mid = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
    };
    for (const kind of ['weapon', 'loadout'] as const) {
      const mine = rows.filter((r) => r.costOf === kind && Number.isFinite(r.value));
      const expected = mid(mine.map((r) => (oa(r.name) / r.cost) * 10));
      for (const r of mine) {
        expect(r.value).toBeCloseTo((oa(r.name) / r.cost) * 10, 12);
        expect(r.median).toBeCloseTo(expected, 12);
        expect(r.verdict).toBe(r.value >= expected * 1.5 ? 'under-priced' : r.value <= expected / 1.5 ? 'over-priced' : 'in line');
      }
    }
    // One median over both kinds would call some verdict otherwise: the grouping changes what is said.
    const all = mid(rows.filter((r) => Number.isFinite(r.value)).map((r) => r.value));
    const globalVerdict = (v: number) => (v >= all * 1.5 ? 'under-priced' : v <= all / 1.5 ? 'over-priced' : 'in line');
    expect(rows.some((r) => Number.isFinite(r.value) && globalVerdict(r.value) !== r.verdict)).toBe(true);
    const spec = chartSpec(sweep, chart) as { facet?: { row: { field: string } }; title: { subtitle: string[] } };
    expect(spec.facet?.row.field).toBe('priceOf');
    const text = spec.title.subtitle.join(' ');
    expect(text).toContain("Two kinds of price, ranked apart: the weapon's own cost (5,");
    expect(text).toContain("the whole model's cost, with its weapon (6,");
  });

  it('one kind of price: one panel, its subtitle saying which price it divides by', async () => {
    const { sweep, chart } = await run(analysis({ kind: 'attack', target: 'Trooper' }, [{ field: 'weapon', values: ['Club', 'Hammer'] }], { type: 'value', by: 'weapon', outcome: 'out-of-action' }));
    const spec = chartSpec(sweep, chart) as { facet?: unknown; title: { subtitle: string[] } };
    expect(spec.facet).toBeUndefined();
    expect(spec.title.subtitle.join(' ')).toContain("per 10 of the weapon's own cost");
  });
});
