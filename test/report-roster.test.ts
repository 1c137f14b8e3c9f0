import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadReportDef, parseReportDef } from '../src/present/report/definition.js';
import { runSweep, sweepDimensions, type SweepResult } from '../src/analysis/sweep.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 16, section 3: reports and sweeps vary `weapon` and `target` over a roster (or catalogue files)
 * as over a profiles file. The bar: reports/roster-example.json's answers equal those computed from the
 * same profiles written out as a profiles file (`profiles --roster --format json`) and passed back.
 */

const ROSTER = 'examples/roster-example.ros';
const REPORT = 'reports/roster-example.json';
const temp = (tag: string) => mkdtempSync(join(tmpdir(), `injury-lab-${tag}-`));

/** What a cell answers, without where its names came from: labels, fields, exact outcomes and means. */
function answers(sweep: SweepResult) {
  return {
    dimensions: sweep.dimensions.map((d) => d.values.map((v) => [v.label, v.cost])),
    cells: sweep.cells.map((c) => ({ labels: c.labels, scenario: c.scenario, outcomes: c.outcomes, means: c.means })),
  };
}

describe('reports/roster-example.json', () => {
  it('gives the answers of the same profiles written out as a profiles file and passed back', async () => {
    const listed = await cliInProcess('profiles', '--roster', ROSTER, '--format', 'json');
    expect(listed.code).toBe(0);
    const profilesFile = join(temp('roster-profiles'), 'pilgrims.json');
    writeFileSync(profilesFile, listed.stdout);

    const def = loadReportDef(REPORT);
    for (const a of def.analyses) {
      expect(a.base.roster).toBe(ROSTER);
      const { roster: _roster, ...rest } = a.base;
      const fromRoster = await runSweep({ base: a.base, vary: a.vary });
      const fromProfiles = await runSweep({ base: { ...rest, profiles: profilesFile }, vary: a.vary });
      expect(answers(fromRoster), a.id).toEqual(answers(fromProfiles));
    }
  });

  it('labels every weapon and model with the cost the roster sums, so its value charts can divide by it', () => {
    const def = loadReportDef(REPORT);
    const [weapons, models] = def.analyses[0]!.dimensions;
    // Thornpike 12 ducats; the Lantern Warden 70 with its Thornpike (12) and Pilgrim Plate (20).
    expect(weapons!.values[0]).toMatchObject({ label: 'Thornpike (12)', cost: 12 });
    expect(models!.values.map((v) => v.label)).toEqual(['Ash Acolyte (39)', 'Thorn Sentinel (65)', 'Lantern Warden (102)', 'Cinder Brute (115)']);
    // "MODEL with WEAPON" costs the whole model.
    expect(def.analyses[1]!.dimensions[0]!.values[0]).toMatchObject({ label: 'Lantern Warden with Thornpike (102)', cost: 102 });
    // Four: a model's chance of escaping Down or worse in one attack (63% to 100%) is no value per ducat (MAX_VALUE_CHANCE).
    expect(def.analyses.flatMap((a) => a.charts.filter((c) => c.type === 'value'))).toHaveLength(4);
  });
});

