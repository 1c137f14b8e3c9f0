import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/cli-in-process.js';
import { checkPriceSettings } from '../src/pricing/price-settings.js';
import { sweepDimensions } from '../src/analysis/sweep.js';

/**
 * Issue 48: my warband against theirs. --roster and --catalogue together read as one file: the roster's
 * names and the catalogue's. The fixtures are invented (test/fixtures/rosters/): the roster and the
 * catalogue both hold a Thornpike and an Ember Carbine, with different profiles (the roster's Thornpike
 * has +1 injury dice, the catalogue's none), which is the case the ruling is for: the roster's keeps its
 * name, the catalogue's is "NAME (catalogue)", and a warning says so. Never one silently for the other.
 */

const ROSTER = 'test/fixtures/rosters/ashen-pilgrims.ros';
const CATALOGUE = ['test/fixtures/rosters/pilgrim-system.gst', 'test/fixtures/rosters/bell-wardens.cat'];
const BOTH = ['--roster', ROSTER, '--catalogue', ...CATALOGUE];
const RENAMED_NOTE =
  'injury-lab: warning: the roster "test/fixtures/rosters/ashen-pilgrims.ros" and the catalogue files "test/fixtures/rosters/pilgrim-system.gst, test/fixtures/rosters/bell-wardens.cat" both name 2 profiles: the roster\'s keeps its name, the catalogue\'s weapon "Ember Carbine" is named "Ember Carbine (catalogue)", weapon "Thornpike" is named "Thornpike (catalogue)"\n';

interface ExactJson {
  scenario: Record<string, unknown>;
  outcomes: unknown[];
}

/** An exact attack's answer, without the labels that say where its profiles came from: its fields and its outcomes. */
async function answer(args: readonly string[], stderr = ''): Promise<ExactJson> {
  const r = await cliInProcess('exact', '--kind', 'attack', ...args, '--format', 'json');
  expect([r.code, r.stderr]).toEqual([0, stderr]);
  const { scenario, outcomes } = JSON.parse(r.stdout) as ExactJson;
  const { weapon: _w, target: _t, weaponKeywords: _wk, targetKeywords: _tk, ...fields } = scenario;
  return { scenario: fields, outcomes };
}

async function refusedInOneLine(args: readonly string[], message: string): Promise<void> {
  const r = await cliInProcess(...args);
  expect([r.code, r.stdout]).toEqual([2, '']);
  // The warning that names what was renamed may come first; the refusal is one line.
  const lines = r.stderr.trim().split('\n').filter((line) => !line.startsWith('injury-lab: warning: '));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(message);
}

