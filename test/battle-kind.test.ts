import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../src/input/scenario.js';
import { checkBattleSettings, resolveBattle } from '../src/input/battle.js';
import { closePool } from '../src/pool/simulate.js';
import { runInThread, compileKernel } from '../src/sim/chunks.js';
import { sourceOf } from '../src/sim/play.js';
import { CHUNK_SIZE } from '../src/sim/protocol.js';
import { battleOfScenario } from '../src/rules/trench-crusade/battle/resolved.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 50, part 1's last: a battle is a kind of scenario (`"kind": "battle"`), so sweep, compare and
 * reports ask it what they ask a duel. Its answers are `injury-lab battle`'s (test/battle-cli.test.ts and
 * test/battle-simulate.test.ts check those against hand counts and the exact duel): here, that a
 * scenario's fields reach the same game the command plays, that a variant's rules reach every attack,
 * that the kind is simulated where an exact answer is asked for, and that a bad battle scenario is
 * refused in one line.
 */
afterAll(() => closePool());

const ROSTER = resolve('examples/roster-example.ros');
const A = 'Ash Acolyte with Censer Flail + Scrap Pistol x3, Thorn Sentinel with Ember Carbine';
const B = 'Cinder Brute with Cinder Maul + Brazier Cannon, Lantern Warden with Thornpike';
const dir = mkdtempSync(join(tmpdir(), 'injury-lab-battle-kind-'));
const TRIALS = 20_000;

/** Every setting away from its default, each on the side it belongs to: a setting read on the wrong side, or not read, plays another game. */
const scenario = {
  kind: 'battle',
  roster: ROSTER,
  a: { warband: A, blood: 'hinder' },
  b: { warband: B, tactic: 'charge' },
  turns: 4,
  startInches: 18,
  coverChance: 0.25,
  initiative: 'a',
  victory: 'models',
};

