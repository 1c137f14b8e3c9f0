import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { formatFraction, fraction } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { simulatorDisagreements } from './helpers/agree.js';
import { keptTotals } from './helpers/brute.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import { runInThread } from '../src/sim/chunks.js';
import { CHUNK_SIZE } from '../src/sim/protocol.js';
import { crossCheck } from '../src/stats/cross-check.js';

/**
 * The Ranged Attack Modifiers of cover and long range (ruling T30) and the profiles that change them
 * (ruling T31). A ranged attack on a target in cover gets -1 DICE on its success roll, one beyond half
 * the weapon's range another; IGNORE COVER / IGNORE LONG RANGE take theirs away; a melee attack never
 * gets either.
 *
 * Hand count of the success roll in cover, 2D6 with -1 DICE = 3D6 keep the 2 lowest: a hit needs the two
 * lowest dice a <= b (of a <= b <= c) to make 7 or more. The sets and their orderings:
 *   a=1: {1,6,6} 3;  a=2: {2,5,5} 3, {2,5,6} 6, {2,6,6} 3 = 12;
 *   a=3: {3,4,4} 3, {3,4,5} 6, {3,4,6} 6, {3,5,5} 3, {3,5,6} 6, {3,6,6} 3 = 27;
 *   a=4: {4,4,4} 1, {4,4,5} 3, {4,4,6} 3, {4,5,5} 3, {4,5,6} 6, {4,6,6} 3 = 19;
 *   a=5: {5,5,5} 1, {5,5,6} 3, {5,6,6} 3 = 7;  a=6: {6,6,6} 1.
 * 3 + 12 + 27 + 19 + 7 + 1 = 69 of 216 hit: P(miss) = 147/216 = 49/72 (plain 2D6: 15/36 = 5/12), and the one
 * critical is {6,6,6}, 1/216. With both modifiers, 4D6 keep the 2 lowest, the brute force below counts
 * 225 of 1296 hits: P(miss) = 1071/1296 = 119/144.
 */

/**
 * P(Out of Action) of one core attack on an unarmoured target with `successNet` dice on the success roll
 * and `injuryNet` on the injury roll, every die enumerated: success 2D6 + dice keep 2, 7+ hits, 12+ a
 * critical (+1 injury die); injury 2D6 + dice keep 2, 9+ Out of Action.
 */
function bruteOutOfAction(successNet: number, injuryNet: number): string {
  const pool = (net: number) => 2 + Math.abs(net);
  const injuryPools = [pool(injuryNet), pool(injuryNet + 1)];
  const widest = Math.max(...injuryPools);
  let out = 0n;
  for (const [success, ways] of keptTotals(pool(successNet), 2, successNet < 0)) {
    if (success < 7) continue;
    const net = injuryNet + (success >= 12 ? 1 : 0);
    for (const [kept, w] of keptTotals(pool(net), 2, net < 0)) if (kept >= 9) out += ways * w * 6n ** BigInt(widest - pool(net));
  }
  return formatFraction(fraction(out, 6n ** BigInt(pool(successNet) + widest)));
}

const answer = (fields: Record<string, unknown>) => evaluateExact(parseScenario({ kind: 'attack', ...fields })).outcomes;
const chance = (fields: Record<string, unknown>, outcome: string) => answer(fields).find((o) => o.outcome === outcome)!.exact;
const ranged = { attackType: 'ranged' } as const;

