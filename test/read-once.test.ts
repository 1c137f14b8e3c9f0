import { appendFileSync, copyFileSync, mkdtempSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readCatalogueFiles, readRosterFile } from '../src/import/read-battlescribe.js';
import { readCatalogueFilesOnce, readCatalogueProfilesOnce, readRosterFileOnce, readRosterProfilesOnce } from '../src/input/read-once.js';
import { rosterProfilesOnce } from '../src/input/profiles-once.js';
import { rosterProfiles } from '../src/import/roster.js';
import { rawScenarioFromArgv } from '../src/cli/options.js';
import { editionTable } from '../src/model/edition-table.js';
import { parseScenario } from '../src/input/scenario.js';
import { readVariantFile } from '../src/input/read-files.js';
import { planCells, sweepDimensions } from '../src/analysis/sweep.js';
import { findSystem } from '../src/rules/registry.js';
import { UsageError } from '../src/errors.js';

/**
 * Issue 22, item 8: a roster or a list of catalogues is read, parsed and made into profiles once per
 * process for the same inputs (src/import/read-once.ts), where a sweep read it again for every cell and
 * every name. The readers are wrapped in counting spies: how often a file is read is counted, never
 * timed (`npm run bench` times it).
 */

vi.mock('../src/import/read-battlescribe.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/import/read-battlescribe.js')>();
  return { ...actual, readRosterFile: vi.fn(actual.readRosterFile), readCatalogueFiles: vi.fn(actual.readCatalogueFiles) };
});
vi.mock('../src/import/roster.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/import/roster.js')>();
  return { ...actual, rosterProfiles: vi.fn(actual.rosterProfiles) };
});

const ROSTER = 'test/fixtures/rosters/ashen-pilgrims.ros';
const VARIANT = 'examples/variants/out-of-action-on-10.json';
const CATALOGUES = ['pilgrim-system.gst', 'ashen-pilgrims.cat', 'cinder-choir.cat'];
const tc = findSystem('trench-crusade')!;
const core = editionTable(tc, 'core');

const rosterReads = () => vi.mocked(readRosterFile).mock.calls.length;
const catalogueReads = () => vi.mocked(readCatalogueFiles).mock.calls.length;
const profileBuilds = () => vi.mocked(rosterProfiles).mock.calls.length;

// A first variant compiles the rule-change schema (about a second, once per process): not what is tested here.
beforeAll(() => {
  readVariantFile(VARIANT);
});

