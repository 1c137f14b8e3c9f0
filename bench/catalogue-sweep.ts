/**
 * The catalogue sweep of `npm run bench` (issue 22, item 8): a weapons x models matrix through catalogue
 * files, as a report's `"catalogue"` names them, against the same matrix through the profiles file those
 * catalogues export (`profiles --catalogue ... --format json`), under an edition's rules and under a
 * variant file's. Both are timed from the grid's check to every cell's scenario parsed: what a sweep
 * does before it solves anything. The solving is the same work either way (the same scenarios), so it
 * is left out, and what is left is the cost of the profiles' source.
 *
 * The catalogues are ours: the test fixtures' invented game system and two factions, and, to give the
 * list a real faction catalogue's size, a generated catalogue of numbered invented entries. Each timed
 * catalogue run starts with the files touched (a new modification time), so it reads them as a first
 * run of a process does: the best of the repetitions is never a run that found them already read.
 */
import { copyFileSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readCatalogueProfiles } from '../src/import/read-battlescribe.js';
import { profilesPresenter } from '../src/present/tables/profiles.js';
import { projectRoot } from '../src/project.js';
import { planCells, sweepDimensions } from '../src/analysis/sweep.js';

/** The issue's matrix: 14 weapons against 53 models. */
export const MATRIX = { weapons: 14, models: 53 };
/** Entries of the generated catalogue: with the fixtures, a list of about 1.7 MB, a game system and a faction's size. */
const GENERATED = { weapons: 300, models: 700, weaponsPerModel: 4 };
/** The issue's target: a matrix through catalogues within this factor of the same through their profiles file. */
export const CATALOGUE_TARGET_RATIO = 3;

const FIXTURES = ['pilgrim-system.gst', 'ashen-pilgrims.cat', 'cinder-choir.cat'].map((f) => join(projectRoot, 'test', 'fixtures', 'rosters', f));

/** Keywords strings the core table reads, in turn: every generated weapon is usable in a cell. */
const KEYWORDS = ['+1 DICE', 'ARMOUR-PIERCING 1', 'IGNORES ARMOUR, CUMBERSOME', '+1 INJURY DICE', 'ARMOUR-PIERCING 2, +1 DICE', 'CUMBERSOME'];
const ARMOUR = ['-1', '-2', '-3', '0'];

const cost = (value: number) => `<costs><cost name="Ducats" typeId="pg-ducats" value="${value}"/></costs>`;
const weaponPrice = (i: number) => 5 + (i % 30);

function generatedWeapon(i: number): string {
  const melee = i % 2 === 0;
  return `    <selectionEntry id="bench-w-${i}" name="Bench Blade ${i}" type="upgrade" hidden="false">
      <profiles>
        <profile id="bench-wp-${i}" name="Bench Blade ${i}" typeId="pg-weapon" typeName="Weapon" hidden="false">
          <characteristics>
            <characteristic name="Type" typeId="pg-wtype">${melee ? '2-handed' : 'Rifle'}</characteristic>
            <characteristic name="Range" typeId="pg-wrange">${melee ? 'Melee' : '24&quot;'}</characteristic>
            <characteristic name="Keywords" typeId="pg-wkw">${KEYWORDS[i % KEYWORDS.length]}</characteristic>
            <characteristic name="Rules" typeId="pg-wrules">-</characteristic>
          </characteristics>
        </profile>
      </profiles>
      ${cost(0)}
    </selectionEntry>`;
}

function generatedModel(j: number): string {
  // Each model offers a few weapons, at the faction's price for each (so they stay one profile each).
  const offered = Array.from({ length: GENERATED.weaponsPerModel }, (_, k) => (j * 7 + k * 13) % GENERATED.weapons);
  const links = offered
    .map((w) => `            <entryLink id="bench-ml-${j}-${w}" name="Bench Blade ${w}" targetId="bench-w-${w}" type="selectionEntry" hidden="false">${cost(weaponPrice(w))}</entryLink>`)
    .join('\n');
  return `    <selectionEntry id="bench-m-${j}" name="Bench Warden ${j}" type="model" hidden="false">
      <profiles>
        <profile id="bench-mp-${j}" name="Bench Warden ${j}" typeId="pg-unit" typeName="Unit" hidden="false">
          <characteristics>
            <characteristic name="Movement" typeId="pg-mov">6&quot;</characteristic>
            <characteristic name="Ranged" typeId="pg-rng">${j % 3 === 0 ? '-1 DICE' : '+1 DICE'}</characteristic>
            <characteristic name="Melee" typeId="pg-mel">${j % 2 === 0 ? '+2 DICE' : '+1 DICE'}</characteristic>
            <characteristic name="Armour" typeId="pg-arm">${ARMOUR[j % ARMOUR.length]}</characteristic>
            <characteristic name="Base" typeId="pg-base">32mm</characteristic>
          </characteristics>
        </profile>
      </profiles>
      <infoLinks>${j % 5 === 0 ? `<infoLink id="bench-mf-${j}" name="Fear" targetId="pg-rule-fear" type="rule" hidden="false"/>` : ''}</infoLinks>
      <categoryLinks>${j % 4 === 0 ? `<categoryLink id="bench-mt-${j}" name="Tough" targetId="pg-cat-tough" primary="false"/>` : ''}</categoryLinks>
      <selectionEntryGroups>
        <selectionEntryGroup id="bench-mg-${j}" name="Weapons" hidden="false">
          <entryLinks>
${links}
          </entryLinks>
        </selectionEntryGroup>
      </selectionEntryGroups>
      ${cost(20 + (j % 80))}
    </selectionEntry>`;
}