describe('cover and long range: -1 DICE each on a ranged success roll (ruling T30)', () => {
  it('in cover: the hand count (miss 49/72) and the brute force of the whole attack', () => {
    expect(chance({ ...ranged, targetInCover: true }, 'miss')).toBe('49/72');
    expect(chance({ ...ranged }, 'miss')).toBe('5/12');
    expect(chance({ ...ranged, targetInCover: true }, 'out-of-action')).toBe(bruteOutOfAction(-1, 0));
    // Long range alone is the same one die less.
    expect(answer({ ...ranged, longRange: true })).toEqual(answer({ ...ranged, targetInCover: true }));
  });

  it('both: 4D6 keep the 2 lowest (miss 119/144), and they net with the weapon\'s dice', () => {
    expect(chance({ ...ranged, targetInCover: true, longRange: true }, 'miss')).toBe('119/144');
    expect(chance({ ...ranged, targetInCover: true, longRange: true, injuryDice: 1 }, 'out-of-action')).toBe(bruteOutOfAction(-2, 1));
    // +1 DICE from the weapon cancels one of them: the roll is in cover alone.
    expect(answer({ ...ranged, targetInCover: true, longRange: true, attackDice: 1 })).toEqual(answer({ ...ranged, targetInCover: true }));
  });

  it('a melee attack gets neither', () => {
    expect(answer({ attackType: 'melee', targetInCover: true, longRange: true })).toEqual(answer({ attackType: 'melee' }));
  });

  it('IGNORE COVER and IGNORE LONG RANGE each cancel their own modifier only', () => {
    expect(answer({ ...ranged, targetInCover: true, ignoreCover: true })).toEqual(answer(ranged));
    expect(answer({ ...ranged, longRange: true, ignoreLongRange: true })).toEqual(answer(ranged));
    expect(answer({ ...ranged, targetInCover: true, longRange: true, ignoreCover: true })).toEqual(answer({ ...ranged, attackDice: -1 }));
    expect(answer({ ...ranged, targetInCover: true, longRange: true, ignoreLongRange: true })).toEqual(answer({ ...ranged, attackDice: -1 }));
  });

  it('the keywords give the fields: a weapon with both IGNORE keywords shoots as in the open', async () => {
    const exact = async (...args: string[]) => {
      const r = await cliInProcess('exact', '--kind', 'attack', '--attack-type', 'ranged', '--format', 'json', ...args);
      expect([r.code, r.stderr]).toEqual([0, '']);
      return (JSON.parse(r.stdout) as { outcomes: { exact: string }[] }).outcomes.map((o) => o.exact);
    };
    const open = await exact();
    expect(await exact('--target-in-cover', '--long-range', '--weapon-keywords', 'IGNORE COVER, IGNORE LONG RANGE')).toEqual(open);
    expect(await exact('--target-in-cover', '--long-range', '--weapon-keywords', 'IGNORE COVER')).not.toEqual(open);
  });

  it('in a sequence too: each attack of the string gets them', () => {
    const seq = (fields: Record<string, unknown>) => evaluateExact(parseScenario({ kind: 'sequence', attacks: 3, policy: 'all', ...ranged, ...fields })).outcomes;
    expect(seq({ targetInCover: true, longRange: true })).toEqual(seq({ attackDice: -2 }));
    expect(seq({ targetInCover: true, ignoreCover: true })).toEqual(seq({}));
    expect(seq({ targetInCover: true, attackType: 'melee' })).toEqual(seq({ attackType: 'melee' }));
  });
});

describe('profiles that change them (ruling T31)', () => {
  it("a target's coverDice is its Cover modifier; the rules' number is its default", () => {
    expect(answer({ ...ranged, targetInCover: true, coverDice: -2 })).toEqual(answer({ ...ranged, attackDice: -2 }));
    // Its default is the rule table's (a variant's rules.ranged.coverDice changes it; the table's is -1).
    const plain = parseScenario({ kind: 'attack' }) as unknown as { coverDice: number; rules: { ranged: { coverDice: number; longRangeDice: number } } };
    expect([plain.coverDice, plain.rules.ranged.coverDice, plain.rules.ranged.longRangeDice]).toEqual([-1, -1, -1]);
    // Out of cover it does nothing.
    expect(answer({ ...ranged, coverDice: -2 })).toEqual(answer(ranged));
  });

  it("a weapon's coverAndLongRangeDice replaces each modifier that applies: +1 each, +2 for both", () => {
    expect(answer({ ...ranged, targetInCover: true, coverAndLongRangeDice: 1 })).toEqual(answer({ ...ranged, attackDice: 1 }));
    expect(answer({ ...ranged, targetInCover: true, longRange: true, coverAndLongRangeDice: 1 })).toEqual(answer({ ...ranged, attackDice: 2 }));
    // Neither applies: nothing to replace.
    expect(answer({ ...ranged, coverAndLongRangeDice: 1 })).toEqual(answer(ranged));
    // A modifier the weapon ignores does not apply, so it is not replaced either.
    expect(answer({ ...ranged, targetInCover: true, longRange: true, ignoreCover: true, coverAndLongRangeDice: 1 })).toEqual(answer({ ...ranged, attackDice: 1 }));
    expect(answer({ attackType: 'melee', targetInCover: true, coverAndLongRangeDice: 1 })).toEqual(answer({ attackType: 'melee' }));
  });

  it("the weapon's number wins over the target's coverDice: +1 against a cloak's -2", () => {
    expect(answer({ ...ranged, targetInCover: true, coverDice: -2, coverAndLongRangeDice: 1 })).toEqual(answer({ ...ranged, attackDice: 1 }));
  });

  it("injuryDiceInCover: the weapon's injury dice against a target in cover, whatever IGNORE COVER says", () => {
    // In cover with IGNORE COVER the success roll is the open one; the injury roll gets -1 INJURY DICE.
    expect(chance({ ...ranged, targetInCover: true, ignoreCover: true, injuryDiceInCover: -1 }, 'out-of-action')).toBe(bruteOutOfAction(0, -1));
    expect(answer({ ...ranged, targetInCover: true, injuryDiceInCover: -1 })).toEqual(answer({ ...ranged, targetInCover: true, injuryDice: -1 }));
    expect(answer({ ...ranged, injuryDiceInCover: -1 })).toEqual(answer(ranged));
  });
});