/** Files of their own per test: what another test read is never what this one finds kept. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'injury-lab-read-once-'));
});
const rosterCopy = (name = 'pilgrims.ros') => {
  const path = join(dir, name);
  copyFileSync(ROSTER, path);
  return path;
};
const catalogueCopies = () =>
  CATALOGUES.map((f) => {
    const path = join(dir, f);
    copyFileSync(join('test/fixtures/rosters', f), path);
    return path;
  });

describe('a roster', () => {
  it('is read once: the same file gives the very same tree and the very same profiles', () => {
    const path = rosterCopy();
    const reads = rosterReads();
    const tree = readRosterFileOnce(path);
    const profiles = readRosterProfilesOnce(path);
    expect(readRosterFileOnce(path)).toBe(tree);
    expect(readRosterProfilesOnce(path)).toBe(profiles);
    expect(readRosterProfilesOnce(path, core)).toBe(profiles);
    expect(rosterReads() - reads).toBe(1);
  });

  it('is read again once edited, whatever its size; its profiles are made again', () => {
    const path = rosterCopy();
    const before = readRosterProfilesOnce(path);
    appendFileSync(path, '\n<!-- edited -->\n');
    const edited = readRosterProfilesOnce(path);
    expect(edited).not.toBe(before);
    expect(readRosterProfilesOnce(path)).toBe(edited);
    // The same size, only a new modification time (a file saved again, or replaced by one as long).
    utimesSync(path, new Date(2001, 0, 1), new Date(2001, 0, 1));
    const touched = readRosterFileOnce(path);
    expect(readRosterProfilesOnce(path)).not.toBe(edited);
    expect(readRosterFileOnce(path)).toBe(touched);
  });

  it('gives other profiles by another rule table, from the same tree, each kept', () => {
    const path = rosterCopy();
    const tree = readRosterFileOnce(path);
    // A made-up keyword, only to show that the table decides what a token means (as in test/roster.test.ts).
    const quake = { ...core, keywords: { ...(core.keywords as object), QUAKE: { armourPiercing: 'N' } } };
    const builds = profileBuilds();
    const byCore = rosterProfilesOnce(tree, core);
    const byQuake = rosterProfilesOnce(tree, quake);
    expect(byQuake).not.toBe(byCore);
    expect(byCore.weapons.get('Bell Hammer')!.keywords).toEqual(['DEADLY']);
    expect(byQuake.weapons.get('Bell Hammer')!.keywords).toEqual(['DEADLY', 'QUAKE 2']);
    expect(rosterProfilesOnce(tree, core)).toBe(byCore);
    expect(rosterProfilesOnce(tree, quake)).toBe(byQuake);
    // Another table object of the same content (a variant file read again by the next cell) reads the same.
    expect(rosterProfilesOnce(tree, JSON.parse(JSON.stringify(quake)))).toBe(byQuake);
    expect(rosterProfilesOnce(tree, editionTable(tc, 'comprehensive'))).not.toBe(byCore);
    expect(profileBuilds() - builds).toBe(3);
  });

  it('is named in messages as the user named it: another spelling of the same file is its own entry', () => {
    const path = rosterCopy();
    const link = join(dir, 'link.ros');
    symlinkSync(path, link);
    expect(readRosterFileOnce(path).label).toBe(`roster file "${path}"`);
    expect(readRosterFileOnce(link).label).toBe(`roster file "${link}"`);
  });

  it('is refused every time it is refused, in the same words, and read once it is mended', () => {
    const path = join(dir, 'broken.ros');
    writeFileSync(path, 'not a roster');
    const reads = rosterReads();
    const refusal = () => {
      try {
        readRosterFileOnce(path);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      throw new Error('not refused');
    };
    const first = refusal();
    expect(refusal()).toBe(first);
    const missing = join(dir, 'missing.ros');
    expect(() => readRosterFileOnce(missing)).toThrow(/no such file/);
    expect(() => readRosterFileOnce(missing)).toThrow(/no such file/);
    expect(rosterReads() - reads).toBe(4);
    copyFileSync(ROSTER, path);
    const mended = readRosterFileOnce(path);
    expect(readRosterFileOnce(path)).toBe(mended);
    expect(rosterReads() - reads).toBe(5);
  });

  it('keeps the last 8 rosters read: an older one is read again', () => {
    const paths = Array.from({ length: 9 }, (_, i) => rosterCopy(`r${i}.ros`));
    const reads = rosterReads();
    for (const p of paths) readRosterFileOnce(p);
    for (const p of paths.slice(1)) readRosterFileOnce(p);
    expect(rosterReads() - reads).toBe(9);
    readRosterFileOnce(paths[0]!);
    expect(rosterReads() - reads).toBe(10);
  });
});

describe('catalogue files', () => {
  it('are read once for the same list, and again for another list', () => {
    const paths = catalogueCopies();
    const reads = catalogueReads();
    const profiles = readCatalogueProfilesOnce(paths);
    expect(readCatalogueProfilesOnce(paths)).toBe(profiles);
    expect(readCatalogueFilesOnce([...paths])).toBe(readCatalogueFilesOnce(paths));
    expect(catalogueReads() - reads).toBe(1);
    // Without one faction the list reads differently: its own entry.
    expect(readCatalogueProfilesOnce(paths.slice(0, 2)).weapons.has('Thornpike (Cinder Choir)')).toBe(false);
    expect(catalogueReads() - reads).toBe(2);
    // One file of the list edited: the list is read again.
    appendFileSync(paths[2]!, '\n<!-- edited -->\n');
    expect(readCatalogueProfilesOnce(paths)).not.toBe(profiles);
    expect(catalogueReads() - reads).toBe(3);
  });

  it('are read once for a whole sweep: its grid, its weapon and target names and every cell', () => {
    const catalogue = catalogueCopies();
    const reads = catalogueReads();
    const builds = profileBuilds();
    const base = { kind: 'attack', catalogue };
    const vary = [
      { field: 'weapon', values: ['Thornpike', 'Ember Carbine', 'Thornpike (Cinder Choir)'] },
      { field: 'target', values: ['Lantern Warden', 'Choir Brute'] },
      { field: 'edition', values: ['core', 'comprehensive'] },
    ];
    const cells = planCells(base, sweepDimensions(base, vary));
    expect(cells).toHaveLength(12);
    expect(catalogueReads() - reads).toBe(1);
    // Profiles once per rule table: the two editions'.
    expect(profileBuilds() - builds).toBe(2);
  });

  it('are made into profiles once for a sweep under a variant file, which each cell reads again', () => {
    const catalogue = catalogueCopies();
    const reads = catalogueReads();
    const builds = profileBuilds();
    const base = { kind: 'attack', catalogue, rules: VARIANT };
    const vary = [
      { field: 'weapon', values: ['Thornpike', 'Ember Carbine'] },
      { field: 'target', values: ['Lantern Warden', 'Choir Brute'] },
    ];
    const cells = planCells(base, sweepDimensions(base, vary));
    expect(new Set(cells.map((c) => c.scenario.rules)).size).toBe(cells.length);
    expect(catalogueReads() - reads).toBe(1);
    // The axes' names by the edition's table, the cells by the variant's.
    expect(profileBuilds() - builds).toBe(2);
  });

  it('are read once by a command line that needs their system for its field flags, then parses the scenario', () => {
    const catalogue = catalogueCopies();
    const reads = catalogueReads();
    const raw = rawScenarioFromArgv({ kind: 'attack', catalogue, weapon: 'Thornpike', target: 'Choir Brute', injuryDice: '1' }, undefined);
    expect(raw.system).toBe('trench-crusade');
    expect(parseScenario(raw)).toMatchObject({ weapon: 'Thornpike', target: 'Choir Brute', injuryDice: 1, ignoreArmour: true });
    expect(catalogueReads() - reads).toBe(1);
  });
});
