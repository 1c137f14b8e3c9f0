import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadReportDef, parseReportDef } from '../src/present/report/definition.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

const good = {
  title: 'A report',
  analyses: [
    {
      id: 'armour',
      title: 'Armour',
      scenario: { kind: 'injury' },
      vary: ['armour=none,standard', { field: 'injuryDice', from: 0, to: 1 }],
    },
  ],
};

/** The good definition with one analysis changed (or the whole document, given a function of it). */
function withAnalysis(change: Record<string, unknown>) {
  return { ...good, analyses: [{ ...good.analyses[0], ...change }] };
}

/** A duel matrix: side a varied whole by name, against two sides b. */
const named = (name: string, value: Record<string, unknown>) => ({ name, value });
const duel = (sides: unknown[], more: Record<string, unknown> = {}) =>
  withAnalysis({
    scenario: { kind: 'duel', rounds: 2 },
    vary: [{ field: 'a', values: sides }, { field: 'b', values: [named('plain', {}), named('armoured', { armour: 'standard' })] }],
    charts: [{ type: 'heatmap', x: 'b', y: 'a', outcome: 'a-wins' }],
    ...more,
  });

const bad: [string, unknown, RegExp][] = [
  ['an unknown report key', { ...good, colour: 'red' }, /^bad\.json: unknown key "colour"; allowed: \$schema, title, description, seed, analyses$/],
  ['an unknown analysis key', withAnalysis({ chart: [] }), /^bad\.json: analysis "armour" \(analyses\[0\]\): unknown key "chart"; allowed: id, title/],
  ['an unknown scenario field', withAnalysis({ scenario: { kind: 'injury', armor: 'standard' } }), /^bad\.json: analysis "armour" \(analyses\[0\]\): cell .*armor: not a field of trench-crusade/],
  [
    'an exact answer asked of a battle (simulated only)',
    withAnalysis({ scenario: { kind: 'battle', roster: 'examples/roster-example.ros', a: { warband: 'Cinder Brute with Cinder Maul' }, b: { warband: 'Lantern Warden with Thornpike' } }, vary: ['turns=1,2'], exact: true }),
    /^bad\.json: analysis "armour" \(analyses\[0\]\): exact: true: a battle has no exact answer \(it is simulated only\); leave "exact" out, or false$/,
  ],
  ['an empty vary list', withAnalysis({ vary: [] }), /^bad\.json: analysis "armour" \(analyses\[0\]\): vary: empty list; give at least one field to vary/],
  ['a vary of no values', withAnalysis({ vary: [{ field: 'armour', values: [] }] }), /analysis "armour" \(analyses\[0\]\): vary\[0\]\.values: empty list/],
  ['a field the kind does not read', withAnalysis({ vary: ['heightInches=0..3'] }), /analysis "armour" \(analyses\[0\]\): vary: "heightInches" is not a field of trench-crusade kind "injury"/],
  [
    'under "strict", a cell the rules forbid (machine armour with a shield)',
    withAnalysis({ scenario: { kind: 'injury', shield: true }, vary: ['armour=none,machine'], strict: true }),
    /analysis "armour" \(analyses\[0\]\): cell armour="machine": shield: true cannot be combined with armour "machine"/,
  ],
  [
    'under "strict", a fall in the playtest edition',
    withAnalysis({ scenario: { kind: 'fall' }, vary: ['edition=playtest,core'], strict: true }),
    /analysis "armour" \(analyses\[0\]\): cell edition="playtest": kind: "fall" is not a rule of the playtest edition/,
  ],
  ['a chart of an unknown dimension', withAnalysis({ charts: [{ type: 'heatmap', x: 'injuryDice', y: 'armor', outcome: 'down' }] }), /charts\[0\] \(heatmap\): "armor" is not a varied dimension of this analysis \(did you mean "armour"\?\); allowed: armour, injuryDice/],
  ['a chart that leaves a dimension out', withAnalysis({ charts: [{ type: 'stacked-bars', y: 'armour' }] }), /charts\[0\] \(stacked-bars\): dimension "injuryDice" is varied but not shown/],
  ['an unknown outcome', withAnalysis({ charts: [{ type: 'heatmap', x: 'injuryDice', y: 'armour', outcome: 'dead' }] }), /outcome "dead" is not an outcome of this kind; allowed: no-effect, minor-hit, down, out-of-action/],
  ['an unknown chart type', withAnalysis({ charts: [{ type: 'pie' }] }), /analysis "armour" \(analyses\[0\]\): charts\[0\]\.type: "pie" is not allowed; allowed: stacked-bars, lines, heatmap/],
  ['trials and precision together', withAnalysis({ simulate: { trials: 1000, precision: 0.01 } }), /simulate: give either "trials" or "precision", not both/],
  ['a bad trial count', withAnalysis({ simulate: { trials: -5 } }), /analysis "armour" \(analyses\[0\]\): simulate\.trials: -5 must be >= 1/],
  ['two analyses with one id', { ...good, analyses: [good.analyses[0], good.analyses[0]] }, /analysis "armour" \(analyses\[1\]\): id: "armour" is used by an earlier analysis/],
  ['no analyses', { title: 'x', analyses: [] }, /^bad\.json: analyses: empty list/],
  [
    'a named side with a value its field does not take',
    duel([named('plain', {}), named('machine + Tough', { armour: 'mythril', tough: true })]),
    /^bad\.json: analysis "armour" \(analyses\[0\]\): vary: a: "machine \+ Tough": a\.armour: "mythril" is not allowed; allowed: none, standard, reinforced, machine$/,
  ],
  ['a named side with a field no side has', duel([named('x', { armr: 'none' })]), /analysis "armour" \(analyses\[0\]\): vary: a: "x": a\.armr: not a field of a side; allowed: injuryDice, /],
  ['under "strict", a named side the rules forbid', duel([named('x', { armour: 'machine', shield: true })], { strict: true }), /vary: a: "x": a\.shield: true cannot be combined with armour "machine"/],
  ['a grid of named sides the rules forbid whole', duel([named('x', { armour: 'machine', shield: true })]), /vary: the rules forbid every cell of the grid \(2 of 2\), e\.g\. a x, b plain: a\.shield: true cannot be combined with armour "machine"/],
  ['a side value that is not a named side', duel([{ armour: 'machine' }]), /vary: a: value 1: \{"armour":"machine"\} is not a named side; allowed: \{"name": NAME, "value": \{the side's fields\}\}, or a "MODEL with WEAPON" or a model of the scenario's profiles$/],
  ['a named side without its fields', duel([{ name: 'x', value: 'machine' }]), /vary: a: value 1: .* is not a named side/],
  ['two sides of one name', duel([named('x', {}), named('x', { tough: true })]), /vary: a: name "x" is given to two sides; allowed: a different name for each side$/],
  ['a side varied with other fields', duel([], { vary: [{ fields: ['a', 'first'], values: [[named('x', {}), 'a']] }] }), /vary: a\+first: side "a" is varied whole, on its own/],
  ['a side in the text form', duel([], { vary: ['a=machine'] }), /vary: a: a whole side is varied in a report definition's vary item, as named sides/],
  ['a base side the rules forbid', duel([named('x', {})], { scenario: { kind: 'duel', a: { armour: 'mythril' } } }), /^bad\.json: analysis "armour" \(analyses\[0\]\): scenario: a\.armour: "mythril" is not allowed; .*\(the grid varies a whole/],
  ['"or worse" of a duel\'s outcomes', duel([named('x', {})], { charts: [{ type: 'heatmap', x: 'b', y: 'a', outcome: 'a-wins', cumulative: true }] }), /charts\[0\] \(heatmap\): cumulative: the outcomes of this kind are not ranked/],
  [
    'fullScale with differenceFrom',
    withAnalysis({
      vary: ['armour=none,standard', 'injuryDice=0..1', 'edition=comprehensive,core'],
      charts: [{ type: 'heatmap', x: 'injuryDice', y: 'armour', facet: 'edition', outcome: 'down', differenceFrom: 'core', fullScale: true }],
    }),
    /charts\[0\] \(heatmap\): fullScale: a map of changes \(differenceFrom\) is coloured by the largest change either way/,
  ],
];

describe('an analysis written in a hurry (issue 25)', () => {
  it('needs no id or title: its place and what it varies give them', () => {
    const def = parseReportDef({ title: 'Quick', analyses: [{ scenario: { kind: 'attack' }, vary: ['armour=none,standard', 'injuryDice=0..1'] }] }, 'quick.json');
    expect(def.analyses[0]).toMatchObject({ id: 'analysis-1', title: 'attack by armour and injury dice' });
    expect(def.analyses[0]!.charts.map((c) => c.file)).toEqual(['analysis-1-heatmap', 'analysis-1-lines', 'analysis-1-stacked-bars']);
  });
});

describe('report definitions', () => {
  it('accept a good definition and fill in charts, seeds and files', () => {
    const def = parseReportDef(good, 'good.json');
    expect(def.analyses[0]!.cells).toBe(4);
    expect(def.analyses[0]!.charts.map((c) => c.type)).toEqual(['heatmap', 'lines', 'stacked-bars']);
    expect(def.analyses[0]!.charts.map((c) => c.file)).toEqual(['armour-heatmap', 'armour-lines', 'armour-stacked-bars']);
  });

  for (const [what, doc, message] of bad) {
    it(`reject ${what} in one line naming the file and the analysis`, () => {
      let err: Error | undefined;
      try {
        parseReportDef(doc, 'bad.json');
      } catch (e) {
        err = e as Error;
      }
      expect(err?.name).toBe('UsageError');
      expect(err!.message).toMatch(message);
      expect(err!.message).not.toMatch(/\n/);
    });
  }

  it('every shipped report is valid, and each of its analyses varies something, computes something and charts it', () => {
    const files = readdirSync('reports').filter((n) => n.endsWith('.json'));
    // `npm start` runs exactly these; one lost or renamed is a change to what users get.
    expect(files.sort()).toEqual(['d20-defence.json', 'd20-falls.json', 'd20-turns.json', 'trench-armour.json', 'trench-editions.json', 'trench-falls.json', 'matrix-example.json', 'trench-tough.json', 'variant-example.json', 'keyword-value.json', 'roster-example.json', 'trench-duels.json', 'd20-duels.json', 'trench-battles.json'].sort());
    for (const f of files) {
      const def = loadReportDef(join('reports', f));
      expect(def.id).toBe(f.replace(/\.json$/, ''));
      for (const a of def.analyses) {
        const where = `${f}: ${a.id}`;
        expect(a.cells, where).toBeGreaterThan(1);
        expect(a.exact || a.sim !== undefined, where).toBe(true);
        // A battle has no exact answer: it is simulated, though its definition asks for no exact answer either way.
        if (a.base.kind === 'battle') expect([a.exact, a.sim?.trials], where).toEqual([false, 20_000]);
        expect(a.charts.length, where).toBeGreaterThan(0);
      }
    }
  });
});

describe('a side varied whole (a duel\'s a and b)', () => {
  it('lays each named side over the base side field by field, and names the cell by it', () => {
    const def = parseReportDef(
      withAnalysis({
        scenario: { kind: 'duel', a: { injuryDice: 1, armour: 'standard' }, b: { policy: 'injury' } },
        vary: [{ field: 'a', values: [named('as given', {}), named('machine + Tough', { armour: 'machine', tough: true })] }, 'first=a,b'],
        charts: [{ type: 'heatmap', x: 'first', y: 'a', outcome: 'a-wins', fullScale: true }],
      }),
      'sides.json',
    );
    const a = def.analyses[0]!;
    expect(a.dimensions[0]).toMatchObject({ id: 'a', fields: ['a'], side: 'a', title: 'Side a' });
    expect(a.dimensions[0]!.values.map((v) => [v.label, v.side])).toEqual([
      ['as given', {}],
      ['machine + Tough', { armour: 'machine', tough: true }],
    ]);
    const cell = a.planned[2]!;
    expect(cell.assignment).toEqual({ a: 'machine + Tough', first: 'a' });
    const s = cell.scenario as unknown as Record<string, Record<string, unknown>>;
    // The value's fields win; what it leaves out is the base side's (injuryDice), then the default.
    expect([s.a!.armour, s.a!.tough, s.a!.injuryDice, s.a!.shield, s.b!.policy]).toEqual(['machine', true, 1, false, 'injury']);
    expect((a.planned[0]!.scenario as unknown as Record<string, Record<string, unknown>>).a).toMatchObject({ armour: 'standard', injuryDice: 1, tough: false });
    // No "or worse" for a duel: its default charts show its first outcome, without cumulative lines.
    const plain = parseReportDef(withAnalysis({ scenario: { kind: 'duel', a: {}, b: {} }, vary: ['rounds=1..3'] }), 'rounds.json');
    expect(plain.analyses[0]!.charts.map((c) => ({ ...c, file: undefined }))).toEqual([{ type: 'lines', x: 'rounds', file: undefined }, { type: 'stacked-bars', y: 'rounds', file: undefined }]);
  });
});

/**
 * The first refusal runs the built CLI in a process of its own, end to end; the others run main.ts in this
 * process (cliInProcess: the same line, exit code and files), differing only in what was refused.
 */
describe('injury-lab report with a bad definition', () => {
  it('exits 2 with one line, and leaves no output folder and no temporary folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-bad-'));
    const def = join(dir, 'bad.json');
    writeFileSync(def, JSON.stringify(withAnalysis({ vary: [] })));
    const out = join(dir, 'out');
    const r = cli('report', def, '--out', out);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([`injury-lab: ${def}: analysis "armour" (analyses[0]): vary: empty list; give at least one field to vary, e.g. "injuryDice=-1..3"`]);
    expect(readdirSync(dir)).toEqual(['bad.json']);
  });

  it('leaves an existing output folder as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-bad-'));
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'index.html'), 'old report');
    writeFileSync(join(dir, 'bad.json'), '{ "title": "x", ');
    const r = await cliInProcess('report', join(dir, 'bad.json'), '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.json: not valid JSON/);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('old report');
    expect(readdirSync(dir).sort()).toEqual(['bad.json', 'out']);
  });

  it('checks every definition of --all before running any', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-all-'));
    writeFileSync(join(dir, 'a.json'), JSON.stringify(good));
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...good, analyses: [{ ...good.analyses[0], scenario: { kind: 'injury', edition: 'v9' } }] }));
    const r = await cliInProcess('report', '--all', dir, '--out', join(dir, 'out'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/b\.json: analysis "armour" \(analyses\[0\]\): cell .*edition: "v9" is not an edition of trench-crusade/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});