describe('both engines agree (fixed seeds, 200 000 trials at check\'s significance)', () => {
  it.each([
    [{ kind: 'attack', ...ranged, targetInCover: true, coverDice: -2, injuryDiceInCover: -1 }, 61],
    [{ kind: 'attack', ...ranged, targetInCover: true, longRange: true, coverAndLongRangeDice: 1, armour: 'standard' }, 62],
    [{ kind: 'attack', ...ranged, longRange: true, targetInCover: true, ignoreLongRange: true, injuryDiceInCover: 1 }, 63],
    [{ kind: 'sequence', attacks: 3, policy: 'all', ...ranged, targetInCover: true, longRange: true, injuryDiceInCover: -1 }, 64],
    [{ kind: 'sequence', attacks: 3, policy: 'all', ...ranged, targetInCover: true, coverDice: -3, coverAndLongRangeDice: 1, longRange: true }, 65],
    // The optimal policy's decisions are read from the same rows: its simulator plays them.
    [{ kind: 'sequence', attacks: 3, policy: 'optimal', bloodMarkers: 2, ...ranged, targetInCover: true, longRange: true, injuryDiceInCover: 1 }, 70],
  ])('%o', (fields, seed) => {
    expect(simulatorDisagreements(fields, seed)).toEqual([]);
  });

  it('the check catches a simulator that forgets them (the same check, the open shot simulated)', () => {
    for (const [fields, seed] of [
      [{ kind: 'attack', ...ranged, targetInCover: true }, 67],
      [{ kind: 'attack', ...ranged, targetInCover: true, coverDice: -2, coverAndLongRangeDice: 1 }, 68],
      [{ kind: 'attack', ...ranged, targetInCover: true, ignoreCover: true, injuryDiceInCover: -1 }, 69],
    ] as const) {
      const s = parseScenario(fields);
      const forgot = parseScenario({ ...fields, targetInCover: false });
      const { kind } = resolveKind(s);
      const layout = kind.layout(s);
      const trials = 200_000;
      const tally = runInThread(kind.simulator(forgot), tallyLength(layout), { trials, seed, chunkSize: CHUNK_SIZE });
      expect(crossCheck(evaluateExact(s).answer, { layout, trials, tally }).failures, JSON.stringify(fields)).not.toEqual([]);
    }
  });
});

describe('the answer names the case it assumed', () => {
  it('a ranged attack says whether the target is in cover and at long range, the defaults too; a melee one says nothing', async () => {
    const lines = async (...args: string[]) => (await cliInProcess('exact', '--kind', 'attack', ...args)).stdout.split('\n');
    expect(await lines('--attack-type', 'ranged')).toContain("  Ranged attack: the target not in cover; within half the weapon's range");
    expect(await lines('--attack-type', 'ranged', '--target-in-cover', '--cover-dice', '-2', '--long-range', '--weapon-keywords', 'IGNORE LONG RANGE')).toContain(
      '  Ranged attack: the target in cover (-2 DICE); at long range, ignored (IGNORE LONG RANGE)',
    );
    expect((await lines('--attack-type', 'melee')).some((l) => l.includes('Ranged attack'))).toBe(false);
    const json = await cliInProcess('exact', '--kind', 'sequence', '--attack-type', 'ranged', '--target-in-cover', '--attacks', '2', '--format', 'json');
    const scenario = (JSON.parse(json.stdout) as { scenario: Record<string, unknown> }).scenario;
    expect([scenario.targetInCover, scenario.longRange, scenario.coverDice, scenario.coverAndLongRangeDice]).toEqual([true, false, -1, 'usual']);
  });

  it('a value out of range is one line naming the field, the value and what is allowed', async () => {
    for (const [flag, value, message] of [
      ['--cover-dice', '1', 'injury-lab: coverDice: 1 is not allowed; allowed: a whole number from -3 to 0'],
      ['--cover-and-long-range-dice', '4', 'injury-lab: coverAndLongRangeDice: 4 is not allowed; allowed: a whole number from -3 to 3, or "usual"'],
      ['--injury-dice-in-cover', '-4', 'injury-lab: injuryDiceInCover: -4 is not allowed; allowed: a whole number from -3 to 3'],
    ] as const) {
      const r = await cliInProcess('exact', '--kind', 'attack', `${flag}=${value}`);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(message);
    }
  });

  it("a duel's sides take the weapon's and the model's fields, which change nothing there: its attacks are melee", async () => {
    const duel = async (...args: string[]) => {
      const r = await cliInProcess('exact', '--kind', 'duel', '--rounds', '3', '--format', 'json', ...args);
      expect([r.code, r.stderr]).toEqual([0, '']);
      return (JSON.parse(r.stdout) as { outcomes: { exact: string }[] }).outcomes.map((o) => o.exact);
    };
    expect(await duel('--a', 'coverAndLongRangeDice=1,ignoreCover=true,injuryDiceInCover=-1', '--b', 'coverDice=-2,injuryDiceInCover=2')).toEqual(await duel('--a', 'injuryDice=0', '--b', 'injuryDice=0'));
  });

  it('a duel side has neither condition: its attacks are melee', async () => {
    const r = await cliInProcess('exact', '--kind', 'duel', '--a', 'targetInCover=true', '--b', 'injuryDice=0');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('a.targetInCover: not a field of a side');
  });
});
