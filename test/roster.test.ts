import { readInches } from '../src/import/entry-characteristics.js';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { readCatalogueProfiles, readRosterFile, readRosterProfiles } from '../src/import/read-battlescribe.js';
import { rosterProfiles } from '../src/import/roster.js';
import { normaliseToken, readToken, splitKeywords } from '../src/import/weapon-keywords.js';
import { editionTable } from '../src/model/edition-table.js';
import { type Profiles } from '../src/model/profiles.js';
import { parseProfiles } from '../src/input/profiles-file.js';
import { namedFiles, parseScenario, readScenarioFile, rulesRelativeTo } from '../src/input/scenario.js';
import { findSystem } from '../src/rules/registry.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { refusal } from './helpers/refusal.js';

/**
 * Rosters exported from NewRecruit read as profiles (docs/import.md). The fixture is a warband of our
 * own, "Ashen Pilgrims", invented for these tests: test/fixtures/rosters/ashen-pilgrims.ros (the
 * BattleScribe XML) and .json (the same tree as NewRecruit's JSON export); the .rosz is zipped here.
 */

const ROS = 'test/fixtures/rosters/ashen-pilgrims.ros';
const JSON_ROSTER = 'test/fixtures/rosters/ashen-pilgrims.json';
const tc = findSystem('trench-crusade')!;
const coreTable = editionTable(tc, 'core');

let dir: string;
let ROSZ: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'injury-lab-roster-'));
  ROSZ = join(dir, 'ashen-pilgrims.rosz');
  writeFileSync(ROSZ, zipSync({ 'ashen-pilgrims.ros': readFileSync(ROS) }));
});
afterAll(() => {
  // The temporary folder is the system's; nothing of the repository is left behind.
});


/** A profiles object without its file name, for comparing what two files hold. */
const content = (p: Profiles) => ({ weapons: [...p.weapons], models: [...p.models], unmodelled: p.unmodelled });