describe('a price analysis (fair prices from exact duels, as injury-lab price)', () => {
  const price = { profiles: 'examples/profiles.json' };
  const refused = (analysis: Record<string, unknown>) => {
    try {
      parseReportDef({ title: 'Prices', analyses: [analysis] }, 'prices.json');
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('not refused');
  };

  it('takes the settings of injury-lab price, with its defaults, its profiles relative to the report file', () => {
    const def = parseReportDef({ title: 'Prices', analyses: [good.analyses[0], { price: { profiles: '../examples/profiles.json', policy: 'injury', models: ['Machine Brute'] } }] }, 'reports/prices.json');
    expect(def.analyses.map((a) => a.id)).toEqual(['armour']);
    expect(def.prices).toEqual([
      {
        id: 'analysis-2',
        at: 1,
        chartFile: 'analysis-2-prices',
        title: 'Fair prices of every model with every melee weapon of ../examples/profiles.json',
        description: '',
        settings: { profiles: 'examples/profiles.json', models: ['Machine Brute'], by: 'duels', attackType: 'melee', rounds: 10, policy: 'injury', objective: 'margin', line: 'theil-sen', tolerance: 5, prior: 0 },
      },
    ]);
    expect(def.inputs).toContain('examples/profiles.json');
  });

  it('reads its field from a roster or catalogue files as well, relative to the report file, and names them as written', () => {
    const catalogue = ['../test/fixtures/rosters/pilgrim-system.gst', '../test/fixtures/rosters/bell-wardens.cat'];
    const def = parseReportDef({ title: 'Prices', analyses: [{ price: { catalogue, allowUnmodelled: true } }] }, 'reports/prices.json');
    expect(def.prices[0]!.settings).toMatchObject({ catalogue: catalogue.map((f) => f.slice(3)), allowUnmodelled: true });
    expect(def.prices[0]!.title).toBe(`Fair prices of every model with every melee weapon of the catalogue files ${catalogue.join(', ')}`);
    expect(def.inputs).toEqual(expect.arrayContaining(catalogue.map((f) => f.slice(3))));
    expect(refused({ price: { profiles: 'p.json', roster: 'r.ros' } })).toMatch(/^prices\.json: analyses\[0\]: /);
  });

  it('refuses in one line naming the file, the analysis and the setting', () => {
    expect(refused({ id: 'p', price, scenario: { kind: 'duel' } })).toBe('prices.json: analysis "p" (analyses[0]): "price" does not go with "scenario"; an analysis is a grid (scenario, vary) or fair prices (price)');
    expect(refused({ id: 'p', vary: ['armour=none'] })).toBe('prices.json: analysis "p" (analyses[0]): missing "scenario"; an analysis is a grid (scenario, vary) or fair prices (price)');
    expect(refused({ price: { ...price, rounds: 0 } })).toMatch(/^prices\.json: analyses\[0\]: price\.rounds: 0 /);
    expect(refused({ price: { ...price, policy: 'greedy' } })).toMatch(/^prices\.json: analyses\[0\]: price\.policy: "greedy" is not allowed; allowed: .*none.*injury.*hinder.*optimal/);
    expect(refused({ price: { ...price, rounds: 3, colour: 'red' } })).toMatch(/^prices\.json: analyses\[0\]: price: unknown key "colour"; allowed: .*attackType/);
    expect(refused({ price: { attackType: 'melee' } })).toMatch(/^prices\.json: analyses\[0\]: price: missing "profiles"/);
  });
});
