import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeOpened, openedFiles } from '../src/input/opened-files.js';
import { parseScenarioWith } from '../src/input/scenario-core.js';
import { parseScenario } from '../src/input/scenario.js';
import { evaluateParsed } from '../src/exact-result.js';
import { MAX_JSON_BYTES } from '../src/json-text.js';
import { readRosterProfiles } from '../src/import/read-battlescribe.js';

/**
 * The web page's reader of opened files (src/input/opened-files.ts) against the CLI's disk readers:
 * the same scenario from the same bytes gives the same exact answer, and the same refusals.
 */

const shelfOf = (...paths: string[]) => new Map(paths.map((p) => [basename(p), new Uint8Array(readFileSync(p))]));
const fractions = (s: ReturnType<typeof parseScenario>) => evaluateParsed(s).outcomes.map((o) => o.exact);

describe('files opened in the page', () => {
  const shelf = shelfOf('examples/profiles.json', 'examples/variants/out-of-action-on-10.json', 'test/fixtures/rosters/ashen-pilgrims.ros', 'test/fixtures/rosters/pilgrim-system.gst', 'test/fixtures/rosters/ashen-pilgrims.cat');
  const files = openedFiles(shelf);

  it('answer as the same files read from disk', () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ kind: 'attack', profiles: 'profiles.json', weapon: 'Great Hammer', target: 'Machine Brute' }, { profiles: 'examples/profiles.json' }],
      [{ kind: 'injury', rules: 'out-of-action-on-10.json', armour: 'reinforced' }, { rules: 'examples/variants/out-of-action-on-10.json' }],
      [{ kind: 'attack', roster: 'ashen-pilgrims.ros', weapon: 'Thornpike', target: 'Bell Golem' }, { roster: 'test/fixtures/rosters/ashen-pilgrims.ros' }],
      [{ kind: 'attack', catalogue: ['pilgrim-system.gst', 'ashen-pilgrims.cat'], target: 'Lantern Warden' }, { catalogue: ['test/fixtures/rosters/pilgrim-system.gst', 'test/fixtures/rosters/ashen-pilgrims.cat'] }],
    ];
    for (const [page, disk] of cases) expect({ page, answer: fractions(parseScenarioWith(page, files)) }).toEqual({ page, answer: fractions(parseScenario({ ...page, ...disk })) });
  });

  it('list what each file is and the names a scenario may give', () => {
    const listed = describeOpened(shelf);
    expect(listed.map((f) => [f.name, f.field, f.system])).toEqual([
      ['profiles.json', 'profiles', 'trench-crusade'],
      ['out-of-action-on-10.json', 'rules', 'trench-crusade'],
      ['ashen-pilgrims.ros', 'roster', 'trench-crusade'],
      ['pilgrim-system.gst', 'catalogue', 'trench-crusade'],
      ['ashen-pilgrims.cat', 'catalogue', 'trench-crusade'],
    ]);
    const profiles = JSON.parse(readFileSync('examples/profiles.json', 'utf8')) as { weapons: object; models: object };
    expect(listed[0]).toMatchObject({ weapons: Object.keys(profiles.weapons), models: Object.keys(profiles.models) });
    // A roster's profiles as `injury-lab profiles --roster` reads them: keywords, cost, what nothing models.
    const roster = readRosterProfiles('test/fixtures/rosters/ashen-pilgrims.ros');
    for (const p of [...roster.weapons.values(), ...roster.models.values()]) {
      expect(listed[2]!.profiles![p.name]).toEqual({ keywords: p.keywords, ...(p.cost !== undefined ? { cost: p.cost } : {}), unmodelled: (p.unmodelled ?? []).map((u) => `${u.text} (${u.why})`) });
    }
    expect(listed[2]!.profiles!['Lantern Warden']!.unmodelled).toContain('Elite (not a keyword of the rule table)');
    expect(describeOpened(new Map([['notes.txt', new TextEncoder().encode('hello')]]))[0]!.problem).toBe('not JSON, a roster (.ros, .rosz) or a catalogue (.cat, .gst)');
  });

  it('refuse a file not opened, a file too big, and bad JSON in the words of the CLI', () => {
    expect(() => parseScenarioWith({ kind: 'attack', profiles: 'other.json' }, files)).toThrow('profiles: "other.json" has not been opened in this page; open the file in the page first');
    const big = openedFiles(new Map([['big.json', new Uint8Array(MAX_JSON_BYTES + 1).fill(0x20)]]));
    expect(() => parseScenarioWith({ kind: 'attack', rules: 'big.json' }, big)).toThrow('variant file "big.json": is 1.0 MB; a variant file is at most 1 MiB');
    const bad = openedFiles(new Map([['bad.json', new TextEncoder().encode('{"rules": ')]]));
    expect(() => parseScenarioWith({ kind: 'attack', rules: 'bad.json' }, bad)).toThrow(/^variant file "bad.json": not valid JSON/);
  });
});
