import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { checkPriceSettings, priceSettingsJsonSchema } from '../src/pricing/price-settings.js';
import { schemaValidator } from '../src/model/ajv.js';

/**
 * `injury-lab price --roster FILE` and `--catalogue FILE...` (issue 40): the field read straight from a
 * roster or catalogue files, as `profiles --roster/--catalogue ... --format json` exports it and
 * `price --profiles` reads it back. Both ways are the same duels, so the same fractions, pair for pair:
 * what the straight way adds is that nothing is exported by hand, and that it stops, naming the entry,
 * where the export (given --allow-unmodelled) would have said nothing.
 *
 * The runs are in this process (`cliInProcess`: the same src/cli/main.ts, the same output and exit code);
 * one refusal runs end to end in a CLI process of its own.
 */
const ROSTER = 'test/fixtures/rosters/ashen-pilgrims.ros';
const CATALOGUE = ['test/fixtures/rosters/pilgrim-system.gst', 'test/fixtures/rosters/bell-wardens.cat'];
const dir = mkdtempSync(join(tmpdir(), 'price-sources-'));

interface PriceJson {
  field: string;
  leftOut: { name: string; note: string }[];
  duels: { pairs: { a: string; b: string; share: { exact: string }; aFirst: unknown; bFirst: unknown }[] };
  entries: { name: string; price?: number }[];
}

