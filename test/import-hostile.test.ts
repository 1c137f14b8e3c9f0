import { mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_CATALOGUE_TOTAL_BYTES } from '../src/import/catalogue.js';
import { readCatalogueFiles, readCatalogueProfiles, readRosterProfiles } from '../src/import/read-battlescribe.js';
import { MAX_COST, MAX_ROSTER_BYTES } from '../src/import/read-roster.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 21: roster and catalogue files made to break the reader. Each is refused as any bad input is: one
 * line on stderr naming the file and what is wrong, exit 2, nothing on stdout, never a stack trace.
 */

const CATS = ['test/fixtures/rosters/pilgrim-system.gst', 'test/fixtures/rosters/ashen-pilgrims.cat', 'test/fixtures/rosters/cinder-choir.cat'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'injury-lab-hostile-'));
});

const write = (name: string, data: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
};

/** The one line a refused run prints (the temporary folder as DIR), after checking the rest of the contract. */
async function refused(...args: string[]): Promise<string> {
  const r = await cliInProcess(...args);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe('');
  return lines[0]!.replaceAll(dir, 'DIR');
}
const refusedRoster = (path: string) => refused('profiles', '--roster', path);

/** `<a>` nested `depth` deep, each level opened by `open`. */
const nested = (depth: number, open = '<a>') => `${open.repeat(depth)}${'</a>'.repeat(depth)}`;