describe('reading a roster', () => {
  it('maps models, weapons, costs and keywords, and lists the rest as not modelled', () => {
    const p = readRosterProfiles(ROS);
    const warden = p.models.get('Lantern Warden')!;
    // Armour -2 is reinforced (no shield among its items); TOUGH and FEAR from a category and a rule
    // link, STANDFAST from its armour item's keywords. Cost: 70 + 12 + 15 + 5 + 20, over its subtree.
    expect(warden.fields).toEqual({ armour: 'reinforced' });
    expect(warden.keywords).toEqual(['TOUGH', 'FEAR', 'STANDFAST']);
    expect(warden.cost).toBe(122);
    // Its Glory Points are kept beside its Ducats, not listed as not modelled.
    expect(warden.otherCosts).toEqual({ 'Glory Points': 1 });
    expect(warden.unmodelled!.map((u) => [u.text, u.from, u.stops])).toEqual([
      ['Wick of Dread', 'ability', false],
      ['Elite', 'category', false],
      ['Cinder-Proof', 'keywords of Pilgrim Plate', false],
    ]);
    // Armour -2 with a shield item (Type "Shield") is standard armour and the shield. The items' own
    // "-N INJURY MODIFIER" is in the Armour characteristic already: not added again.
    expect(warden.fields).not.toHaveProperty('targetInjuryModifier');
    expect(p.models.get('Thorn Sentinel')!.fields).toEqual({ armour: 'standard', shield: true });
    // Two selections named Ash Acolyte that differ: the second is "(2)". The first is two models: 48 / 2.
    expect([...p.models.keys()]).toEqual(['Lantern Warden', 'Thorn Sentinel', 'Ash Acolyte', 'Ash Acolyte (2)', 'Bell Golem']);
    expect(p.models.get('Ash Acolyte')!.cost).toBe(24);
    // An ability named "-1 Injury Dice" gives injury rolls against the model -1 dice; the hidden profile is not read.
    const golem = p.models.get('Bell Golem')!;
    // Its Movement 5"/Infantry is read for battles (6", the field's default, is written by no model).
    expect(golem.fields).toEqual({ targetInjuryDice: -1, armour: 'machine', movement: 5 });
    expect(golem.unmodelled!.map((u) => u.text)).not.toContain('Secret Toll');
    // NEGATE GAS is a keyword once the rule table has it: mapped, or listed as not modelled, never dropped.
    const negates = 'NEGATE GAS' in (coreTable.keywords as object);
    expect(golem.keywords.includes('NEGATE GAS')).toBe(negates);
    expect(golem.unmodelled!.some((u) => u.text === 'Negate Gas')).toBe(!negates);

    expect(p.weapons.get('Thornpike')).toMatchObject({ fields: { attackType: 'melee', injuryDice: 1 }, keywords: ['IGNORE ARMOUR', 'CUMBERSOME'], cost: 12 });
    // Its Cinder Rounds (an item selected under it) give it FIRE, and their cost.
    expect(p.weapons.get('Ember Carbine')).toMatchObject({ fields: { attackType: 'ranged', attackDice: 1 }, keywords: ['ARMOUR PIERCING 1', 'HEAVY', 'FIRE'], cost: 20 });
    expect(p.weapons.get('Censer Flail')).toMatchObject({ fields: { attackType: 'melee', attackDice: -1 }, keywords: ['CRITICAL'], cost: 4 });
    // A distance and Melee: ranged (--attack-type melee picks the other use), its 8" read for battles, and a battle's melee use (ruling B47).
    expect(p.weapons.get('Scrap Pistol')!.fields).toEqual({ attackType: 'ranged', rangeInches: 8, usableInMelee: true });
    expect(p.weapons.get('Bell Hammer')!.unmodelled).toEqual([{ text: 'Quake 2"', from: 'keywords', why: 'not a keyword of the rule table', stops: true }]);
    expect(p.unmodelled).toEqual([
      { text: 'Pilgrim Banner', from: 'selection', why: 'neither a model nor a weapon; it carries Banner of Ash', stops: false, leftOut: 'selection' },
      { text: 'Pilgrim Vows', from: 'rule of Ashen Pilgrims', why: 'a warband rule', stops: false, leftOut: 'warband-rule' },
    ]);
  });

  it('every token of every keywords string is mapped or listed: nothing is dropped', () => {
    const p = readRosterProfiles(ROS);
    const xml = readFileSync(ROS, 'utf8');
    const strings = [...xml.matchAll(/<characteristic name="Keywords"[^>]*>([^<]*)</g)].map((m) => m[1]!);
    for (const token of strings.flatMap(splitKeywords)) {
      // A weapon's keywords are read as a weapon's, an item's (STANDFAST) as its model's.
      const held = [...p.weapons.values(), ...p.models.values()].some((x) => {
        const t = readToken(token, coreTable, tc, x.role);
        // An item's injury modifier is in its model's Armour characteristic (docs/import.md).
        const inArmour = t.kind === 'modifier' && t.armourModifier && x.role === 'model' && 'armour' in x.fields;
        return x.unmodelled?.some((u) => u.text === token) || (t.kind === 'keyword' && x.keywords.includes(t.keyword)) || (t.kind === 'modifier' && t.field in x.fields) || inArmour;
      });
      expect(held, token).toBe(true);
    }
  });

  it('the .ros, the .rosz and the NewRecruit JSON give the same profiles', () => {
    const ros = readRosterProfiles(ROS);
    expect(content(readRosterProfiles(ROSZ))).toEqual(content(ros));
    expect(content(readRosterProfiles(JSON_ROSTER))).toEqual(content(ros));
  });

  it('reads the inches of a Movement or Range characteristic wherever they stand', () => {
    // The real catalogue's forms: a model's move and mode, a range, a pistol's, the Halberd-Gun's "Melee/24\"".
    expect(['6"/Infantry', '24"', '12"/Melee', 'Melee/24"', '10&quot;', '8 inches', '36', 'Melee', '-', ''].map((v) => readInches(v.replace('&quot;', '"')))).toEqual([6, 24, 12, 24, 10, 8, 36, undefined, undefined, undefined]);
  });

  it('reads keyword tokens in their written variants', () => {
    const read = (t: string, role: 'weapon' | 'model' = 'weapon') => readToken(t, coreTable, tc, role);
    expect(read('IGNORES ARMOUR')).toMatchObject({ kind: 'keyword', keyword: 'IGNORE ARMOUR' });
    expect(read('ignore-armour')).toMatchObject({ kind: 'keyword', keyword: 'IGNORE ARMOUR' });
    expect(read('Armour-Piercing 2')).toMatchObject({ kind: 'keyword', keyword: 'ARMOUR PIERCING 2' });
    expect(read('armour piercing (2)')).toMatchObject({ kind: 'keyword', keyword: 'ARMOUR PIERCING 2' });
    // Bare, it is 1: the game system file's own Armour Piercing rule reduces the modifier "by 1".
    expect(read('ARMOUR PIERCING')).toMatchObject({ kind: 'keyword', keyword: 'ARMOUR PIERCING 1' });
    expect(read('AUTOMATIC')).toMatchObject({ kind: 'unknown', why: 'AUTOMATIC needs its number' });
    expect(read('+2 Injury Modifiers')).toMatchObject({ kind: 'modifier', field: 'injuryModifier', value: 2 });
    expect(read('-1 INJURY DICE')).toMatchObject({ kind: 'modifier', field: 'injuryDice', value: -1 });
    expect(read('-1 INJURY DICE', 'model')).toMatchObject({ kind: 'modifier', field: 'targetInjuryDice', value: -1 });
    expect(read('+1 DICE')).toMatchObject({ kind: 'modifier', field: 'attackDice', value: 1 });
    expect(read('+1 to hit')).toMatchObject({ kind: 'modifier', field: 'attackModifier', value: 1 });
    expect(read('+1 DICE', 'model')).toMatchObject({ kind: 'unknown' });
    // A model keyword on a weapon is not the weapon's.
    expect(read('TOUGH')).toMatchObject({ kind: 'unknown', why: 'TOUGH gives tough, not a weapon field' });
    expect(splitKeywords('HEAVY, +1 DICE; RISKY\n-')).toEqual(['HEAVY', '+1 DICE', 'RISKY']);
    expect(normaliseToken(' armour-piercing   1 ')).toBe('ARMOUR PIERCING 1');
  });

  it('reads keywords by the scenario\'s rule table: a variant\'s own keyword is known', () => {
    const tree = readRosterFile(ROS);
    // A made-up keyword and meaning, only to show that the table decides: QUAKE N as armour piercing N.
    const table = { ...coreTable, keywords: { ...(coreTable.keywords as object), QUAKE: { armourPiercing: 'N' } } };
    const p = rosterProfiles(tree, table);
    expect(p.weapons.get('Bell Hammer')!.unmodelled).toBeUndefined();
    expect(p.weapons.get('Bell Hammer')!.keywords).toEqual(['DEADLY', 'QUAKE 2']);
  });
});

