import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { profileFields } from '../src/model/profiles.js';
import { parseProfiles, profilesJsonSchema } from '../src/input/profiles-file.js';
import { readProfilesFile } from '../src/input/read-files.js';
import { findSystem } from '../src/rules/registry.js';
import { parseScenario, scenarioRecord } from '../src/input/scenario.js';
import { profilesPresenter } from '../src/present/tables/profiles.js';
import { valueRows } from '../src/present/chart/value.js';
import { loadReportDef, parseReportDef } from '../src/present/report/definition.js';
import { runReport } from '../src/present/report/run.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { refusal } from './helpers/refusal.js';

/** Named weapons and models: a profile's fields go under the scenario's own, by name, with costs. */

const label = 'profiles file "p.json"';

describe('profiles', () => {
  it('a named matchup is the scenario of its fields, and explicit fields win', () => {
    const named = parseScenario({ kind: 'attack', profiles: 'examples/profiles.json', weapon: 'Great Hammer', target: 'Shield Bearer' });
    const spelled = parseScenario({ kind: 'attack', injuryDice: 1, attackType: 'melee', armour: 'standard', shield: true });
    expect(evaluateExact(named).outcomes).toEqual(evaluateExact(spelled).outcomes);
    expect([named.weapon, named.target]).toEqual(['Great Hammer', 'Shield Bearer']);
    const overridden = parseScenario({ kind: 'attack', profiles: 'examples/profiles.json', weapon: 'Great Hammer', injuryDice: 3 });
    expect(overridden.system === 'trench-crusade' && overridden.kind === 'attack' && overridden.injuryDice).toBe(3);
    // Fields this kind does not read are left out: a rifle's attack dice mean nothing to one injury roll.
    const injury = parseScenario({ kind: 'injury', profiles: 'examples/profiles.json', weapon: 'Bolt-action Rifle' });
    expect(injury).not.toHaveProperty('attackDice');
    // Outputs keep the names as labels; read back, the record is the same scenario.
    expect(parseScenario(scenarioRecord(named))).toEqual(named);
  });

  it('refuses an unknown name with a suggestion, and a profiles file of another system', () => {
    expect(refusal(() => parseScenario({ kind: 'attack', profiles: 'examples/profiles.json', target: 'Machine brute' }))).toBe(
      'target: "Machine brute" is not a model of profiles file "examples/profiles.json" (did you mean "Machine Brute"?); allowed: "Unarmoured Trooper", "Shield Bearer", "Reinforced Veteran", "Machine Brute"',
    );
    expect(refusal(() => parseScenario({ system: 'd20-warband', kind: 'attack', profiles: 'examples/profiles.json' }))).toMatch(/^profiles: profiles file "examples\/profiles.json" is of trench-crusade, not "d20-warband"/);
  });

  it('refuses a malformed profile in one line naming the profile, the key and what is allowed', () => {
    // The allowed list is the model fields as declared (src/rules/trench-crusade/fields.ts), then the profile's own keys.
    const modelFields = profileFields(findSystem('trench-crusade')!, 'model').map((f) => f.name);
    expect(modelFields.slice(0, 4)).toEqual(['targetInjuryModifier', 'targetInjuryDice', 'armour', 'shield']);
    expect(refusal(() => parseProfiles({ models: { Knight: { armor: 'standard' } } }, label, 'p.json'))).toBe(
      `profiles file "p.json": models."Knight".armor: not a model field of trench-crusade (did you mean armour?); allowed: ${[...modelFields, 'keywords', 'injuryDiceUnless', 'loadout', 'characteristicDice', 'cost', 'otherCosts', 'description'].join(', ')}`,
    );
    expect(refusal(() => parseProfiles({ models: { Knight: { injuryDice: 1 } } }, label, 'p.json'))).toMatch(/^profiles file "p.json": models."Knight".injuryDice: is a weapon field, not a model field/);
    expect(refusal(() => parseProfiles({ weapons: { Axe: { injuryDice: 11 } } }, label, 'p.json'))).toBe(
      'profiles file "p.json": weapons."Axe".injuryDice: 11 is not allowed; allowed: a whole number from -10 to 10',
    );
    expect(refusal(() => parseProfiles({ weapons: { Axe: { cost: -5 } } }, label, 'p.json'))).toBe('profiles file "p.json": weapons."Axe".cost: -5 is not allowed; allowed: a number from 0');
    expect(refusal(() => parseProfiles({ weapons: { Axe: { targetDown: true } } }, label, 'p.json'))).toMatch(/weapons."Axe".targetDown: a scenario field, not part of a weapon profile/);
    expect(refusal(() => parseProfiles({ units: {} }, label, 'p.json'))).toBe('profiles file "p.json": units: not a key of a profiles file; allowed: description, system, models, weapons');
    // The d20 game: units as targets with Defence and Wounds, weapons with Injury and Pierce.
    const d20 = parseProfiles({ system: 'd20-warband', models: { Guard: { defence: 12, wounds: 2, cost: 20 } }, weapons: { Spear: { injury: 1, pierce: 1 } } }, label, 'p.json');
    expect(d20.models.get('Guard')!.fields).toEqual({ defence: 12, wounds: 2 });
  });

  it('lists a file as it is written (JSON reads back), and the schema is published and committed', () => {
    const p = readProfilesFile('examples/profiles.json');
    expect(parseProfiles(JSON.parse(profilesPresenter.json(p)), label, 'p.json').weapons.get('Great Hammer')).toEqual(p.weapons.get('Great Hammer'));
    expect(profilesPresenter.table(p)).toMatch(/^Machine Brute\s+110\s+armour machine, tough true$/m);
    const schema = JSON.parse(readFileSync('profiles.schema.json', 'utf8')) as Record<string, unknown>;
    expect(schema).toEqual(profilesJsonSchema());
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(JSON.parse(readFileSync('examples/profiles.json', 'utf8')))).toBe(true);
    expect(validate({ models: { X: { armor: 'standard' } } })).toBe(false);
  });

  it('a report varies weapon and target by name, labelled with their costs', () => {
    const def = loadReportDef('reports/matrix-example.json');
    const a = def.analyses[0]!;
    expect(a.cells).toBe(16);
  });

  it('from the command line: --profiles, --weapon, --target, and a misspelt name refused in one line', async () => {
    // The answer in this process (cliInProcess: main.ts, the same output and exit code); the refusal in a
    // process of its own, the built CLI end to end.
    const ok = await cliInProcess('exact', '--kind', 'attack', '--profiles', 'examples/profiles.json', '--weapon', 'Great Hammer', '--target', 'Shield Bearer');
    expect(ok.code).toBe(0);
    expect(ok.stdout.split('\n')[0]).toBe('trench-crusade (core edition), attack: Great Hammer against Shield Bearer');
    const bad = cli('exact', '--kind', 'attack', '--profiles', 'examples/profiles.json', '--weapon', 'Great Hamer');
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^injury-lab: weapon: "Great Hamer" is not a weapon of profiles file "examples\/profiles.json" \(did you mean "Great Hammer"\?\)/)]);
  });
});