describe('XML the parser would refuse: one line naming the file', () => {
  it('nesting up to our bound is parsed (the library allows as much), one more level is refused by our check', async () => {
    // 150 is past fast-xml-parser's default bound (100) and within ours (256): read, and found to be no roster.
    for (const depth of [150, 256]) {
      expect(await refusedRoster(write(`deep-${depth}.ros`, nested(depth)))).toBe(
        `injury-lab: roster file "DIR/deep-${depth}.ros": not a roster: no "roster" with "forces" (a NewRecruit or BattleScribe roster export is)`,
      );
    }
    expect(await refusedRoster(write('deep-257.ros', nested(257)))).toBe('injury-lab: roster file "DIR/deep-257.ros": XML nested 257 deep; a roster is at most 256 levels');
  });

  it('nesting hidden in attribute values, comments and CDATA is counted', async () => {
    // Each open tag comes with a `/>` or a `>` then `</a>` that a count of tags read from `<` to the next `>`
    // would take for a self-closed element, or for the end of one: that count stays at 0 or 1.
    const hiding = {
      'double-quoted': '<a x="/>">',
      'single-quoted': "<a x='/>'>",
      'closing tag in a value': '<a x="></a>">',
      comment: '<a><!-- > </a> -->',
      cdata: '<a><![CDATA[ > </a>]]>',
    };
    for (const [how, open] of Object.entries(hiding)) {
      const file = `hidden-${how.replaceAll(' ', '-')}.ros`;
      expect(await refusedRoster(write(file, nested(300, open)))).toBe(`injury-lab: roster file "DIR/${file}": XML nested 300 deep; a roster is at most 256 levels`);
    }
    // The same constructs in a shallow file hide nothing and cost nothing: 3 levels, read as no roster.
    expect(await refusedRoster(write('shallow.ros', nested(3, '<a x="/>"><!-- <a> --><![CDATA[<a>]]><?pi <a>?>')))).toMatch(/"DIR\/shallow.ros": not a roster: /);
  });

  it('names JavaScript reserves for objects (constructor, __proto__, prototype): refused, and nothing is polluted', async () => {
    const roster = (inner: string) => `<roster name="R"><forces><force name="F">${inner}<selections/></force></forces></roster>`;
    const reserved = {
      'element-constructor.ros': [roster('<constructor/>'), 'constructor'],
      'element-prototype.ros': [roster('<prototype>x</prototype>'), 'prototype'],
      'attribute-proto.ros': [roster('<rules><rule name="R" __proto__="x"/></rules>'), '__proto__'],
      'attribute-constructor.ros': [roster('<rules><rule constructor="x" name="R"/></rules>'), 'constructor'],
    };
    for (const [file, [xml, name]] of Object.entries(reserved)) {
      expect(await refusedRoster(write(file, xml!))).toBe(
        `injury-lab: roster file "DIR/${file}": not readable XML ([SECURITY] Invalid name: "${name}" is a reserved JavaScript keyword that could cause prototype pollution)`,
      );
    }
    // Zipped, and as a catalogue: the same line, naming the file (and its entry).
    expect(await refusedRoster(write('reserved.rosz', zipSync({ 'a.ros': strToU8(roster('<constructor/>')) })))).toBe(
      'injury-lab: roster file "DIR/reserved.rosz": its .ros: not readable XML ([SECURITY] Invalid name: "constructor" is a reserved JavaScript keyword that could cause prototype pollution)',
    );
    expect(await refused('profiles', '--catalogue', write('reserved.cat', '<catalogue name="C"><__proto__ polluted="yes"/></catalogue>'))).toBe(
      'injury-lab: catalogue file "DIR/reserved.cat": not readable XML ([SECURITY] Invalid name: "__proto__" is a reserved JavaScript keyword that could cause prototype pollution)',
    );
    // JSON.parse makes "__proto__" an own key, never the prototype, but a copy by assignment would make it one: a JSON roster holding one is refused (issue 51).
    const json = write('proto.json', '{"roster": {"name": "R", "__proto__": {"polluted": "yes"}, "forces": [{"__proto__": {"polluted": "yes"}, "selections": []}]}}');
    expect(() => readRosterProfiles(json)).toThrow(/^roster file "[^"]*proto\.json": key "__proto__" \(at roster\.__proto__\) is not allowed: it would reach an object's prototype; allowed: any key but "__proto__", "constructor", "prototype"$/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

describe('catalogue files: each read once, and not more than MAX_CATALOGUE_TOTAL_BYTES in all', () => {
  it('a file named twice, or by a link, is read once and gives the same profiles', () => {
    const link = join(dir, 'linked.cat');
    symlinkSync(join(process.cwd(), CATS[1]!), link);
    const twice = readCatalogueFiles([...CATS, CATS[1]!, `./${CATS[1]}`, link]);
    expect(twice.file).toBe(CATS.join(', '));
    expect(twice.forces.map((f) => f.name)).toEqual(readCatalogueFiles(CATS).forces.map((f) => f.name));
    const profiles = (p: ReturnType<typeof readCatalogueProfiles>) => ({ weapons: [...p.weapons], models: [...p.models] });
    expect(profiles(readCatalogueProfiles([...CATS, link, CATS[2]!]))).toEqual(profiles(readCatalogueProfiles(CATS)));
  });

  it('more than the bound is refused before any file is parsed, by the sizes on disk', async () => {
    // Nine files of 8 MiB, the most one file may hold, are 72 MiB. Sparse: nothing is written to the disk,
    // and nothing is read, since the total is refused from the files' sizes alone.
    expect(MAX_CATALOGUE_TOTAL_BYTES).toBe(64 * 1024 * 1024);
    const big = Array.from({ length: 9 }, (_, i) => {
      const path = write(`big-${i}.cat`, '');
      truncateSync(path, MAX_ROSTER_BYTES);
      return path;
    });
    expect(await refused('profiles', '--catalogue', ...big)).toBe(
      'injury-lab: catalogue: the 9 files given hold 75.5 MB in all; allowed: at most 64 MiB of catalogue files together (a file named twice is read once)',
    );
    // One of them named nine times is one file of 8 MiB: not refused for its total but for what it holds (zeros).
    expect(await refused('profiles', '--catalogue', ...big.slice(0, 1).flatMap((p) => Array(9).fill(p) as string[]))).toBe(
      'injury-lab: catalogue file "DIR/big-0.cat": not a catalogue; allowed: a BattleScribe .gst or .cat (XML), or one zipped',
    );
  });

  it('zips are counted inflated', async () => {
    // 7.5 MiB of catalogue XML zips to a few KB; nine of them inflate to 67.5 MiB, over the bound at the ninth.
    const xml = `<catalogue name="Padded">${' '.repeat(7.5 * 1024 * 1024)}</catalogue>`;
    const zipped = zipSync({ 'padded.cat': strToU8(xml) }, { level: 9 });
    expect(zipped.length).toBeLessThan(64 * 1024);
    const zips = Array.from({ length: 9 }, (_, i) => write(`padded-${i}.catz`, zipped));
    const bytes = xml.length * 9;
    expect(bytes).toBeGreaterThan(MAX_CATALOGUE_TOTAL_BYTES);
    expect(await refused('profiles', '--catalogue', ...zips)).toBe(
      `injury-lab: catalogue: the 9 files given hold at least ${(bytes / 1e6).toFixed(1)} MB in all; allowed: at most 64 MiB of catalogue files together (a file named twice is read once)`,
    );
  });
});

describe('roster costs: never a blank read as 0, never a total past what a number holds', () => {
  const model = (name: string, armour: string, value: unknown) => ({
    name,
    type: 'model',
    number: 1,
    profiles: [{ name, typeName: 'Unit', characteristics: [{ name: 'Armour', $text: armour }] }],
    costs: [{ name: 'Ducats', value }],
  });
  const jsonRoster = (file: string, ...selections: unknown[]) => write(file, JSON.stringify({ roster: { name: 'R', costs: [{ name: 'Ducats', value: 0 }], forces: [{ selections }] } }));
  const xmlRoster = (file: string, value: string) =>
    write(
      file,
      `<roster name="R"><forces><force name="F"><selections><selection name="Trooper" type="model" number="1"><profiles><profile name="Trooper" typeName="Unit"><characteristics><characteristic name="Armour">-1</characteristic></characteristics></profile></profiles><costs><cost name="Ducats" value="${value}"/></costs></selection></selections></force></forces></roster>`,
    );

  it('a blank cost (or null) is refused naming the selection and the value', async () => {
    for (const [file, value, shown] of [
      ['empty.json', '', '""'],
      ['blank.json', ' ', '" "'],
      ['null.json', null, 'null'],
    ] as const) {
      expect(await refusedRoster(jsonRoster(file, model('Trooper', '-1', value)))).toBe(
        `injury-lab: roster file "DIR/${file}": selection "Trooper": its Ducats cost ${shown} is not allowed; allowed: a number (negative only as an offset of the roster's total)`,
      );
    }
    // The XML reader trims attribute values: a blank one is shown empty.
    for (const [file, value] of [
      ['empty.ros', ''],
      ['blank.ros', ' '],
    ]) {
      expect(await refusedRoster(xmlRoster(file!, value!))).toBe(`injury-lab: roster file "DIR/${file}": selection "Trooper": its Ducats cost "" is not allowed; allowed: a number (negative only as an offset of the roster's total)`);
    }
  });

  it('a cost above MAX_COST is refused, so no total is Infinity; MAX_COST itself, and "15.0", are read', async () => {
    expect(MAX_COST).toBe(1e9);
    // Two of 1e308 would sum to Infinity, which JSON prints as null.
    expect(await refusedRoster(jsonRoster('huge.json', model('Trooper', '-1', 1e308), model('Brute', '-2', 1e308)))).toBe(
      'injury-lab: roster file "DIR/huge.json": selection "Trooper": its Ducats cost 1e+308 is more than any price; allowed: a number from -1000000000 to 1000000000',
    );
    expect(await refusedRoster(xmlRoster('huge.ros', '1e308'))).toBe(
      'injury-lab: roster file "DIR/huge.ros": selection "Trooper": its Ducats cost "1e308" is more than any price; allowed: a number from -1000000000 to 1000000000',
    );
    const p = readRosterProfiles(jsonRoster('most.json', model('Trooper', '-1', MAX_COST), model('Brute', '-2', '15.0')));
    expect([...p.models.values()].map((m) => [m.name, m.cost])).toEqual([
      ['Trooper', 1e9],
      ['Brute', 15],
    ]);
  });
});

describe('names made unique never take a real name', () => {
  it('a second kind of "Trooper" beside a real "Trooper (2)" is "Trooper (3)": no profile is lost', () => {
    const model = (name: string, armour: string) => ({ name, type: 'model', number: 1, profiles: [{ name, typeName: 'Unit', characteristics: [{ name: 'Armour', $text: armour }] }], costs: [] });
    const file = write('names.json', JSON.stringify({ roster: { name: 'R', forces: [{ selections: [model('Trooper', '-1'), model('Trooper', '-2'), model('Trooper (2)', '-3'), model('Trooper', '0')] }] } }));
    const p = readRosterProfiles(file);
    expect([...p.models.values()].map((m) => [m.name, m.fields.armour])).toEqual([
      ['Trooper', 'standard'],
      ['Trooper (3)', 'reinforced'],
      ['Trooper (2)', 'machine'],
      ['Trooper (4)', 'none'],
    ]);
  });
});

describe('keywords with a comma missing', () => {
  it('a token of thousands of known words is prose, listed and stopping, never split word by word', () => {
    const weapon = (keywords: string) => ({ name: 'Hammer', type: 'upgrade', number: 1, profiles: [{ name: 'Hammer', typeName: 'Weapon', characteristics: [{ name: 'Range', $text: 'Melee' }, { name: 'Keywords', $text: keywords }] }], costs: [] });
    const roster = (keywords: string) => write('run-together.json', JSON.stringify({ roster: { name: 'R', forces: [{ selections: [weapon(keywords)] }] } }));
    // Two keywords with the comma missing: split.
    expect(readRosterProfiles(roster('HEAVY CRITICAL')).weapons.get('Hammer')!.keywords).toEqual(['HEAVY', 'CRITICAL']);
    // 3,000 of them in one token: no keyword, one item that stops.
    const hammer = readRosterProfiles(roster(Array(3000).fill('HEAVY').join(' '))).weapons.get('Hammer')!;
    expect(hammer.keywords).toEqual([]);
    expect(hammer.unmodelled!.filter((u) => u.stops)).toHaveLength(1);
  });
});