describe('using a roster', () => {
  const exactJson = async (...args: string[]) => {
    const r = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', ...args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { scenario: unknown; outcomes: unknown; manifest: unknown };
    return { scenario: doc.scenario, outcomes: doc.outcomes };
  };

  it('gives the answers of the same profiles written by hand', async () => {
    const hand = join(dir, 'hand.json');
    writeFileSync(
      hand,
      JSON.stringify({
        models: {
          'Lantern Warden': { armour: 'reinforced', keywords: ['TOUGH', 'FEAR', 'STANDFAST'] },
          'Thorn Sentinel': { armour: 'standard', shield: true },
          // NEGATE GAS once the rule table has it (the roster's category is mapped then).
          'Bell Golem': { armour: 'machine', targetInjuryDice: -1, movement: 5, keywords: ['GOLEM', ...('NEGATE GAS' in (coreTable.keywords as object) ? ['NEGATE GAS'] : [])] },
        },
        weapons: {
          Thornpike: { attackType: 'melee', injuryDice: 1, keywords: ['IGNORE ARMOUR', 'CUMBERSOME'] },
          'Ember Carbine': { attackType: 'ranged', attackDice: 1, keywords: ['ARMOUR PIERCING 1', 'HEAVY', 'FIRE'] },
          'Lantern Warden with Thornpike': { attackType: 'melee', injuryDice: 1, attackDice: 2, keywords: ['IGNORE ARMOUR', 'CUMBERSOME'] },
        },
      }),
    );
    for (const target of ['Lantern Warden', 'Thorn Sentinel', 'Bell Golem']) {
      for (const weapon of ['Thornpike', 'Ember Carbine']) {
        const roster = await exactJson('--roster', ROS, '--weapon', weapon, '--target', target);
        expect(roster, `${weapon} against ${target}`).toEqual(await exactJson('--profiles', hand, '--weapon', weapon, '--target', target));
      }
      // The warden carries FEAR: as the attacker, it is not hindered by a FEAR target.
      const carried = await exactJson('--roster', ROS, '--weapon', 'Lantern Warden with Thornpike', '--target', target);
      expect(carried).toEqual(await exactJson('--profiles', hand, '--weapon', 'Lantern Warden with Thornpike', '--target', target, '--attacker-fear'));
    }
  });

  it('"MODEL with WEAPON" adds the model\'s dice for the attack type the scenario ends with', () => {
    const at = (weapon: string, extra: Record<string, unknown> = {}) => parseScenario({ kind: 'attack', roster: ROS, weapon, ...extra }) as Record<string, unknown>;
    expect(at('Lantern Warden with Ember Carbine')).toMatchObject({ attackDice: 2, attackType: 'ranged', attackerFear: true });
    expect(at('Ash Acolyte (2) with Scrap Pistol')).toMatchObject({ attackDice: -1, attackType: 'ranged' });
    // The pistol in melee: the acolyte's Melee dice (0), not its Ranged (-1).
    expect(at('Ash Acolyte (2) with Scrap Pistol', { attackType: 'melee' })).toMatchObject({ attackDice: 0, attackType: 'melee' });
    expect(at('Scrap Pistol', { attackType: 'melee' })).toMatchObject({ attackType: 'melee' });
    // An explicit field wins over the profile's.
    expect(at('Lantern Warden with Thornpike', { attackDice: 0 })).toMatchObject({ attackDice: 0 });
    const outcomes = (s: Record<string, unknown>) => evaluateExact(s as never).outcomes;
    expect(outcomes(at('Lantern Warden with Thornpike', { target: 'Bell Golem' }))).toEqual(
      outcomes(at('Thornpike', { target: 'Bell Golem', attackDice: 2, attackerFear: true })),
    );
  });

  it('an unknown token of a weapon\'s keywords stops a command using it, unless --allow-unmodelled', async () => {
    const args = ['exact', '--kind', 'attack', '--roster', ROS, '--weapon', 'Bell Hammer', '--target', 'Thorn Sentinel'];
    const stopped = await cliInProcess(...args);
    expect(stopped.code).toBe(2);
    expect(stopped.stdout).toBe('');
    expect(stopped.stderr).toBe(
      'injury-lab: weapon: "Bell Hammer": its keyword "Quake 2\\"" is not modelled (not a keyword of the rule table); give --allow-unmodelled to leave it out, or edit the roster\n',
    );
    const allowed = await cliInProcess(...args, '--allow-unmodelled', '--format', 'json');
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toBe('injury-lab: warning: weapon "Bell Hammer": left out, not modelled: "Quake 2\\""\n');
    // The JSON says what was left out, with the scenario it answers.
    expect(JSON.parse(allowed.stdout).scenario).toMatchObject({ deadly: true, weapon: 'Bell Hammer', notModelled: 'weapon "Bell Hammer": "Quake 2\\""' });
    // "MODEL with WEAPON" holds its weapon's tokens; categories and abilities never stop a command.
    expect((await cliInProcess('exact', '--kind', 'attack', '--roster', ROS, '--weapon', 'Bell Golem with Bell Hammer')).code).toBe(2);
    expect((await cliInProcess('exact', '--kind', 'attack', '--roster', ROS, '--weapon', 'Thornpike', '--target', 'Bell Golem')).code).toBe(0);
    // In a scenario file: "allowUnmodelled": true.
    expect(refusal(() => parseScenario({ kind: 'attack', roster: ROS, weapon: 'Bell Hammer', allowUnmodelled: 'yes' }))).toBe(
      'allowUnmodelled: "yes" is not allowed; allowed: true, false',
    );
  });

  it('profiles --roster lists every profile and what is not modelled; --format json is a profiles file that reads back to the same answers', async () => {
    const table = await cliInProcess('profiles', '--roster', ROS);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^Lantern Warden\s+122 \+ 1 Glory Points\s+armour reinforced, melee \+2 DICE, ranged \+1 DICE, TOUGH, FEAR, STANDFAST$/m);
    expect(table.stdout).toMatch(/^Not modelled/m);
    expect(table.stdout).toContain('weapon "Bell Hammer", weapon "Bell Golem with Bell Hammer": "Quake 2\\"" (keywords: not a keyword of the rule table); stops a command that uses it unless --allow-unmodelled');
    expect(table.stdout).toContain('"Pilgrim Vows" (rule of Ashen Pilgrims: a warband rule)');

    const json = await cliInProcess('profiles', '--roster', ROS, '--format', 'json');
    expect(json.code).toBe(0);
    const file = join(dir, 'from-roster.json');
    writeFileSync(file, json.stdout);
    const back = parseProfiles(JSON.parse(json.stdout), 'back', file);
    expect([...back.weapons.keys()]).toEqual([...readRosterProfiles(ROS).weapons.keys()]);
    // The attacking model's FEAR is a weapon-profile field, written out like the others.
    expect(back.weapons.get('Lantern Warden with Thornpike')!.fields).toMatchObject({ attackerFear: true });
    for (const weapon of ['Thornpike', 'Ember Carbine', 'Censer Flail', 'Ash Acolyte (2) with Scrap Pistol', 'Thorn Sentinel with Thornpike', 'Lantern Warden with Thornpike']) {
      for (const target of ['Lantern Warden', 'Thorn Sentinel', 'Ash Acolyte', 'Bell Golem']) {
        const a = parseScenario({ kind: 'attack', roster: ROS, weapon, target, allowUnmodelled: true });
        const b = parseScenario({ kind: 'attack', profiles: file, weapon, target });
        expect(b, `${weapon} against ${target}`).toEqual(a);
      }
    }
  });

  it('a variant\'s keyword reads a roster\'s name: in a scenario, and in profiles --roster --rules', async () => {
    const variant = join(dir, 'cinder-proof.json');
    writeFileSync(variant, JSON.stringify({ name: 'Cinder-proof plate', system: 'trench-crusade', edition: 'core', rules: { keywords: { 'CINDER PROOF': { negateFire: true } } } }));
    expect(parseScenario({ kind: 'attack', roster: ROS, rules: variant, target: 'Lantern Warden' })).toMatchObject({ negateFire: true });
    expect(parseScenario({ kind: 'attack', roster: ROS, target: 'Lantern Warden' })).toMatchObject({ negateFire: false });
    const listed = await cliInProcess('profiles', '--roster', ROS, '--rules', variant);
    expect(listed.stdout).toMatch(/^Lantern Warden\s+122 \+ 1 Glory Points\s+armour reinforced, melee \+2 DICE, ranged \+1 DICE, TOUGH, FEAR, STANDFAST, CINDER PROOF$/m);
    expect(listed.stdout).not.toContain('"Cinder-Proof"');
  });

  it('refuses --profiles with --roster, and a misspelt name names the roster', async () => {
    const both = await cliInProcess('exact', '--roster', ROS, '--profiles', 'examples/profiles.json');
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('injury-lab: profiles and roster: give profiles alone, not with roster; allowed: profiles, or roster and catalogue (one or both)\n');
    expect(refusal(() => parseScenario({ kind: 'attack', roster: ROS, target: 'Bell Golum' }))).toMatch(
      /^target: "Bell Golum" is not a model of roster file "test\/fixtures\/rosters\/ashen-pilgrims.ros" \(did you mean "Bell Golem"\?\)/,
    );
    const listing = await cliInProcess('profiles', 'examples/profiles.json', '--roster', ROS);
    expect(listing.stderr).toBe('injury-lab: profiles: give one of a profiles file, --roster FILE and --catalogue FILE..., not a profiles file and --roster\n');
  });

  it('a scenario file names its roster relative to itself, and the roster is an input of the run', () => {
    const sub = join(dir, 'scenarios');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'warband.ros'), readFileSync(ROS));
    writeFileSync(join(sub, 'matchup.json'), JSON.stringify({ kind: 'attack', roster: 'warband.ros', weapon: 'Thornpike', target: 'Thorn Sentinel' }));
    const raw = readScenarioFile(join(sub, 'matchup.json'));
    expect(raw.roster).toBe(join(sub, 'warband.ros'));
    expect(namedFiles(raw)).toEqual([join(sub, 'warband.ros')]);
    expect(parseScenario(raw)).toMatchObject({ weapon: 'Thornpike', target: 'Thorn Sentinel', armour: 'standard', shield: true, ignoreArmour: true });
  });
});