/** A faction catalogue of the fixtures' game system, of numbered invented weapons and models. */
function generatedCatalogue(): string {
  const weapons = Array.from({ length: GENERATED.weapons }, (_, i) => i);
  const models = Array.from({ length: GENERATED.models }, (_, j) => j);
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!-- Generated by injury-lab's bench/catalogue-sweep.ts: numbered invented entries, to give a catalogue a real one's size. -->
<catalogue id="bench-cat" name="Bench Company" revision="1" battleScribeVersion="2.03" gameSystemId="pg-sys" gameSystemRevision="1" library="false" type="catalogue" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <entryLinks>
${weapons.map((i) => `    <entryLink id="bench-l-${i}" name="Bench Blade ${i}" targetId="bench-w-${i}" type="selectionEntry" hidden="false">${cost(weaponPrice(i))}</entryLink>`).join('\n')}
  </entryLinks>
  <sharedSelectionEntries>
${weapons.map(generatedWeapon).join('\n')}
${models.map(generatedModel).join('\n')}
  </sharedSelectionEntries>
</catalogue>
`;
}

export interface CatalogueSweep {
  /** The rules the cells are read by: an edition's table is made once per process, a variant file's per cell. */
  readonly rules: string;
  readonly cells: number;
  readonly files: number;
  readonly catalogueBytes: number;
  readonly profilesFileBytes: number;
  /** Fastest of the repetitions, each reading the catalogues afresh, in seconds. */
  readonly catalogueSeconds: number;
  /** Fastest of the repetitions through the exported profiles file, in seconds. */
  readonly profilesFileSeconds: number;
  /** catalogueSeconds / profilesFileSeconds. */
  readonly ratio: number;
  /** Every cell's scenario the same both ways. */
  readonly sameScenarios: boolean;
}

/** A variant file of the examples: each cell that names it reads it into a table of its own. */
const VARIANT = join(projectRoot, 'examples', 'variants', 'out-of-action-on-10.json');

/**
 * The matrix through the catalogues and through their profiles file, `repeats` times each (the fastest
 * of each), under the core edition's rules and under a variant file's.
 */
export function catalogueSweeps(repeats: number): CatalogueSweep[] {
  const dir = mkdtempSync(join(tmpdir(), 'injury-lab-bench-catalogue-'));
  try {
    // Copies of the fixtures, beside the generated catalogue: the runs touch the files, never the repository's.
    const catalogue = FIXTURES.map((f) => {
      const copy = join(dir, basename(f));
      copyFileSync(f, copy);
      return copy;
    });
    catalogue.push(join(dir, 'bench-company.cat'));
    writeFileSync(catalogue.at(-1)!, generatedCatalogue());
    const exported = readCatalogueProfiles(catalogue);
    const profilesFile = join(dir, 'bench-company.json');
    writeFileSync(profilesFile, profilesPresenter.json(exported));

    const vary = [
      { field: 'weapon', values: [...exported.weapons.keys()].slice(0, MATRIX.weapons) },
      { field: 'target', values: [...exported.models.keys()].slice(0, MATRIX.models) },
    ];
    const plan = (base: Record<string, unknown>) => planCells(base, sweepDimensions(base, vary));
    const fastest = (base: Record<string, unknown>, before: () => void = () => undefined) => {
      let seconds = Number.POSITIVE_INFINITY;
      let cells: ReturnType<typeof plan> = [];
      for (let i = 0; i < repeats; i++) {
        before();
        const t0 = performance.now();
        cells = plan(base);
        seconds = Math.min(seconds, (performance.now() - t0) / 1000);
      }
      return { seconds, cells };
    };
    // A new modification time makes a file new to src/import/read-once.ts: each repetition reads the list afresh.
    let mtime = Math.floor(Date.now() / 1000);
    const touch = () => {
      mtime += 1;
      for (const f of catalogue) utimesSync(f, mtime, mtime);
    };
    const cases = [
      { rules: 'the core edition', scenario: { system: 'trench-crusade', edition: 'core', kind: 'attack' } },
      { rules: `variant file ${basename(VARIANT)}`, scenario: { kind: 'attack', rules: VARIANT } },
    ];
    return cases.map(({ rules, scenario }) => {
      const fromCatalogue = fastest({ ...scenario, catalogue }, touch);
      const fromProfiles = fastest({ ...scenario, profiles: profilesFile });
      return {
        rules,
        cells: fromCatalogue.cells.length,
        files: catalogue.length,
        catalogueBytes: catalogue.reduce((sum, f) => sum + statSync(f).size, 0),
        profilesFileBytes: statSync(profilesFile).size,
        catalogueSeconds: fromCatalogue.seconds,
        profilesFileSeconds: fromProfiles.seconds,
        ratio: fromCatalogue.seconds / fromProfiles.seconds,
        sameScenarios: JSON.stringify(fromCatalogue.cells.map((c) => c.scenario)) === JSON.stringify(fromProfiles.cells.map((c) => c.scenario)),
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