describe('value charts: what a weapon or model does for its price', () => {
  it('divide the measure, averaged over the other dimension, by the cost, and mark the outliers against the median', async () => {
    const def = parseReportDef(
      {
        title: 'Value',
        analyses: [
          {
            id: 'a',
            title: 'A',
            scenario: { kind: 'attack', profiles: '../examples/profiles.json' },
            vary: [
              { field: 'weapon', values: ['Trench Club', 'Great Hammer', 'Bolt-action Rifle'] },
              { field: 'target', values: ['Unarmoured Trooper', 'Shield Bearer'] },
            ],
            charts: [{ type: 'value', by: 'weapon', outcome: 'out-of-action' }],
          },
        ],
      },
      'reports/value-test.json',
    );
    const run = await runReport(def);
    const chart = def.analyses[0]!.charts[0]!;
    if (chart.type !== 'value') throw new Error('a value chart');
    const rows = valueRows(run.analyses[0]!.sweep, chart);
    const ooa = (weapon: string, target: string) =>
      evaluateExact(parseScenario({ kind: 'attack', profiles: 'examples/profiles.json', weapon, target })).outcomes.find((o) => o.outcome === 'out-of-action')!.probability;
    const expected = (weapon: string, cost: number) => ((ooa(weapon, 'Unarmoured Trooper') + ooa(weapon, 'Shield Bearer')) / 2 / cost) * 10;
    expect(rows.map((r) => r.name)).toEqual(['Trench Club', 'Great Hammer', 'Bolt-action Rifle']);
    expect(rows[0]!.value).toBeCloseTo(expected('Trench Club', 2), 12);
    expect(rows[1]!.value).toBeCloseTo(expected('Great Hammer', 12), 12);
    // The median of three is the middle value; the club (cost 2) is far above it, the others near it.
    const median = [...rows.map((r) => r.value)].sort((a, b) => a - b)[1]!;
    expect(rows[0]!.median).toBeCloseTo(median, 12);
    expect(rows.map((r) => r.verdict)).toEqual(rows.map((r) => (r.value >= median * 1.5 ? 'under-priced' : r.value <= median / 1.5 ? 'over-priced' : 'in line')));
    expect(rows[0]!.verdict).toBe('under-priced');
  });

  it('refuse a dimension without costs, or neither or both of outcome and mean', () => {
    const make = (chart: Record<string, unknown>, vary: unknown[] = [{ field: 'weapon', values: ['Trench Club'] }, 'armour=none,standard']) =>
      refusal(() => parseReportDef({ title: 'V', analyses: [{ id: 'a', title: 'A', scenario: { kind: 'attack', profiles: '../examples/profiles.json' }, vary, charts: [chart] }] }, 'reports/v.json'));
    expect(make({ type: 'value', by: 'armour', outcome: 'down' })).toMatch(/charts\[0\] \(value\): by: "armour" is not a weapon, target or side dimension/);
    expect(make({ type: 'value', by: 'weapon' })).toMatch(/give "outcome" \(a chance\) or "mean" \(an expectation\), one of them$/);
    expect(make({ type: 'value', by: 'weapon', mean: 'expectedAttacks' })).toMatch(/mean "expectedAttacks" is not a mean of this kind; allowed: expectedBloodMarkers$/);
  });
});