describe('the example roster (examples/roster-example.ros)', () => {
  it('imports with every keyword mapped or listed, and every matchup runs without --allow-unmodelled', () => {
    const p = readRosterProfiles('examples/roster-example.ros');
    const stops = [...p.weapons.values(), ...p.models.values()].flatMap((x) => (x.unmodelled ?? []).filter((u) => u.stops));
    expect(stops).toEqual([]);
    for (const weapon of p.weapons.keys()) {
      for (const target of p.models.keys()) {
        expect(() => parseScenario({ kind: 'attack', roster: 'examples/roster-example.ros', weapon, target })).not.toThrow();
      }
    }
  });
});

describe('catalogue files (.gst, .cat)', () => {
  // An invented game system file and two invented factions that price its armoury their own ways.
  const CATS = ['test/fixtures/rosters/pilgrim-system.gst', 'test/fixtures/rosters/ashen-pilgrims.cat', 'test/fixtures/rosters/cinder-choir.cat'];

  it('give a profile of every model and weapon, at each faction\'s price, saying whose', () => {
    const p = readCatalogueProfiles(CATS);
    expect(p.source).toBe('catalogue');
    expect([...p.models.keys()]).toEqual(['Lantern Warden', 'Choir Brute']);
    // Its category links (one named only by its target) and its rule link (infoLink to a shared rule).
    expect(p.models.get('Lantern Warden')).toMatchObject({ fields: { armour: 'reinforced' }, keywords: ['TOUGH', 'FEAR'], cost: 70 });
    expect(p.models.get('Lantern Warden')!.unmodelled!.map((u) => u.text)).toEqual(['Elite']);
    // Weapon profiles through infoLinks to shared profiles; the price is on each faction's link. Two
    // factions at one price are one profile; a different price is named after its faction.
    expect([...p.weapons.values()].map((w) => [w.name, w.cost, w.description])).toEqual([
      ['Thornpike', 12, 'the price of Ashen Pilgrims'],
      ['Ember Carbine', 15, 'the price of Ashen Pilgrims, Cinder Choir'],
      ['Thornpike (Cinder Choir)', 14, 'the price of Cinder Choir'],
    ]);
    expect(p.weapons.get('Ember Carbine')).toMatchObject({ fields: { attackType: 'ranged', attackDice: 1 }, keywords: ['ARMOUR PIERCING 1'] });
    // An item alone is no profile: listed. A hidden entry is not read.
    expect(p.unmodelled).toEqual([{ text: 'Pilgrim Shield', from: 'selection', why: 'neither a model nor a weapon', stops: false, leftOut: 'selection' }]);
    expect(JSON.stringify(content(p))).not.toContain('Unreleased Lance');
  });

  it('from the command line and in a scenario file, relative to it', async () => {
    const r = await cliInProcess('exact', '--kind', 'attack', '--catalogue', ...CATS, '--weapon', 'Thornpike (Cinder Choir)', '--target', 'Choir Brute', '--format', 'json');
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).scenario).toMatchObject({ weapon: 'Thornpike (Cinder Choir)', target: 'Choir Brute', ignoreArmour: true, armour: 'machine', tough: true });
    const listed = await cliInProcess('profiles', '--catalogue', ...CATS);
    expect(listed.stdout).toMatch(/^Thornpike \(Cinder Choir\)\s+14\s+attackType melee, IGNORE ARMOUR, CUMBERSOME$/m);
    const raw = rulesRelativeTo({ kind: 'attack', catalogue: ['pilgrim-system.gst', 'ashen-pilgrims.cat'], weapon: 'Thornpike' }, 'test/fixtures/rosters/matchup.json');
    expect(namedFiles(raw)).toEqual(CATS.slice(0, 2));
    expect(parseScenario(raw)).toMatchObject({ weapon: 'Thornpike', ignoreArmour: true });
    // A roster with catalogues is my warband against theirs (test/warband-profiles.test.ts); a profiles file goes alone.
    expect(refusal(() => parseScenario({ kind: 'attack', catalogue: CATS, profiles: 'examples/profiles.json' }))).toBe('profiles and catalogue: give profiles alone, not with catalogue; allowed: profiles, or roster and catalogue (one or both)');
    expect(refusal(() => parseScenario({ kind: 'attack', catalogue: [ROS] }))).toBe(
      'catalogue file "test/fixtures/rosters/ashen-pilgrims.ros": not a catalogue: no "catalogue" or "gameSystem" element (a BattleScribe .cat or .gst has one)',
    );
    expect(refusal(() => parseScenario({ kind: 'attack', catalogue: [] }))).toBe('catalogue: [] is not allowed; allowed: the path of a .gst or .cat file, or a list of them');
  });
});