describe('a sweep over a roster or catalogue files', () => {
  it('from the command line: --roster with --vary weapon and target', async () => {
    const r = await cliInProcess('sweep', '--kind', 'attack', '--roster', ROSTER, '--vary', 'weapon=Thornpike,Cinder Brute with Cinder Maul', '--vary', 'target=Thorn Sentinel', '--format', 'json');
    expect(r.stderr).toBe('');
    const cells = JSON.parse(r.stdout).cells as { labels: string[] }[];
    expect(cells.map((c) => c.labels)).toEqual([
      ['Thornpike (12)', 'Thorn Sentinel (65)'],
      ['Cinder Brute with Cinder Maul (115)', 'Thorn Sentinel (65)'],
    ]);
  });

  it('catalogue files: names and each faction\'s price', () => {
    const CATS = ['test/fixtures/rosters/pilgrim-system.gst', 'test/fixtures/rosters/ashen-pilgrims.cat', 'test/fixtures/rosters/cinder-choir.cat'];
    const [weapons] = sweepDimensions({ kind: 'attack', catalogue: CATS }, ['weapon=Thornpike,Thornpike (Cinder Choir)']);
    expect(weapons!.values.map((v) => [v.label, v.cost])).toEqual([
      ['Thornpike (12)', 12],
      ['Thornpike (Cinder Choir) (14)', 14],
    ]);
  });

  it('refuses an unknown name in one line, with a "did you mean"', async () => {
    const r = await cliInProcess('sweep', '--kind', 'attack', '--roster', ROSTER, '--vary', 'weapon=Thornpik,Ember Carbine');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^injury-lab: vary: weapon: "Thornpik" is not a weapon of roster file "examples\/roster-example\.ros" \(did you mean "Thornpike"\?\); allowed: "Thornpike", /);

    // In a report definition: the same line, after the file and the analysis.
    const doc = { title: 'T', analyses: [{ id: 'm', title: 'M', scenario: { kind: 'attack', roster: `../${ROSTER}` }, vary: ['weapon=Thornpike', 'target=Cinder Brut'] }] };
    expect(() => parseReportDef(doc, 'reports/typo.json')).toThrow(
      /^reports\/typo\.json: analysis "m" \(analyses\[0\]\): vary: target: "Cinder Brut" is not a model of roster file "examples\/roster-example\.ros" \(did you mean "Cinder Brute"\?\); allowed: /,
    );
  });

  it('checks a base weapon the grid replaces against the roster too', () => {
    expect(() => sweepDimensions({ kind: 'attack', roster: ROSTER, weapon: 'Thornpike' }, ['weapon=Ember Carbine'])).not.toThrow();
    expect(() => sweepDimensions({ kind: 'attack', roster: ROSTER, weapon: 'Thornpik' }, ['weapon=Ember Carbine'])).toThrow(
      /^scenario: weapon: "Thornpik" is not a weapon of roster file .*\(the grid varies weapon, but the value given must still be allowed\)$/,
    );
  });

  it('without a profiles file, roster or catalogue, says which key names the weapons', () => {
    expect(() => sweepDimensions({ kind: 'attack' }, ['weapon=Thornpike'])).toThrow('vary: weapon needs "profiles", "roster" or "catalogue" in the scenario: the file that names the weapons');
  });
});

describe('a roster a report or sweep reads is an input of the run', () => {
  /** A folder with the roster in data/ and a definition in defs/ that names it relative to itself. */
  function project() {
    const dir = temp('roster-input');
    mkdirSync(join(dir, 'data'));
    mkdirSync(join(dir, 'defs'));
    copyFileSync(ROSTER, join(dir, 'data', 'warband.ros'));
    const def = join(dir, 'defs', 'warband.json');
    const analysis = { id: 'm', title: 'M', scenario: { kind: 'attack', roster: '../data/warband.ros' }, vary: ['weapon=Thornpike', 'target=Thorn Sentinel,Cinder Brute'] };
    writeFileSync(def, JSON.stringify({ title: 'Warband', analyses: [analysis] }));
    return { dir, def, roster: join(dir, 'data', 'warband.ros') };
  }

  it('read from the definition file\'s folder, and listed among its inputs', () => {
    const { def, roster } = project();
    expect(loadReportDef(def).inputs).toEqual([roster]);
    expect(loadReportDef(REPORT).inputs).toEqual([ROSTER]);
  });

  it('report --out onto its folder is refused, even with --force, and nothing there changes', async () => {
    const { dir, def, roster } = project();
    const before = readFileSync(roster);
    const r = await cliInProcess('report', def, '--out', join(dir, 'data'), '--force');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`injury-lab: --out: ${JSON.stringify(join(dir, 'data'))} holds ${JSON.stringify(roster)}, an input of this run; name another folder\n`);
    expect(readdirSync(join(dir, 'data'))).toEqual(['warband.ros']);
    expect(readFileSync(roster)).toEqual(before);
  });

  it('sweep --out onto the roster is refused', async () => {
    const { roster } = project();
    const before = readFileSync(roster);
    const r = await cliInProcess('sweep', '--kind', 'attack', '--roster', roster, '--vary', 'weapon=Thornpike', '--out', roster);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('input');
    expect(readFileSync(roster)).toEqual(before);
  });
});