describe('a roster with catalogues: one set of names', () => {
  it("a roster model against a catalogue weapon answers as each file alone does, the other side's profile given as flags", async () => {
    const together = await answer([...BOTH, '--weapon', 'Censer Maul', '--target', 'Lantern Warden'], RENAMED_NOTE);
    // Censer Maul (bell-wardens.cat): a melee weapon with nothing else.
    expect(together).toEqual(await answer(['--roster', ROSTER, '--target', 'Lantern Warden', '--attack-type', 'melee']));
    // Lantern Warden (the roster): reinforced armour, TOUGH, FEAR, STANDFAST.
    expect(together).toEqual(await answer(['--catalogue', ...CATALOGUE, '--weapon', 'Censer Maul', '--armour', 'reinforced', '--target-keywords', 'TOUGH, FEAR, STANDFAST']));
  });

  it('a name both hold: the roster\'s keeps it, the catalogue\'s is "NAME (catalogue)", and a warning says so', async () => {
    const rosters = await answer([...BOTH, '--weapon', 'Thornpike', '--target', 'Grave Knight'], RENAMED_NOTE);
    const catalogues = await answer([...BOTH, '--weapon', 'Thornpike (catalogue)', '--target', 'Grave Knight'], RENAMED_NOTE);
    // Grave Knight (bell-wardens.cat): reinforced armour, TOUGH.
    expect(rosters).toEqual(await answer(['--roster', ROSTER, '--weapon', 'Thornpike', '--armour', 'reinforced', '--target-keywords', 'TOUGH']));
    expect(catalogues).toEqual(await answer(['--catalogue', ...CATALOGUE, '--weapon', 'Thornpike', '--target', 'Grave Knight']));
    // The two Thornpikes differ (the roster's has +1 injury dice): taking one for the other would be a wrong answer.
    expect(rosters.outcomes).not.toEqual(catalogues.outcomes);
  });

  it('a sweep varies names of both, each labelled with its cost', async () => {
    const r = await cliInProcess('sweep', '--kind', 'attack', ...BOTH, '--target', 'Bell Ringer', '--vary', 'weapon=Thornpike,Thornpike (catalogue),Censer Maul', '--format', 'json');
    expect([r.code, r.stderr]).toEqual([0, RENAMED_NOTE]);
    expect((JSON.parse(r.stdout) as { cells: { labels: string[] }[] }).cells.map((c) => c.labels)).toEqual([['Thornpike (12)'], ['Thornpike (catalogue) (12)'], ['Censer Maul (5)']]);
  });

  it('a report scenario names "roster" and "catalogue" together', () => {
    const [weapons] = sweepDimensions({ kind: 'attack', roster: ROSTER, catalogue: CATALOGUE, target: 'Bell Ringer' }, ['weapon=Ember Carbine,Ember Carbine (catalogue)']);
    expect(weapons!.values.map((v) => [v.label, v.cost])).toEqual([
      ['Ember Carbine (20)', 20],
      ['Ember Carbine (catalogue) (0)', 0],
    ]);
  });

  it('a name neither holds is refused in one line naming both files', async () => {
    await refusedInOneLine(['exact', '--kind', 'attack', ...BOTH, '--weapon', 'Thornpik'], 'weapon: "Thornpik" is not a weapon of roster "test/fixtures/rosters/ashen-pilgrims.ros" with catalogue files "test/fixtures/rosters/pilgrim-system.gst, test/fixtures/rosters/bell-wardens.cat" (did you mean "Thornpike"?)');
  });

  it('a profiles file with either is refused in one line, exit 2', async () => {
    await refusedInOneLine(['exact', '--kind', 'attack', '--profiles', 'examples/profiles.json', ...BOTH], 'profiles and roster and catalogue: give profiles alone, not with roster or catalogue; allowed: profiles, or roster and catalogue (one or both)');
    await refusedInOneLine(['exact', '--kind', 'attack', '--profiles', 'examples/profiles.json', '--catalogue', ...CATALOGUE], 'profiles and catalogue: give profiles alone, not with catalogue');
  });

  it('a renaming that would give a name either file holds is refused in one line', async () => {
    const weapon = (name: string) =>
      `<selection name="${name}" number="1" type="upgrade"><profiles><profile name="${name}" typeName="Weapon" hidden="false"><characteristics><characteristic name="Range">Melee</characteristic><characteristic name="Keywords">-</characteristic></characteristics></profile></profiles><costs><cost name="Ducats" value="5"/></costs></selection>`;
    const path = join(mkdtempSync(join(tmpdir(), 'injury-lab-warband-')), 'clash.ros');
    writeFileSync(
      path,
      `<?xml version="1.0" encoding="UTF-8"?><roster name="Invented" gameSystemName="Trench Crusade" xmlns="http://www.battlescribe.net/schema/rosterSchema"><costs><cost name="Ducats" value="0"/></costs><forces><force name="Warband"><selections><selection name="Yeoman" number="1" type="model"><profiles><profile name="Yeoman" typeName="Unit" hidden="false"><characteristics><characteristic name="Ranged">+0 Dice</characteristic><characteristic name="Melee">+0 Dice</characteristic><characteristic name="Armour">0</characteristic></characteristics></profile></profiles><selections>${weapon('Censer Maul')}${weapon('Censer Maul (catalogue)')}</selections><costs><cost name="Ducats" value="30"/></costs></selection></selections></force></forces></roster>`,
    );
    await refusedInOneLine(
      ['exact', '--kind', 'attack', '--roster', path, '--catalogue', ...CATALOGUE, '--target', 'Yeoman'],
      'roster and catalogue: both hold weapon "Censer Maul", and the catalogue\'s would be named "Censer Maul (catalogue)", which is already a name of one of them',
    );
  });
});

interface PriceJson {
  entries: { name: string; price?: number }[];
}

async function priced(...args: string[]): Promise<PriceJson['entries']> {
  // The Bell Golem's hammer holds a keyword nothing models: left out, the same way alone and together.
  const r = await cliInProcess('price', ...args, '--allow-unmodelled', '--prior', '1', '--format', 'json');
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as PriceJson).entries.map(({ name, price }) => ({ name, ...(price !== undefined ? { price } : {}) }));
}

const byName = (entries: readonly { name: string }[]) => [...entries].sort((a, b) => a.name.localeCompare(b.name));

describe("price's field: a roster's models as they stand, and a catalogue's with their loadouts", () => {
  it('is both fields, each entry at the price it has alone (the catalogue\'s renamed where the roster holds the name)', async () => {
    const rosters = await priced('--roster', ROSTER);
    const catalogues = (await priced('--catalogue', ...CATALOGUE)).map((e) => ({ ...e, name: e.name.replace(/ with (Thornpike|Ember Carbine)$/, ' with $1 (catalogue)') }));
    expect(byName(await priced(...BOTH))).toEqual(byName([...rosters, ...catalogues]));
  });

  it('takes roster and catalogue together, a profiles file alone', () => {
    const at = (name: string) => `price.${name}`;
    expect(checkPriceSettings({ roster: 'r.ros', catalogue: ['a.gst', 'b.cat'] }, at)).toMatchObject({ roster: 'r.ros', catalogue: ['a.gst', 'b.cat'] });
    expect(() => checkPriceSettings({ profiles: 'p.json', roster: 'r.ros', catalogue: ['a.gst'] }, at)).toThrow('price.profiles, price.roster, price.catalogue: more than one field named');
  });

  it('a profiles file with a roster is refused in one line, exit 2', async () => {
    await refusedInOneLine(['price', '--profiles', 'examples/profiles.json', '--roster', ROSTER], '--profiles, --roster: more than one field named; give one of --profiles FILE, --roster FILE or --catalogue FILE... (--roster and --catalogue may go together)');
  });
});