describe('values that cannot be read stop the commands that use them', () => {
  const model = (name: string, armour: string, weapons: unknown[] = []) => ({
    name,
    type: 'model',
    number: 1,
    profiles: [{ name, typeName: 'Unit', characteristics: [{ name: 'Ranged', $text: '+1' }, { name: 'Melee', $text: 'keen' }, { name: 'Armour', $text: armour }] }],
    selections: weapons,
    costs: [{ name: 'Ducats', value: 30 }],
  });
  const weapon = (name: string, keywords: string) => ({
    name,
    type: 'upgrade',
    profiles: [{ name, typeName: 'Weapon', characteristics: [{ name: 'Range', $text: 'Melee' }, { name: 'Keywords', $text: keywords }] }],
  });

  it('an armour that is no armour, a characteristic that is not dice, a number out of range', () => {
    const file = join(dir, 'odd.json');
    writeFileSync(file, JSON.stringify({ roster: { name: 'Odd', forces: [{ selections: [model('Odd One', '-5', [weapon('Great Club', '+12 DICE')]), model('Plain', '-1')] }] } }));
    const p = readRosterProfiles(file);
    expect(p.models.get('Odd One')!.unmodelled).toEqual([
      { text: 'Armour -5', from: 'armour', why: 'no armour of the rule table; allowed: 0 (none), -1 (standard), -2 (reinforced), -3 (machine)', stops: true },
    ]);
    expect(refusal(() => parseScenario({ kind: 'attack', roster: file, target: 'Odd One' }))).toBe(
      'target: "Odd One": "Armour -5" is not modelled (no armour of the rule table; allowed: 0 (none), -1 (standard), -2 (reinforced), -3 (machine)); give --allow-unmodelled to leave it out, or edit the roster',
    );
    expect(parseScenario({ kind: 'attack', roster: file, target: 'Odd One', allowUnmodelled: true })).toMatchObject({ armour: 'none' });
    expect(refusal(() => parseScenario({ kind: 'attack', roster: file, weapon: 'Great Club' }))).toBe(
      'weapon: "Great Club": "attackDice 12" is not modelled (out of range; allowed: a whole number from -10 to 10); give --allow-unmodelled to leave it out, or edit the roster',
    );
    // Its Melee "keen" is no number of dice: the carried melee weapon stops; the plain model's weapons do not exist.
    expect(refusal(() => parseScenario({ kind: 'attack', roster: file, weapon: 'Odd One with Great Club' }))).toMatch(/^weapon: "Odd One with Great Club": /);
    expect(p.weapons.get('Odd One with Great Club')!.unmodelled!.map((u) => u.text)).toContain('Melee keen');
  });
});

