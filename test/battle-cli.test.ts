import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { battleJsonSchema, checkBattleSettings, resolveBattle } from '../src/input/battle.js';
import { tallyLength } from '../src/model/tally.js';
import { closePool, simulateSource } from '../src/pool/simulate.js';
import { battlePlanOf } from '../src/rules/trench-crusade/battle/resolved.js';
import { battleLayoutOf } from '../src/rules/trench-crusade/battle/report.js';
import { FAMILY_ALPHA } from '../src/stats/cross-check.js';
import { normalQuantile } from '../src/stats/normal.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 50, part 1: `injury-lab battle` from a roster, a profiles file and catalogues. The engine's
 * answers are checked against hand counts and the exact duel in test/battle-simulate.test.ts; here, that
 * the command reads what it is given (a weapon's range, a roster's entries, the same entries through an
 * exported profiles file), plays the same games on any number of workers, and refuses a bad warband in
 * one line before any game.
 */
afterAll(() => closePool());

const ROSTER = 'examples/roster-example.ros';
const A = 'Ash Acolyte with Censer Flail + Scrap Pistol x3, Thorn Sentinel with Ember Carbine';
const B = 'Cinder Brute with Cinder Maul + Brazier Cannon, Lantern Warden with Thornpike';
const dir = mkdtempSync(join(tmpdir(), 'injury-lab-battle-'));

interface BattleJson {
  readonly outcomes: readonly { readonly outcome: string; readonly count: number; readonly probability: number }[];
  readonly histograms: readonly { readonly id: string; readonly bins: readonly { readonly bin: string; readonly count: number }[] }[];
  readonly a: { readonly entries: readonly { readonly name: string; readonly victoryPoints: number; readonly movement: number; readonly weapons: readonly { readonly name: string; readonly ranged: boolean; readonly rangeInches: number; readonly attacks: number }[]; readonly standing: { readonly value: number }; readonly attacks: { readonly value: number } }[]; readonly markersSpent: { readonly value: number } };
  readonly b: { readonly entries: readonly { readonly name: string; readonly movement: number; readonly takenOut: { readonly value: number }; readonly attacks: { readonly value: number } }[]; readonly markersSpent: { readonly value: number } };
  readonly notes: readonly string[];
}

