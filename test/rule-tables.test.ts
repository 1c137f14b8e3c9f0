import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { editionRules, ruleLeaves, ruleListing, valueAt } from '../src/model/rule-table.js';
import { rulesPresenter } from '../src/present/tables/rules.js';
import { systems } from '../src/rules/registry.js';
import { cli } from './helpers/cli.js';

/**
 * The rule tables (src/rules/<system>/rule-spec.ts) hold every number the engines read, each with the
 * sentence it comes from. These tests hold the tables to the rule files: every quote is found in its
 * file, every ruling cited exists in docs/rules.md, the bands rise, and the printed bands agree with
 * the injury tables read straight from the files' text.
 */

const RULES_DIR = '../shared/rules';
/** Line breaks and runs of spaces differ between the files and our one-line quotes; nothing else may. */
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const fileText = new Map<string, string>();
const ruleFile = (name: string): string => {
  let text = fileText.get(name);
  if (text === undefined) {
    text = squash(readFileSync(`${RULES_DIR}/${name}`, 'utf8'));
    fileText.set(name, text);
  }
  return text;
};
const rulings = readFileSync('docs/rules.md', 'utf8');

describe.each(systems.map((s) => [s.id, s] as const))('%s rule table', (_id, system) => {
  const leaves = ruleLeaves(system.rules.spec);

  it.each(system.editions.map((e) => [e.id] as const))('every quote of the %s edition is in its rule file, and every ruling exists', (edition) => {
    for (const { path, leaf } of leaves) {
      const source = leaf.editions[edition]?.source;
      expect(source, `${path} has no source for ${edition}`).toBeDefined();
      if (source === undefined) continue;
      if ('file' in source) expect(ruleFile(source.file), `${path}: "${source.quote}" not in ${source.file}`).toContain(squash(source.quote));
      else expect(rulings, `${path}: ruling ${source.ruling}`).toMatch(new RegExp(`^\\| ${source.ruling} \\|`, 'm'));
    }
  });

  it.each(system.editions.map((e) => [e.id] as const))('the %s values are within their own bounds, and the bands rise', (edition) => {
    const table = editionRules(system.rules.spec, edition);
    for (const { path, leaf } of leaves) {
      const value = valueAt(table, path);
      const schema = leaf.schema;
      if (schema.type === 'integer') {
        if (value === null) expect(schema.nullable, path).toBeTruthy();
        else {
          expect(Number.isInteger(value), path).toBe(true);
          expect(value as number, path).toBeGreaterThanOrEqual(schema.minimum);
          expect(value as number, path).toBeLessThanOrEqual(schema.maximum);
        }
      } else if (schema.type === 'boolean') expect(typeof value, path).toBe('boolean');
      else if (schema.type === 'string') expect(schema.enum, path).toContain(value);
      else {
        // A keyword gives only fields that weapon or model profiles may give.
        const profileFields = system.fields.filter((f) => f.profile !== undefined).map((f) => f.name);
        for (const field of Object.keys(value as object)) expect(profileFields, path).toContain(field);
      }
    }
    for (const group of system.rules.increasing) {
      const values = group.map((path) => valueAt(table, path) as number);
      for (let i = 1; i < values.length; i++) expect(values[i]!, group.join(' < ')).toBeGreaterThan(values[i - 1]!);
    }
  });
});

describe('the tables agree with the rule files read directly', () => {
  const tc = systems.find((s) => s.id === 'trench-crusade')!;
  it.each(tc.editions.map((e) => [e.id, e.source] as const))('Trench Crusade %s: the injury table bands are the lowest totals the file prints', (edition, file) => {
    // "2-6Minor Hit ... 7-8Down ... 9+Out of Action": the number that opens each band.
    const text = ruleFile(file);
    const lowest = (name: string) => Number(new RegExp(`(\\d+)(?:-\\d+|\\+)${name}`).exec(text)?.[1]);
    expect(editionRules(tc.rules.spec, edition).injuryTable).toEqual({
      minorHit: lowest('Minor Hit'),
      down: lowest('Down'),
      outOfAction: lowest('Out of Action'),
    });
  });

  it('d20 warband: both injury tables are the lowest d20 of each band the injury file prints', () => {
    const d20 = systems.find((s) => s.id === 'd20-warband')!;
    const text = ruleFile('000_87078d30a64c9030.txt');
    const chart = (heading: string) => text.slice(text.indexOf(heading)).split('|').map((c) => c.trim());
    // Each table is "| from-to | Result |" rows after its heading: the first row of each result is its lowest d20.
    const lowestOf = (cells: string[], result: string) => Number(cells[cells.indexOf(result) - 1]!.split('-')[0]);
    const check = chart('Injury Check Chart');
    const roll = chart('Injury Roll Table |');
    const table = editionRules(d20.rules.spec, 'v1');
    expect(table.injuryCheckTable).toEqual({ stunned: lowestOf(check, 'Stunned'), incapacitated: lowestOf(check, 'Incapacitated') });
    expect(table.injuryRollTable).toEqual({ dazed: lowestOf(roll, 'Dazed'), stunned: lowestOf(roll, 'Stunned'), incapacitated: lowestOf(roll, 'Incapacitated') });
  });
});

describe('injury-lab rules', () => {
  it('lists every rule of the edition with its value and source, in each format', () => {
    const tc = systems.find((s) => s.id === 'trench-crusade')!;
    const listing = ruleListing(tc, tc.editions.find((e) => e.id === 'playtest')!);
    const json = JSON.parse(rulesPresenter.json(listing)) as { rules: { markers: { cap: unknown } }; entries: { rule: string }[] };
    expect(json.rules.markers.cap).toBe(6);
    expect(json.entries.map((e) => e.rule)).toEqual(ruleLeaves(tc.rules.spec).map((l) => l.path));
    const table = rulesPresenter.table(listing);
    expect(table).toMatch(/^markers\.cap\s+6$/m);
    expect(squash(table)).toContain('(maximum six per model)');
    const csv = rulesPresenter.csv(listing).trimEnd().split('\n');
    expect(csv).toHaveLength(1 + ruleLeaves(tc.rules.spec).length);
    expect(csv.find((l) => l.includes(',markers.cap,'))).toContain(',6,');
  });

  it('prints from the command line, and refuses an unknown edition in one line', () => {
    const ok = cli('rules', '--system', 'd20-warband', '--format', 'json');
    expect(ok.code).toBe(0);
    expect((JSON.parse(ok.stdout) as { rules: { naturalFailMax: number } }).rules.naturalFailMax).toBe(4);
    const bad = cli('rules', '--edition', 'v2');
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toEqual(['injury-lab: --edition: "v2" is not an edition of trench-crusade; allowed: playtest, comprehensive, core']);
  });
});