describe('bad roster files: one line naming the file and what is wrong, exit 2', () => {
  const write = (name: string, data: string | Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, data);
    return path;
  };
  const refused = async (path: string) => {
    const r = await cliInProcess('profiles', '--roster', path);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    return lines[0]!.replace(dir, 'DIR');
  };

  it('not a roster, not XML, malformed JSON, another game, a missing file, a folder', async () => {
    expect(await refused(write('notes.txt', 'just some notes'))).toBe(
      'injury-lab: roster file "DIR/notes.txt": not a roster; allowed: a .rosz (zip), a .ros (BattleScribe XML) or NewRecruit\'s JSON export',
    );
    expect(await refused(write('broken.ros', '<roster><forces></roster>'))).toMatch(/^injury-lab: roster file "DIR\/broken.ros": not valid XML \(line 1: .+\)$/);
    expect(await refused(write('other.ros', '<catalogue name="x"/>'))).toBe(
      'injury-lab: roster file "DIR/other.ros": not a roster: no "roster" with "forces" (a NewRecruit or BattleScribe roster export is)',
    );
    expect(await refused(write('bad.json', '{"roster": '))).toMatch(/^injury-lab: roster file "DIR\/bad.json": not valid JSON \(/);
    expect(await refused(write('other-game.json', JSON.stringify({ roster: { gameSystemName: 'Some Other Game', forces: [] } })))).toBe(
      'injury-lab: roster file "DIR/other-game.json": for "Some Other Game"; allowed: a roster or catalogue of "trench crusade"',
    );
    expect(await refused(write('entities.ros', '<!DOCTYPE r [<!ENTITY a "aaaa">]><roster><forces/></roster>'))).toBe(
      'injury-lab: roster file "DIR/entities.ros": XML with a DOCTYPE or ENTITY declaration; a roster has none',
    );
    expect(await refused(join(dir, 'missing.ros'))).toBe('injury-lab: roster file "DIR/missing.ros": no such file');
    expect(await refused(dir)).toBe('injury-lab: roster file "DIR": is not a regular file (it is a folder)');
  });

  it('a zip with no .ros or with two, a zip bomb, a corrupt zip, a huge file', async () => {
    const ros = readFileSync(ROS);
    expect(await refused(write('empty.rosz', zipSync({ 'readme.txt': strToU8('hello') })))).toBe(
      'injury-lab: roster file "DIR/empty.rosz": a .rosz holds exactly one .ros file; this zip holds none ("readme.txt")',
    );
    expect(await refused(write('two.rosz', zipSync({ 'a.ros': ros, 'b.ros': ros })))).toBe(
      'injury-lab: roster file "DIR/two.rosz": a .rosz holds exactly one .ros file; this zip holds 2 ("a.ros", "b.ros")',
    );
    // 64 MB of spaces compress to about 60 KB: refused on the size the entry declares, before inflating.
    const bomb = write('bomb.rosz', zipSync({ 'bomb.ros': new Uint8Array(64 * 1024 * 1024).fill(32) }, { level: 9 }));
    expect(readFileSync(bomb).length).toBeLessThan(1024 * 1024);
    expect(await refused(bomb)).toBe('injury-lab: roster file "DIR/bomb.rosz": its "bomb.ros" would inflate to 67.1 MB; a roster is at most 8 MiB');
    expect(await refused(write('corrupt.rosz', Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(40, 7)])))).toMatch(/^injury-lab: roster file "DIR\/corrupt.rosz": not a readable zip \(/);
    expect(await refused(write('huge.ros', Buffer.alloc(9 * 1024 * 1024, 32)))).toBe('injury-lab: roster file "DIR/huge.ros": is 9.4 MB; a roster is at most 8 MiB');
  });

  it('a selection whose cost or count is not a number: refused, never taken as 0 or 1 (the value charts divide by costs)', async () => {
    const ros = readFileSync(ROS, 'utf8');
    const warden = '<selection id="ap-warden" name="Lantern Warden" entryId="ap-e-warden" number="1"';
    expect(ros).toContain(warden);
    expect(ros).toContain('value="70"/>');
    expect(await refused(write('cost.ros', ros.replace('value="70"/>', 'value="abc"/>')))).toMatch(
      /^injury-lab: roster file "DIR\/cost.ros": selection "[^"]+": its Ducats cost "abc" is not allowed; allowed: a number \(negative only as an offset of the roster's total\)$/,
    );
    expect(await refused(write('count.ros', ros.replace(warden, warden.replace('number="1"', 'number="0"'))))).toBe(
      'injury-lab: roster file "DIR/count.ros": selection "Lantern Warden": number "0" is not allowed; allowed: a whole number from 1 (how many models or items it is)',
    );
  });

  it('a negative cost (a NewRecruit storage selection) reads: an offset of the roster total, listed, never in a profile\'s price', async () => {
    const ros = readFileSync(ROS, 'utf8');
    // A warband-level "storage" selection of our own invention with -7 Ducats, and one inside the Lantern
    // Warden's tree with -5: the Warden's 122 (70 + its items' 52) stays 122, never 117.
    const storage = '<selection id="ap-storage" name="Pile of Odds" entryId="ap-e-storage" number="1" type="upgrade" from="entry"><costs><cost name="Ducats" typeId="ap-ducats" value="-7"/></costs></selection>';
    const withOffsets = ros
      .replace('<selections>\n        <selection id="ap-banner"', `<selections>\n        ${storage}\n        <selection id="ap-banner"`)
      .replace('<cost name="Glory Points" typeId="ap-glory" value="1"/>\n          </costs>\n          <selections>', `<cost name="Glory Points" typeId="ap-glory" value="1"/>\n          </costs>\n          <selections>\n            ${storage.replace('ap-storage', 'ap-storage-2').replace('-7', '-5')}`);
    expect(withOffsets.match(/Pile of Odds/g)).toHaveLength(2);
    const r = await cliInProcess('profiles', '--roster', write('offsets.ros', withOffsets), '--format', 'json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { models: Record<string, { cost: number; description?: string }>; weapons: Record<string, { cost: number }> };
    const warden = doc.models['Lantern Warden']!;
    expect(warden.cost).toBe(122);
    expect(warden.description).toContain(`"Pile of Odds: Ducats -5" (cost: a negative cost is an offset of the roster's total, not a price)`);
    for (const p of [...Object.values(doc.models), ...Object.values(doc.weapons)]) expect(p.cost).toBeGreaterThanOrEqual(0);
  });
});