async function priced(...args: string[]): Promise<PriceJson> {
  const r = await cliInProcess('price', ...args, '--format', 'json');
  expect(r.stderr.split('\n').filter((l) => l !== '' && !l.includes('warning:'))).toEqual([]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as PriceJson;
}

/** The export of `profiles` (given --allow-unmodelled), written where `price --profiles` reads it. */
async function exported(name: string, ...source: string[]): Promise<string> {
  const r = await cliInProcess('profiles', ...source, '--allow-unmodelled', '--format', 'json');
  expect(r.code).toBe(0);
  const file = join(dir, name);
  writeFileSync(file, r.stdout);
  return file;
}

/** What a price's duels are, without the words that name where the field came from. */
const duelsOf = (p: PriceJson) => ({ pairs: p.duels.pairs, prices: p.entries.map((e) => [e.name, e.price]).sort() });

describe('price reads its field straight from a roster or catalogue', () => {
  it('--roster gives the duels of its export, pair for pair, and says where the field came from', async () => {
    const straight = await priced('--roster', ROSTER, '--allow-unmodelled');
    const viaExport = await priced('--profiles', await exported('roster.json', '--roster', ROSTER));
    expect(straight.duels.pairs.length).toBeGreaterThan(0);
    expect(duelsOf(straight)).toEqual(duelsOf(viaExport));
    expect(straight.field).toBe(`every model with every melee weapon of the roster ${ROSTER}`);
  });

  it("a roster's entries are its models as they stand: each with the melee weapons it holds, at its own price, kit and all", async () => {
    // test/fixtures/rosters/ashen-pilgrims.ros: the Acolyte (24 ducats with its Censer Flail) holds no
    // Thornpike; paired with one it would be priced at a cost that bought other kit. Ash Acolyte (2)
    // holds only a pistol: no melee entry. The prices are the roster's (`profiles --roster` lists them).
    const straight = await priced('--roster', ROSTER, '--allow-unmodelled');
    expect(straight.entries.map((e) => [e.name, e.price]).sort()).toEqual([
      ['Ash Acolyte with Censer Flail', 24],
      ['Bell Golem with Bell Hammer', 95],
      ['Lantern Warden with Thornpike', 122],
      ['Thorn Sentinel with Thornpike', 62],
    ]);
  });

  it('--catalogue gives the duels of its export, each model with its loadout', async () => {
    const straight = await priced('--catalogue', ...CATALOGUE, '--allow-unmodelled');
    const viaExport = await priced('--profiles', await exported('catalogue.json', '--catalogue', ...CATALOGUE));
    expect(straight.duels.pairs.length).toBeGreaterThan(0);
    expect(duelsOf(straight)).toEqual(duelsOf(viaExport));
    expect(straight.field).toBe(`every model with every melee weapon of the catalogue files ${CATALOGUE.join(', ')}`);
  });

  it('what the roster holds that nothing models stops the run, naming the entry and the way out, before any duel', async () => {
    const r = await cliInProcess('price', '--roster', ROSTER);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^injury-lab: entry "Bell Golem with Bell Hammer": a\.weapon: "Bell Golem with Bell Hammer": its keyword "Quake 2\\"" is not modelled .*give --allow-unmodelled/);
  });

  it('given --allow-unmodelled, what was left out of the duels is listed with the verdicts, by the profile it belongs to', async () => {
    const straight = await priced('--roster', ROSTER, '--allow-unmodelled');
    const hammer = straight.leftOut.find((l) => l.name === 'Bell Golem with Bell Hammer');
    expect(hammer?.note).toBe('not modelled: "Quake 2\\"" (keywords: not a keyword of the rule table)');
    // Only profiles some entry uses: the roster's ranged weapons fight no melee duel.
    const used = new Set(straight.entries.flatMap((e) => e.name.split(' with ')));
    for (const { name } of straight.leftOut) expect(used.has(name) || straight.entries.some((e) => e.name === name)).toBe(true);
  });

  it('refuses in one line: no field, two fields, a field flag given twice', async () => {
    const refused = async (start: typeof cli | typeof cliInProcess, ...args: string[]): Promise<string> => {
      const r = await start('price', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      return r.stderr;
    };
    // End to end in a CLI process once; the others differ only in the words.
    expect(await refused(cli)).toContain('price: no field named; give one of --profiles FILE, --roster FILE or --catalogue FILE...');
    await refused(cliInProcess, '--profiles', 'examples/profiles.json', '--roster', ROSTER);
    await refused(cliInProcess, '--roster', ROSTER, '--roster', ROSTER);
    expect((await cliInProcess('price', '--profiles', 'examples/profiles.json', '--catalogue', ...CATALOGUE)).stderr).toContain('--profiles, --catalogue: more than one field named');
  });
});

describe("a report's price settings name their field the same ways", () => {
  const at = (name: string) => `price.${name}`;
  it('takes exactly one of profiles, roster and catalogue', () => {
    expect(checkPriceSettings({ roster: 'r.ros' }, at).roster).toBe('r.ros');
    expect(checkPriceSettings({ catalogue: ['s.gst', 'f.cat'], allowUnmodelled: true }, at)).toMatchObject({ catalogue: ['s.gst', 'f.cat'], allowUnmodelled: true });
    expect(() => checkPriceSettings({}, at)).toThrow('price: no field named; give one of price.profiles FILE, price.roster FILE or price.catalogue FILE...');
    expect(() => checkPriceSettings({ profiles: 'p.json', roster: 'r.ros' }, at)).toThrow('price.profiles, price.roster: more than one field named');
    expect(() => checkPriceSettings({ roster: 'r.ros', allowUnmodelled: 'yes' }, at)).toThrow('price.allowUnmodelled: "yes" is not allowed; allowed: true or false');
    expect(() => checkPriceSettings({ catalogue: [] }, at)).toThrow('price.catalogue');
  });

  it('its JSON Schema says the same: profiles alone, or roster and catalogue, one or both', () => {
    const schema = priceSettingsJsonSchema() as { properties: Record<string, { type: string }> };
    const valid = schemaValidator().compile(schema);
    const [profiles, roster, catalogue] = [{ profiles: 'p.json' }, { roster: 'r.ros' }, { catalogue: ['a.gst'] }];
    for (const settings of [profiles, roster, catalogue, { ...roster, ...catalogue }]) expect([settings, valid(settings)]).toEqual([settings, true]);
    for (const settings of [{}, { ...profiles, ...roster }, { ...profiles, ...catalogue }, { ...profiles, ...roster, ...catalogue }]) expect([settings, valid(settings)]).toEqual([settings, false]);
    expect(schema.properties.catalogue!.type).toBe('array');
    expect(schema.properties.allowUnmodelled!.type).toBe('boolean');
  });
});