async function battle(...args: string[]): Promise<BattleJson> {
  const r = await cliInProcess('battle', ...args, '--format', 'json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as BattleJson;
}

const counts = (j: BattleJson) => ({ outcomes: j.outcomes.map((o) => o.count), histograms: j.histograms.map((h) => h.bins.map((b) => b.count)) });

describe('injury-lab battle', () => {
  it('plays the same games on 1, 2 and 4 workers: the same counts for the same seed', async () => {
    // Two chunks of games (65,536 each, the last short), so the workers split them. The CLI runs on as
    // many threads as the machine has cores at most; the library's pool takes any number.
    const args = ['--roster', ROSTER, '--a', A, '--b', B, '--trials', '70000', '--seed', '5'];
    const one = await battle(...args, '--workers', '1');
    const two = await battle(...args, '--workers', '2');
    expect(counts(two)).toEqual(counts(one));
    expect(one.outcomes.reduce((n, o) => n + o.count, 0)).toBe(70_000);
    const settings = checkBattleSettings({ roster: ROSTER, a: A, b: B }, (n) => `--${n}`);
    const { battle: resolved } = resolveBattle(settings);
    const length = tallyLength(battleLayoutOf(battlePlanOf(resolved)));
    const tallies = [];
    for (const workers of [1, 2, 4]) tallies.push((await simulateSource({ type: 'battle', battle: resolved }, length, { trials: 70_000, seed: 5, workers })).tally);
    expect(tallies[1]).toEqual(tallies[0]);
    expect(tallies[2]).toEqual(tallies[0]);
    expect([...tallies[0]!.slice(0, 3)]).toEqual(one.outcomes.map((o) => o.count));
  });

  it("reads a roster's entries: their kit's price as victory points, Movement, a weapon's Range, and the unarmed where no melee weapon is named", async () => {
    const j = await battle('--roster', ROSTER, '--a', A, '--b', B, '--trials', '2000');
    // An Ash Acolyte at 39 ducats with its kit is worth 4 victory points (39 / 10, rounded up); its pistol's range 8".
    expect(j.a.entries[0]).toMatchObject({ name: 'Ash Acolyte with Censer Flail + Scrap Pistol x3', victoryPoints: 4, movement: 6 });
    expect(j.a.entries[0]!.weapons.map((w) => [w.name, w.ranged, w.rangeInches])).toEqual([
      ['Ash Acolyte with Censer Flail', false, 0],
      ['Ash Acolyte with Scrap Pistol', true, 8],
      // Its Range is 8"/Melee: it fights in melee too, after the flail (ruling B47).
      ['Ash Acolyte with Scrap Pistol (in melee)', false, 0],
    ]);
    // The Thorn Sentinel names only its carbine (18"): it fights unarmed, and the answer says so.
    expect(j.a.entries[1]!.weapons.map((w) => w.name)).toEqual(['Thorn Sentinel with Ember Carbine', 'unarmed']);
    expect(j.notes).toEqual(["a: Thorn Sentinel with Ember Carbine: no melee weapon named: it fights unarmed, with no weapon's modifiers (ruling B28)"]);
  });

  it("reads the same answer from a roster and from the profiles file exported from it", async () => {
    const exported = await cliInProcess('profiles', '--roster', ROSTER, '--format', 'json');
    const file = join(dir, 'exported.json');
    writeFileSync(file, exported.stdout);
    const fromRoster = await battle('--roster', ROSTER, '--a', A, '--b', B, '--trials', '20000', '--seed', '3');
    const fromFile = await battle('--profiles', file, '--a', A, '--b', B, '--trials', '20000', '--seed', '3');
    expect(counts(fromFile)).toEqual(counts(fromRoster));
  });

  it("shoots only within a weapon's range: carbines of 18\" holding 24\" apart never shoot (every game a draw), 18\" apart they do", async () => {
    const line = 'Thorn Sentinel with Ember Carbine x2';
    const apart = (inches: string) => battle('--roster', ROSTER, '--a', line, '--b', line, '--a-tactic', 'hold', '--b-tactic', 'hold', '--start-inches', inches, '--trials', '3000');
    const far = await apart('24');
    expect(far.outcomes.map((o) => o.count)).toEqual([0, 0, 3000]);
    const near = await apart('18');
    expect(near.outcomes[0]!.count).toBeGreaterThan(0);
    expect(near.outcomes[1]!.count).toBeGreaterThan(0);
  });

  it('one model against one, in contact, with a fixed first side and no morale, is the exact duel of the same two entries', async () => {
    // The same profiles read both ways: the battle's attacks are the duel's sides (a shield and a great
    // hammer spending markers on injuries, against reinforced armour and a club spending them to hinder).
    const profiles = 'examples/profiles.json';
    const [a, b] = ['Shield Bearer with Great Hammer', 'Reinforced Veteran with Trench Club'];
    const trials = 40_000;
    const fought = await battle('--profiles', profiles, '--a', a, '--b', b, '--turns', '6', '--start-inches', '0', '--initiative', 'a', '--morale', 'false', '--a-blood', 'injury', '--b-blood', 'hinder', '--trials', String(trials));
    const exact = await cliInProcess('exact', '--kind', 'duel', '--profiles', profiles, '--a-profile', a, '--a', 'policy=injury', '--b-profile', b, '--b', 'policy=hinder', '--rounds', '6', '--format', 'json');
    const duel = JSON.parse(exact.stdout) as { outcomes: { outcome: string; probability: number }[] };
    // Each of the three counts within the family error's interval around n p (three tests, Bonferroni).
    const z = normalQuantile(1 - FAMILY_ALPHA / 6);
    duel.outcomes.forEach((o, i) => {
      const count = fought.outcomes[i]!.count;
      expect(Math.abs(count - trials * o.probability)).toBeLessThan(z * Math.sqrt(trials * o.probability * (1 - o.probability)));
    });
    expect(duel.outcomes.map((o) => o.outcome)).toEqual(['a-wins', 'b-wins', 'undecided']);
  });

  it('writes a tidy CSV: one row per measure, its settings in columns, the counts and the JSON\'s numbers', async () => {
    const args = ['--roster', ROSTER, '--a', A, '--b', B, '--trials', '3000', '--seed', '4'];
    const csv = await cliInProcess('battle', ...args, '--format', 'csv');
    expect(csv.code).toBe(0);
    const rows = parse(csv.stdout, { columns: true, cast: false }) as Record<string, string>[];
    const json = await battle(...args);
    // Every outcome's count, as the JSON has them, and every game counted once.
    const outcomes = rows.filter((r) => r.measure === 'outcome');
    expect(outcomes.map((r) => [r.entry, Number(r.count)])).toEqual(json.outcomes.map((o) => [o.outcome, o.count]));
    expect(outcomes.reduce((n, r) => n + Number(r.count), 0)).toBe(3000);
    // Per entry: standing, each model's survival (standing / models) and enemies taken out; four entries.
    const standing = rows.filter((r) => r.measure === 'standing');
    expect(standing.map((r) => `${r.side}: ${r.entry}`)).toEqual([...json.a.entries.map((e) => `a: ${e.name}`), ...json.b.entries.map((e) => `b: ${e.name}`)]);
    for (const r of standing) {
      const survival = rows.find((x) => x.measure === 'survival' && x.side === r.side && x.entry === r.entry)!;
      expect(Number(survival.value)).toBeCloseTo(Number(r.value) / Number(r.models), 12);
    }
    // Attacks made per entry and markers spent per side, as the JSON has them.
    expect(rows.filter((r) => r.measure === 'attacks').map((r) => Number(r.value))).toEqual([...json.a.entries, ...json.b.entries].map((e) => e.attacks.value));
    expect(rows.filter((r) => r.measure === 'markersSpent').map((r) => [r.side, Number(r.value)])).toEqual([
      ['a', json.a.markersSpent.value],
      ['b', json.b.markersSpent.value],
    ]);
    expect(new Set(rows.map((r) => r.a_warband))).toEqual(new Set([A]));
    expect(new Set(rows.map((r) => `${r.turns} ${r.start_inches} ${r.initiative} ${r.morale} ${r.seed} ${r.trials}`))).toEqual(new Set(['6 24 rules true 4 3000']));
  });

  it("fields a roster as it stands (--a-roster): every model with the kit it holds, identical models counted together; a mirror of it is even", async () => {
    const roster = 'test/fixtures/rosters/ashen-pilgrims.ros';
    const trials = 20_000;
    const j = await battle('--a-roster', roster, '--b-roster', roster, '--allow-unmodelled', '--trials', String(trials));
    // The roster's two identical Ash Acolytes with flails are one entry of 2; the one with a pistol its own.
    expect(j.a.entries.map((e) => e.name)).toEqual(['Lantern Warden with Thornpike + Ember Carbine', 'Thorn Sentinel with Thornpike', 'Ash Acolyte with Censer Flail x2', 'Ash Acolyte (2) with Scrap Pistol', 'Bell Golem with Bell Hammer']);
    expect(j.a.entries[0]!.weapons.map((w) => w.name)).toEqual(['Lantern Warden with Thornpike', 'Lantern Warden with Ember Carbine']);
    // The same warband on both sides, initiative by the rules: a and b win equally often (given a + b
    // decided games, a's wins are Binomial(a + b, 1/2)).
    const [a, b] = [j.outcomes[0]!.count, j.outcomes[1]!.count];
    expect(Math.abs(a - b) / Math.sqrt(a + b)).toBeLessThan(normalQuantile(1 - FAMILY_ALPHA / 2));
  });

  it("draws who wins and each entry's survival with --chart (the JSON's numbers), and refuses a chart file that is an input or exists, before any game", async () => {
    const args = ['--roster', ROSTER, '--a', A, '--b', B, '--trials', '3000', '--seed', '8'];
    const file = join(dir, 'battle.vl.json');
    const drawn = await cliInProcess('battle', ...args, '--chart', file, '--format', 'json');
    expect(drawn.code).toBe(0);
    expect(drawn.stderr).toBe(`injury-lab: wrote ${file}\n`);
    const json = JSON.parse(drawn.stdout) as BattleJson & { a: { entries: { survival: number }[] }; b: { entries: { survival: number }[] } };
    const spec = JSON.parse(readFileSync(file, 'utf8')) as { vconcat: { data: { values: { label: string; value: number }[] } }[] };
    const [wins, standing] = spec.vconcat.map((p) => p.data.values);
    expect(wins!.map((b) => [b.label, b.value])).toEqual(['a-wins', 'draw', 'b-wins'].map((o) => [o, json.outcomes.find((x) => x.outcome === o)!.probability]));
    expect(standing!.map((b) => b.value)).toEqual([...json.a.entries, ...json.b.entries].map((e) => e.survival));
    // The file exists now: refused without --force, and an input never replaced; nothing printed either way.
    for (const chart of [file, ROSTER]) {
      const r = await cliInProcess('battle', ...args, '--chart', chart);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    }
  });

  it('fields each side at equal ducats (--ducats): its one entry as many times as the ducats buy', async () => {
    // A trooper with a rifle costs 30 + 10 ducats: 200 buy 5. A brute with a great hammer 110 + 12: 200 buy 1, 78 left.
    const j = await battle('--profiles', 'examples/profiles.json', '--a', 'Unarmoured Trooper with Bolt-action Rifle', '--b', 'Machine Brute with Great Hammer', '--ducats', '200', '--trials', '2000');
    expect([j.a.entries[0]!.name, j.b.entries[0]!.name]).toEqual(['Unarmoured Trooper with Bolt-action Rifle x5', 'Machine Brute with Great Hammer x1']);
    expect(j.notes).toEqual([
      'a: 200 ducats buy 5 x Unarmoured Trooper with Bolt-action Rifle at 40 ducats each (0 left over)',
      'b: 200 ducats buy 1 x Machine Brute with Great Hammer at 122 ducats each (78 left over)',
      "a: Unarmoured Trooper with Bolt-action Rifle x5: no melee weapon named: it fights unarmed, with no weapon's modifiers (ruling B28)",
    ]);
  });

  it('reads a battle file (its files relative to it, a flag over a setting), whose schema is published and committed', async () => {
    const fromFile = await battle('examples/battle.json', '--b-tactic', 'hold', '--trials', '3000', '--seed', '6');
    const fromFlags = await battle('--roster', ROSTER, '--a', A, '--b', B, '--b-tactic', 'hold', '--cover-chance', '0.25', '--trials', '3000', '--seed', '6');
    expect(counts(fromFile)).toEqual(counts(fromFlags));
    const schema = JSON.parse(readFileSync('battle.schema.json', 'utf8')) as Record<string, unknown>;
    expect(schema).toEqual(battleJsonSchema());
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(JSON.parse(readFileSync('examples/battle.json', 'utf8')))).toBe(true);
    expect(validate({ turnz: 3 })).toBe(false);
    // A bad key or value of the file is named with the file, in one line, before any game.
    const bad = join(dir, 'bad-battle.json');
    for (const [content, message] of [
      [{ roster: join(process.cwd(), ROSTER), a: 'Ash Acolyte', b: 'Cinder Brute', turnz: 3 }, /^injury-lab: battle file ".*bad-battle.json": key: "turnz" is not a setting of a battle \(did you mean "turns"\?\); allowed: a, b, /],
      [{ roster: join(process.cwd(), ROSTER), a: 'Ash Acolyte', b: 'Cinder Brute', turns: 30 }, /^injury-lab: battle file ".*bad-battle.json": turns: 30 is not allowed; allowed: a whole number from 1 to 10$/],
    ] as const) {
      writeFileSync(bad, JSON.stringify(content));
      const r = await cliInProcess('battle', bad, '--trials', '100');
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim()).toMatch(message);
    }
  });

  const refusals: [string, string[], RegExp][] = [
    ['an unknown entry', ['--roster', ROSTER, '--a', 'Ash Acolyt x3', '--b', 'Cinder Brute'], /^--a: "Ash Acolyt x3": "Ash Acolyt" is not a model .*\(did you mean "Ash Acolyte"\?\)/],
    ['a count of 0', ['--roster', ROSTER, '--a', 'Ash Acolyte x0', '--b', 'Cinder Brute'], /^--a: "Ash Acolyte x0": count: "0" is not allowed; allowed: a whole number of models from 1 to 50/],
    ['a count of 10^9', ['--roster', ROSTER, '--a', 'Ash Acolyte', '--b', 'Cinder Brute x1000000000'], /^--b: "Cinder Brute x1000000000": count: "1000000000" is not allowed/],
    ['a weapon the model cannot carry (a roster)', ['--roster', ROSTER, '--a', 'Ash Acolyte with Thornpike', '--b', 'Cinder Brute'], /^--a: "Ash Acolyte with Thornpike": "Thornpike" is not a weapon "Ash Acolyte" may carry; allowed: "Censer Flail", "Scrap Pistol"$/],
    [
      "a weapon the model cannot carry (a catalogue's loadout)",
      ['--catalogue', 'test/fixtures/rosters/pilgrim-system.gst', 'test/fixtures/rosters/ashen-pilgrims.cat', '--a', 'Lantern Warden with Ember Carbine', '--b', 'Lantern Warden with Thornpike'],
      /^--a: "Lantern Warden with Ember Carbine": "Ember Carbine" is not a weapon "Lantern Warden" may carry; allowed: "Thornpike"$/,
    ],
    ['no warband for b', ['--roster', ROSTER, '--a', 'Ash Acolyte'], /^--b: nothing is not allowed; allowed: side b's warband/],
    ['no profiles', ['--a', 'Ash Acolyte', '--b', 'Cinder Brute'], /^battle: no profiles named for the warbands; give one of --profiles FILE/],
    ['a side named twice', ['--a-roster', ROSTER, '--a', 'Ash Acolyte', '--b', 'Cinder Brute'], /^--a, --a-roster: side a is named twice; give one: entries \(--a\) or a roster as fielded \(--a-roster\)$/],
    ['two rosters', ['--a-roster', ROSTER, '--b-roster', 'test/fixtures/rosters/ashen-pilgrims.ros'], /^--b-roster: "test\/fixtures\/rosters\/ashen-pilgrims.ros" is a second roster \(the battle reads "examples\/roster-example.ros"\); allowed: one roster a battle/],
    ["a roster's unmodelled keyword, named by its side's flag", ['--a-roster', 'test/fixtures/rosters/ashen-pilgrims.ros', '--b', 'Thorn Sentinel'], /^--a-roster: "Bell Golem with Bell Hammer": .*"Quake 2\\"" is not modelled .*give --allow-unmodelled/],
    ['an unknown tactic', ['--roster', ROSTER, '--a', 'Ash Acolyte', '--b', 'Cinder Brute', '--a-tactic', 'sprint'], /^--a-tactic: "sprint" is not a known tactic; allowed: advance, hold, charge, charge-weakest, skirmish$/],
    ['turns out of range', ['--roster', ROSTER, '--a', 'Ash Acolyte', '--b', 'Cinder Brute', '--turns', '11'], /^--turns: 11 is not allowed; allowed: a whole number from 1 to 10$/],
    ['a chance above 1', ['--roster', ROSTER, '--a', 'Ash Acolyte', '--b', 'Cinder Brute', '--cover-chance', '1.5'], /^--cover-chance: 1.5 is not allowed; allowed: a number from 0 to 1$/],
    ['two entries at equal ducats', ['--roster', ROSTER, '--a', 'Ash Acolyte, Thorn Sentinel', '--b', 'Cinder Brute', '--ducats', '300'], /^--a: a side fielded at --ducats 300 is one entry without a count .*; allowed: one "MODEL with WEAPON" a side, or no --ducats$/],
    ['a count at equal ducats', ['--roster', ROSTER, '--a', 'Ash Acolyte x2', '--b', 'Cinder Brute', '--ducats', '300'], /^--a: a side fielded at --ducats 300 is one entry without a count/],
    ['ducats that buy none', ['--roster', ROSTER, '--a', 'Ash Acolyte', '--b', 'Cinder Brute', '--ducats', '100'], /^--ducats: 100 is not allowed; allowed: ducats that buy 1 to 50 of "Cinder Brute" at 115 ducats each/],
    ['a roster at equal ducats', ['--a-roster', ROSTER, '--b', 'Cinder Brute', '--ducats', '300'], /^--a-roster, --ducats: a roster is fielded as it stands, at its own ducats/],
  ];
  for (const [what, args, message] of refusals) {
    it(`refuses ${what} in one line, exit 2, nothing on stdout`, async () => {
      const r = await cliInProcess('battle', ...args, '--trials', '100');
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]!.replace(/^injury-lab: /, '')).toMatch(message);
    });
  }

  it('refuses a ranged weapon that gives no range', async () => {
    const file = join(dir, 'no-range.json');
    writeFileSync(file, JSON.stringify({ system: 'trench-crusade', models: { Trooper: { cost: 30 } }, weapons: { Musket: { attackType: 'ranged' } } }));
    const r = await cliInProcess('battle', '--profiles', file, '--a', 'Trooper with Musket', '--b', 'Trooper', '--trials', '100');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`injury-lab: --a: "Trooper with Musket": its ranged weapon "Musket" gives no range; allowed: a weapon with its range (a profiles file's rangeInches, a roster's or catalogue's Range)`);
  });

  it('makes every attack of an AUTOMATIC 5 weapon, RISKY too: the duel\'s cap of 4 attacks is not the game\'s', async () => {
    // The real catalogue's Autocannon (Full Auto) is AUTOMATIC 5 and RISKY: read as a duel side it was 4
    // attacks, and a battle refused it; a battle's Shoot makes all five (ruling B22).
    const file = join(dir, 'automatic-5.json');
    const weapons = {
      Autocannon: { attackType: 'ranged', rangeInches: 48, keywords: ['AUTOMATIC 5'] },
      'Full Auto': { attackType: 'ranged', rangeInches: 48, keywords: ['AUTOMATIC 5', 'RISKY'] },
    };
    writeFileSync(file, JSON.stringify({ system: 'trench-crusade', models: { Trooper: { cost: 30 } }, weapons }));
    for (const weapon of Object.keys(weapons)) {
      const r = await battle('--profiles', file, '--a', `Trooper with ${weapon}`, '--b', 'Trooper x3', '--trials', '100');
      expect(r.a.entries[0]!.weapons.map((w) => [w.name, w.attacks])).toEqual([[weapon, 5], ['unarmed', 1]]);
    }
  });
});