async function json(command: string, ...args: string[]): Promise<{ stdout: unknown; stderr: string }> {
  const r = await cliInProcess(command, ...args, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return { stdout: JSON.parse(r.stdout), stderr: r.stderr };
}

const outcomeCounts = (j: unknown) => (j as { outcomes: { outcome: string; count: number }[] }).outcomes.map((o) => [o.outcome, o.count]);

describe('the battle kind', () => {
  it('a scenario file plays the game `injury-lab battle` plays with the same settings: the same counts for a seed', async () => {
    const file = join(dir, 'battle-scenario.json');
    writeFileSync(file, JSON.stringify(scenario));
    const simulated = await json('simulate', file, '--trials', String(TRIALS), '--seed', '4');
    const battle = await json(
      'battle',
      ...['--roster', ROSTER, '--a', A, '--b', B, '--a-blood', 'hinder', '--b-tactic', 'charge', '--turns', '4', '--start-inches', '18'],
      ...['--cover-chance', '0.25', '--initiative', 'a', '--victory', 'models', '--trials', String(TRIALS), '--seed', '4'],
    );
    expect(outcomeCounts(simulated.stdout)).toEqual(outcomeCounts(battle.stdout));
    expect(outcomeCounts(simulated.stdout).reduce((n, [, c]) => n + Number(c), 0)).toBe(TRIALS);
    // Another plan for b is another game: the comparison above can fail.
    const advancing = await json('simulate', file, '--b', 'tactic=advance', '--trials', String(TRIALS), '--seed', '4');
    expect(outcomeCounts(advancing.stdout)).not.toEqual(outcomeCounts(battle.stdout));
  });

  it('a variant of the rules reaches every attack of the battle', () => {
    const plain = parseScenario(scenario);
    const variant = parseScenario({ ...scenario, rules: 'examples/variants/out-of-action-on-10.json' });
    const attacks = (s: typeof plain) => battleOfScenario(s)!.a.attacks.flat(2);
    expect(attacks(plain).length).toBeGreaterThan(0);
    // Out of Action on 10+ rather than the core table's 9+ (004_8876b2fc69d19d53.txt), in each attack's own table.
    for (const seq of attacks(plain)) expect((seq.rules as { injuryTable: { outOfAction: number } }).injuryTable.outOfAction).toBe(9);
    for (const seq of attacks(variant)) expect((seq.rules as { injuryTable: { outOfAction: number } }).injuryTable.outOfAction).toBe(10);
    // A kernel compiled from either plays it: fewer of a's models go Out of Action when it takes a 10.
    const play = (s: typeof plain) => {
      const { kernel, tallyLength } = compileKernel(sourceOf(s));
      return runInThread(kernel, tallyLength, { trials: TRIALS, seed: 2, chunkSize: CHUNK_SIZE });
    };
    expect(play(variant)).not.toEqual(play(plain));
  });

  it('a sweep of a side\'s plan is simulated (a battle has no exact answer), and says so', async () => {
    const r = await json('sweep', '--kind', 'battle', '--roster', ROSTER, '--a', `warband=${A}`, '--b', `warband=${B}`, '--vary', 'b.tactic=advance,charge', '--trials', '4000', '--batches', '2');
    const cells = (r.stdout as { cells: { values: Record<string, unknown>; exact?: unknown; simulation: { trials: number } }[] }).cells;
    expect(cells.map((c) => c.values['b.tactic'])).toEqual(['advance', 'charge']);
    for (const c of cells) {
      expect(c.exact).toBeUndefined();
      expect(c.simulation.trials).toBe(4000);
    }
    // Without --trials, the kind's own number of games, said on stderr.
    const quiet = await cliInProcess('compare', 'b.tactic=advance', 'b.tactic=hold', '--kind', 'battle', '--roster', ROSTER, '--a', `warband=${A}`, '--b', `warband=${B}`, '--turns', '1', '--start-inches', '0');
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toContain('injury-lab: a battle has no exact answer: each scenario is simulated, 100,000 trials (--trials or --precision for another number)');
    // In contact from the start, in one turn, a plan changes no game: the same seeds play the very same games. Its verdicts say a battle's words.
    expect(quiet.stdout).toContain('With b.tactic=hold and with b.tactic=advance: no clear difference in how often the battle is a draw (difference 0.0 points, 95% interval 0.0 to 0.0 points).');
  });

  it('a sweep of warbands: each value of a side is read against the other side as given', async () => {
    const other = 'Ash Acolyte with Censer Flail x4';
    // The base's own warband for a, which the grid replaces, is checked against b's as given (not beside an empty side).
    const file = join(dir, 'warbands.json');
    writeFileSync(file, JSON.stringify({ kind: 'battle', roster: ROSTER, a: { warband: other }, b: { warband: B } }));
    const r = await json('sweep', file, '--vary', `a.warband="${A}","${other}"`, '--trials', '2000', '--batches', '2');
    const cells = (r.stdout as { cells: { values: Record<string, unknown>; simulation: { trials: number } }[] }).cells;
    expect(cells.map((c) => c.values['a.warband'])).toEqual([A, other]);
    // A warband no entry of the roster names is refused before any game, naming the value.
    const bad = await cliInProcess('sweep', '--kind', 'battle', '--roster', ROSTER, '--b', `warband=${B}`, '--vary', `a.warband="${other}",Nobody x2`, '--trials', '2000');
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^injury-lab: cell a\.warband="Nobody x2": a\.warband: "Nobody x2": "Nobody" is not a model[^\n]*\n$/);
    expect(bad.code).toBe(2);
  });

  it('refuses a bad battle scenario in one line naming the field', async () => {
    const refused = async (args: string[], line: string | RegExp) => {
      const r = await cliInProcess(...args);
      expect(r.stdout).toBe('');
      if (typeof line === 'string') expect(r.stderr).toBe(`injury-lab: ${line}\n`);
      else expect(r.stderr).toMatch(line);
      expect(r.stderr.split('\n').length).toBe(2);
      expect(r.code).toBe(2);
    };
    await refused(['simulate', '--kind', 'battle', '--a', `warband=${A}`, '--b', `warband=${B}`], 'kind: "battle" reads its warbands from a profiles file, roster or catalogue, and the scenario names none; give profiles FILE, or roster FILE and catalogue FILES (one or both)');
    await refused(['exact', '--kind', 'battle', '--roster', ROSTER, '--a', `warband=${A}`, '--b', `warband=${B}`], 'kind: "battle" has no exact answer: it is simulated only; allowed: injury-lab simulate, or sweep and compare (which simulate it)');
    await refused(['simulate', '--kind', 'battle', '--roster', ROSTER, '--a', `warband=${A}`, '--b', 'tactic=charge'], /^injury-lab: b\.warband: "" is not allowed; allowed: side b's warband/);
    await refused(['simulate', '--kind', 'battle', '--roster', ROSTER, '--a', `warband=${A},model=Cinder Brute`, '--b', `warband=${B}`], /^injury-lab: a\.model: not a field of a side; allowed: warband, tactic, blood\n$/);
    await refused(['simulate', '--kind', 'battle', '--roster', ROSTER, '--a', 'warband=Cinder Brute x0', '--b', `warband=${B}`], /^injury-lab: a\.warband: "Cinder Brute x0": count: "0" is not allowed; allowed: a whole number of models from 1 to 50/);
    await refused(['simulate', '--kind', 'battle', '--roster', ROSTER, '--a', `warband=${A}`, '--b', `warband=${B}`, '--ducats', '700'], /^injury-lab: a\.warband: a side fielded at --ducats 700 is one entry/);
  });
});

describe('a ranged weapon whose Range also says Melee (ruling B47)', () => {
  const profiles = join(dir, 'pistols.json');
  writeFileSync(
    profiles,
    JSON.stringify({
      system: 'trench-crusade',
      models: { Gunner: { armour: 'none', cost: 20, characteristicDice: { melee: 1, ranged: -1 } }, Target: { armour: 'standard', cost: 20 } },
      weapons: {
        'Auto Pistol': { attackType: 'ranged', rangeInches: 12, usableInMelee: true, keywords: ['AUTOMATIC 2'], cost: 5 },
        Knife: { attackType: 'melee', cost: 1 },
        Rifle: { attackType: 'ranged', rangeInches: 24, cost: 5 },
      },
    }),
  );
  const read = (a: string) => resolveBattle(checkBattleSettings({ profiles, a, b: 'Target' }, (n) => `--${n}`));

  it('fights in melee too, as a melee attack (the model\'s Melee dice, one attack: AUTOMATIC is a Shoot\'s), after the melee weapons', () => {
    const { battle, notes } = read('Gunner with Auto Pistol');
    const entry = battle.a.entries[0]!;
    expect(entry.weapons.map((w) => [w.name, w.ranged, w.attacks])).toEqual([
      ['Auto Pistol', true, 2],
      ['Auto Pistol (in melee)', false, 1],
    ]);
    const [shot, blow] = battle.a.attacks[0]!.map((byTarget) => byTarget[0]!);
    expect([shot!.attackType, shot!.attackDice, blow!.attackType, blow!.attackDice]).toEqual(['ranged', -1, 'melee', 1]);
    // It needs no unarmed blow (b's Target, with no weapon, does).
    expect(notes.filter((n) => n.startsWith('a:'))).toEqual([]);
    // With a melee weapon it is the off-hand: the second of the two that fight (ruling B28).
    expect(read('Gunner with Knife + Auto Pistol').battle.a.entries[0]!.weapons.filter((w) => !w.ranged).map((w) => w.name)).toEqual(['Knife', 'Auto Pistol (in melee)']);
    // A rifle's Range says no Melee: its model fights unarmed, and says so.
    const rifle = read('Gunner with Rifle');
    expect(rifle.battle.a.entries[0]!.weapons.map((w) => w.name)).toEqual(['Rifle', 'unarmed']);
    expect(rifle.notes.filter((n) => n.startsWith('a:'))).toEqual(["a: Gunner with Rifle: no melee weapon named: it fights unarmed, with no weapon's modifiers (ruling B28)"]);
  });

  it('is read from a roster\'s Range "8\\"/Melee", and not from a plain distance', async () => {
    const r = await cliInProcess('profiles', '--roster', ROSTER, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const weapons = (JSON.parse(r.stdout) as { weapons: Record<string, Record<string, unknown>> }).weapons;
    expect(weapons['Scrap Pistol']).toMatchObject({ attackType: 'ranged', rangeInches: 8, usableInMelee: true });
    expect(weapons['Ember Carbine']).toMatchObject({ attackType: 'ranged' });
    expect(weapons['Ember Carbine']!.usableInMelee).toBeUndefined();
  });
});

describe("the campaign's Field Strength (ruling B49)", () => {
  const settings = (a: string, more: Record<string, unknown> = {}) => checkBattleSettings({ roster: ROSTER, a, b: B, ...more }, (n) => `--${n}`);

  it('fields the first models in warband order, says what it left out, and plays the warband it fielded', async () => {
    const cut = resolveBattle(settings('Ash Acolyte with Censer Flail x3, Thorn Sentinel with Ember Carbine', { fieldStrength: 2 }));
    expect(cut.battle.a.entries.map((e) => [e.name, e.count])).toEqual([['Ash Acolyte with Censer Flail x2', 2]]);
    expect(cut.notes).toContain('a: field strength 2: the first 2 of its 4 models in warband order take the field; left out: Ash Acolyte with Censer Flail, Thorn Sentinel with Ember Carbine (ruling B49)');
    // b's two models are within it: as written.
    expect(cut.battle.b.entries.map((e) => e.count)).toEqual([1, 1]);
    // At equal ducats too: 700 ducats buy more Acolytes than a first battle's 10 take the field.
    const bought = resolveBattle(settings('Ash Acolyte with Censer Flail', { ducats: 700, b: 'Ash Acolyte with Censer Flail', fieldStrength: 10 }));
    expect(bought.battle.a.entries.map((e) => e.count)).toEqual([10]);
    // The same games as the warband written as fielded: a reading, nothing in the game.
    const args = ['--trials', '4000', '--seed', '9'];
    const capped = await json('battle', '--roster', ROSTER, '--a', 'Ash Acolyte with Censer Flail x3, Thorn Sentinel with Ember Carbine', '--b', B, '--field-strength', '2', ...args);
    const written = await json('battle', '--roster', ROSTER, '--a', 'Ash Acolyte with Censer Flail x2', '--b', B, ...args);
    expect(outcomeCounts(capped.stdout)).toEqual(outcomeCounts(written.stdout));
  });

  it('is no setting of price --by battles, whose warbands are bought at equal ducats', async () => {
    const r = await cliInProcess('price', '--by', 'battles', '--roster', ROSTER, '--field-strength', '10');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^injury-lab: [^\n]*field-strength[^\n]*\n$/);
  });
});
