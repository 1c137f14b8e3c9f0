import { describe, expect, it } from 'vitest';
import { type Fraction, ONE, ZERO, add, fraction, mul, sub } from '../src/exact/fraction.js';
import { meanOffset, tallyLength, tallyOffsets } from '../src/model/tally.js';
import type { ExactAnswer, TalliedTrials } from '../src/model/types.js';
import type { BattlePlan } from '../src/rules/trench-crusade/battle/plan.js';
import { A_WINS, B_WINS, BY_LAST_TURN, DRAW } from '../src/rules/trench-crusade/battle/report.js';
import { battleSimulator } from '../src/rules/trench-crusade/battle/simulate.js';
import { battleLayoutOf } from '../src/rules/trench-crusade/battle/report.js';
import { duelAnswer } from '../src/rules/trench-crusade/duel/exact.js';
import { Rng } from '../src/sim/rng.js';
import { FAMILY_ALPHA, crossCheck } from '../src/stats/cross-check.js';
import { normalQuantile } from '../src/stats/normal.js';
import { type PlainEntry, battlePlan } from './helpers/battle.js';
import { type Side, duelPlan } from './helpers/duel.js';

/**
 * Issue 50, part 1: the battle simulator. Each check's expected values are worked out by hand (a charge's
 * D6, a Dash's 21/36) or come from another engine (the exact duel chain) or from symmetry (a mirror
 * match); the seed is fixed, so a pass is no accident of the seed, and each statistical check is made at
 * the family error of `check` (1e-6).
 */
const SEED = 20261202;

function play(plan: BattlePlan, trials: number) {
  const layout = battleLayoutOf(plan);
  const tally = new Float64Array(tallyLength(layout));
  battleSimulator(plan).run(Rng.forChunk(SEED, 0), trials, tally);
  return { layout, trials, tally };
}

/**
 * A duel's exact answer as a battle of its two sides reports it: a win is the other model taken Out of
 * Action, so the game ends in the round it was won in (wiped out), and a duel undecided after its rounds
 * is a battle played to its last turn with no victory points on either side (a draw).
 */
function duelAsBattle(a: Side, b: Side, rounds: number): ExactAnswer {
  const duel = duelAnswer(duelPlan(a, b, 'a', rounds));
  const [aWins, bWins, undecided] = duel.outcomes as [Fraction, Fraction, Fraction];
  const [aWonIn, bWonIn] = duel.histograms as [readonly Fraction[], readonly Fraction[]];
  const endedIn: Fraction[] = [];
  let turns = ZERO;
  for (let r = 1; r <= rounds; r++) {
    const p = add(add(aWonIn[r - 1]!, bWonIn[r - 1]!), r === rounds ? undecided : ZERO);
    endedIn.push(p);
    turns = add(turns, mul(fraction(r), p));
  }
  return {
    outcomes: [aWins, bWins, undecided],
    // Turns played; a's and b's models taken out; then each side's one entry: standing at the end, enemies taken out.
    means: [turns, bWins, aWins, sub(ONE, bWins), aWins, sub(ONE, aWins), bWins],
    histograms: [endedIn, [add(aWins, bWins), ZERO, ZERO, undecided]],
  };
}

/** The means a duel's exact answer gives of a battle of its two sides, in duelAsBattle's order (markers spent and attacks made it does not). */
const DUEL_MEANS = ['turns', 'aOutOfAction', 'bOutOfAction', 'a.0.standing', 'a.0.takenOut', 'b.0.standing', 'b.0.takenOut'];

/** A run's tally with only the means `ids`, in that order (outcomes and histograms as they are). */
function keepMeans(run: TalliedTrials, ids: readonly string[]): TalliedTrials {
  const at = tallyOffsets(run.layout);
  const means = ids.map((id) => run.layout.means.findIndex((m) => m.id === id));
  const layout = { ...run.layout, means: means.map((i) => run.layout.means[i]!) };
  const tally = [...run.tally.slice(0, at.means), ...means.flatMap((i) => [run.tally[at.means + 2 * i]!, run.tally[at.means + 2 * i + 1]!]), ...run.tally.slice(at.histograms[0])];
  return { layout, trials: run.trials, tally: Float64Array.from(tally) };
}

/** P(the two kept of n d6 sum to 7 or more, a success roll's hit), the lowest two for -DICE, the highest for +DICE: every roll counted. */
function keptAtLeast7(n: number, lowest: boolean): number {
  let hits = 0;
  for (let r = 0; r < 6 ** n; r++) {
    const dice = Array.from({ length: n }, (_, i) => (Math.floor(r / 6 ** i) % 6) + 1).sort((x, y) => (lowest ? x - y : y - x));
    if (dice[0]! + dice[1]! >= 7) hits++;
  }
  return hits / 6 ** n;
}

/** The same side as a duel's `Side` and as a battle's one-model warband, in contact from the start. */
function duelSide(side: Side): PlainEntry {
  return {
    body: { armour: side.armour ?? 'none', tough: side.tough ?? false, bloodMarkers: side.bloodMarkers ?? 0, targetDown: side.down ?? false },
    weapons: [{ attacks: side.attacks ?? 1, fields: { attackDice: side.attackDice ?? 0, injuryDice: side.injuryDice ?? 0, injuryModifier: side.injuryModifier ?? 0 } }],
  };
}

describe('the battle simulator', () => {
  // 40 000 games of two models: a forgotten rule (a Down model's +1 injury dice, a marker spent) moves
  // some chance by a few percent, tens of standard errors.
  const cases: [string, Side, Side, number][] = [
    ['plain against plain', {}, {}, 5],
    ['armour and Tough against injury dice and two attacks', { armour: 'standard', tough: true, injuryDice: 1 }, { attacks: 2, attackDice: 1 }, 6],
    ['markers spent on injuries against markers spent hindering, one Down at the start', { policy: 'injury', tough: true, bloodMarkers: 1 }, { policy: 'hinder', attacks: 2, bloodMarkers: 2, down: true }, 5],
  ];
  for (const [name, a, b, rounds] of cases) {
    it(`one model against one, in contact, is the exact duel: ${name}`, () => {
      const plan = battlePlan(
        { entries: [duelSide(a)], blood: a.policy === 'injury' || a.policy === 'hinder' ? a.policy : 'none' },
        { entries: [duelSide(b)], blood: b.policy === 'injury' || b.policy === 'hinder' ? b.policy : 'none' },
        { turns: rounds, startInches: 0, initiative: 'a', morale: false },
      );
      const report = crossCheck(duelAsBattle(a, b, rounds), keepMeans(play(plan, 40_000), DUEL_MEANS));
      expect(report.failures).toEqual([]);
      expect(report.familyAlpha).toBe(FAMILY_ALPHA);
    });
  }

  /**
   * One turn of a's charge and a blow that always takes b Out of Action (an automatic hit at +10), against
   * a b that holds with Movement 0: a charge of its own (0 + D6) reaches a only from 7 inches or less, so
   * where b goes first a is farther away than that, and where a is nearer it goes first. Either way a
   * wins exactly when its own charge arrives.
   */
  const killer = { weapons: [{ fields: { autoHit: true, injuryModifier: 10 } }] };
  const sitter = { movement: 0 };
  const chargeWins = (a: PlainEntry, startInches: number) => {
    const initiative = startInches > 7 ? 'b' : 'a';
    const tally = play(battlePlan({ entries: [{ ...killer, ...a }] }, { entries: [sitter], tactic: 'hold' }, { turns: 1, startInches, initiative, morale: false }), 20_000).tally;
    return { aWins: tally[A_WINS]!, draws: tally[DRAW]!, bWins: tally[B_WINS]! };
  };
  /** Within the two-sided interval of the family error around n p. */
  const near = (count: number, p: number, n: number) => Math.abs(count - n * p) <= normalQuantile(1 - FAMILY_ALPHA / 2) * Math.sqrt(n * p * (1 - p));

  it("charges M + D6: 9 inches to cover from 10 away need a 3 or more (4/6); from 5 away it always arrives", () => {
    const far = chargeWins({}, 10);
    expect(near(far.aWins, 4 / 6, 20_000)).toBe(true);
    // b, 10 away, could not reach a: no game of b's.
    expect(far.aWins + far.draws).toBe(20_000);
    expect(chargeWins({}, 5).aWins).toBe(20_000);
  });

  it('a model that stands up charges half its M + D6 (ruling B9): 4 inches from 5 away need (6 + D6) / 2 >= 4, a 2 or more (5/6)', () => {
    expect(near(chargeWins({ body: { targetDown: true } }, 5).aWins, 5 / 6, 20_000)).toBe(true);
  });

  it('Dashes first when only a Dash brings a charge within reach: 16 away, a Dash passed (21/36) then a 3 or more (4/6), 7/18', () => {
    expect(near(chargeWins({}, 16).aWins, 7 / 18, 20_000)).toBe(true);
  });

  it('gives the initiative to the side with fewer standing models (ruling B4)', () => {
    // a: one Tough killer; b: two killers, all in contact. Turn 1: a (1 standing against 2) kills one, the
    // other's blow is saved by Tough and leaves a Down. Turn 2: a (0 standing against 1) goes first,
    // stands and kills the last. Were the side with more standing models first, b would strike first in
    // turn 1 and, a's Tough spent, take it Out of Action before a could strike twice.
    const tally = play(battlePlan({ entries: [{ ...killer, body: { tough: true } }] }, { entries: [{ ...killer, count: 2 }] }, { turns: 2, startInches: 0, morale: false }), 100).tally;
    expect(tally[A_WINS]).toBe(100);
  });

  it("spends an AUTOMATIC weapon's further shots only on targets within 6\" of the first (ruling B22)", () => {
    // b goes first: its runner (Movement 8) Moves and Dashes from 24" to 8" (or 16" if the Dash fails)
    // while its sitter (Movement 0) stays at 24". a's two automatic killing shots (range 48") take the
    // runner, and the second finds the sitter 8" or more from it: no shot. One turn: a wins on victory
    // points, never by wiping b out, and b's sitter is always standing.
    const gun = { weapons: [{ ranged: true, rangeInches: 48, attacks: 2, fields: { autoHit: true, injuryModifier: 10 } }, {}] };
    const { tally, layout } = play(
      battlePlan({ entries: [gun], tactic: 'hold' }, { entries: [{ name: 'runner', movement: 8 }, { name: 'sitter', movement: 0 }] }, { turns: 1, initiative: 'b', morale: false }),
      200,
    );
    expect(tally[A_WINS]).toBe(200);
    const decided = layout.outcomes.length + 2 * layout.means.length + 1;
    expect(tally[decided + BY_LAST_TURN]).toBe(200);
  });

  it('loses on two failed morale checks in a row (ruling B33): q^2 (1 + p) over three turns, p = 21/36 a pass; on the first with moraleLoss first-failure, 1 - p^3', () => {
    // a, a GOLEM (only a Bloodbath takes it Out of Action) that cannot move, holds 24" away; b's gun hits
    // automatically at +10, 48" of range, and leaves it Down every turn. So a ends every turn with its one
    // model Down and checks morale (2D6, 7+ passes: p = 21/36), b never: a loses at its second failure in a
    // row, within three turns by F F or S F F, q^2 (1 + p); otherwise a draw, no one taken out.
    const p = 21 / 36;
    const q = 1 - p;
    const trials = 20_000;
    const { tally } = play(
      battlePlan(
        { entries: [{ movement: 0, body: { golem: true } }], tactic: 'hold', blood: 'none' },
        { entries: [{ weapons: [{ ranged: true, rangeInches: 48, fields: { autoHit: true, injuryModifier: 10 } }, {}] }], tactic: 'hold', blood: 'none' },
        { turns: 3, initiative: 'a', morale: true },
      ),
      trials,
    );
    expect(tally[A_WINS]).toBe(0);
    expect(near(tally[B_WINS]!, q * q * (1 + p), trials)).toBe(true);
    expect(tally[B_WINS]! + tally[DRAW]!).toBe(trials);
    // The playtest's Trench Warfare: the first failure loses, so a survives three turns only by passing all three, p^3.
    const firstFailure = play(
      battlePlan(
        { entries: [{ movement: 0, body: { golem: true } }], tactic: 'hold', blood: 'none' },
        { entries: [{ weapons: [{ ranged: true, rangeInches: 48, fields: { autoHit: true, injuryModifier: 10 } }, {}] }], tactic: 'hold', blood: 'none' },
        { turns: 3, initiative: 'a', morale: true, moraleLoss: 'first-failure' },
      ),
      trials,
    ).tally;
    expect(near(firstFailure[B_WINS]!, 1 - p ** 3, trials)).toBe(true);
    expect(firstFailure[B_WINS]! + firstFailure[DRAW]!).toBe(trials);
  });

  it('a skirmishing shooter in melee Retreats, taking each engaged enemy\'s one blow, then shoots (rulings B21, B48)', () => {
    // a's gun kills with every shot (automatic hit at +10, 24" of range); a and b start in contact, a goes
    // first, one turn. Skirmishing, a Retreats: b's fist strikes once first (7+ on 2D6 hits, 20/36 a plain
    // hit and 1/36 a critical at +1 injury dice), and a Down or Out of Action result (7+ on the injury roll,
    // keep the best two of three dice on a critical) keeps it there; otherwise a steps back and shoots b
    // Out of Action. So a wins exactly when b's blow does not stop it. Advancing instead, a Fights with its
    // fist and can never shoot in contact: it wins less often.
    const gunner = { weapons: [{ ranged: true, rangeInches: 24, fields: { autoHit: true, injuryModifier: 10 } }, {}] };
    const trials = 40_000;
    const game = { turns: 1, startInches: 0, initiative: 'a', morale: false } as const;
    const stopped = (20 / 36) * keptAtLeast7(2, false) + (1 / 36) * keptAtLeast7(3, false);
    const skirmish = play(battlePlan({ entries: [gunner], tactic: 'skirmish' }, { entries: [{}] }, game), trials);
    expect(near(skirmish.tally[A_WINS]!, 1 - stopped, trials)).toBe(true);
    // a shoots once in every game it gets away, and only then.
    expect(skirmish.tally[meanOffset(skirmish.layout, 'a.0.attacks')]!).toBe(skirmish.tally[A_WINS]!);
    const advancing = play(battlePlan({ entries: [gunner], tactic: 'advance' }, { entries: [{}] }, game), trials);
    expect(advancing.tally[A_WINS]!).toBeLessThan(skirmish.tally[A_WINS]! / 2);
  });

  it('counts the attacks each entry makes and the blood markers each side spends, on injuries and to hinder', () => {
    // Two GOLEMs in contact (only a Bloodbath takes one Out of Action), each hit automatically at +10: every
    // blow leaves the other Down with one blood marker. a spends the markers on b on its injury rolls; b spends
    // those on a against a's success rolls (an automatic hit rolls none, so nothing changes but the count).
    // Each turn each strikes once; from the second on each has one marker to spend: over 4 turns, 4 attacks
    // and 3 markers a side, in every game, and no one taken out (a draw).
    const golem = { body: { golem: true }, weapons: [{ fields: { autoHit: true, injuryModifier: 10 } }] };
    const trials = 500;
    const { tally, layout } = play(battlePlan({ entries: [golem], blood: 'injury' }, { entries: [golem], blood: 'hinder' }, { turns: 4, startInches: 0, initiative: 'a', morale: false }), trials);
    const mean = (id: string) => tally[meanOffset(layout, id)]! / trials;
    expect(tally[DRAW]).toBe(trials);
    expect([mean('a.0.attacks'), mean('b.0.attacks'), mean('aMarkersSpent'), mean('bMarkersSpent')]).toEqual([4, 4, 3, 3]);
  });

  it("charges the nearest with tactic charge, and the weakest in reach with charge-weakest: a Down enemy before a standing one (ruling B45)", () => {
    // a's killer goes first, 5" from b's two models: the first standing, the second Down (as it starts).
    // Either charge arrives (6 + D6 >= 4) and its blow takes the target out; one turn, then b's survivor
    // stands. charge takes the first in warband order (the nearer of equals), charge-weakest the Down one.
    const standingAfter = (tactic: 'charge' | 'charge-weakest') => {
      const { tally, layout } = play(
        battlePlan({ entries: [killer], tactic }, { entries: [{ name: 'standing', movement: 0 }, { name: 'down', movement: 0, body: { targetDown: true } }], tactic: 'hold' }, { turns: 1, startInches: 5, initiative: 'a', morale: false }),
        100,
      );
      return ['b.0.standing', 'b.1.standing'].map((id) => tally[meanOffset(layout, id)]! / 100);
    };
    expect(standingAfter('charge')).toEqual([0, 1]);
    expect(standingAfter('charge-weakest')).toEqual([1, 0]);
  });

  it('shoots with -1 DICE beyond half its range and into cover, +1 DICE from above (rulings B23, B43), against brute-force counts', () => {
    // a's rifle (24") kills on any hit; b cannot reach it (Movement 0). One turn, a first: a wins when its one shot hits.
    const rifle = { weapons: [{ ranged: true, rangeInches: 24, fields: { injuryModifier: 10 } }, {}] };
    const shot = (startInches: number, coverChance: number, elevationChance: number) =>
      play(battlePlan({ entries: [rifle], tactic: 'hold' }, { entries: [{ movement: 0 }], tactic: 'hold' }, { turns: 1, startInches, initiative: 'a', morale: false, coverChance, elevationChance }), 20_000).tally[A_WINS]!;
    expect(near(shot(12, 0, 0), keptAtLeast7(2, false), 20_000)).toBe(true);
    expect(near(shot(18, 0, 0), keptAtLeast7(3, true), 20_000)).toBe(true);
    expect(near(shot(12, 1, 0), keptAtLeast7(3, true), 20_000)).toBe(true);
    expect(near(shot(18, 1, 0), keptAtLeast7(4, true), 20_000)).toBe(true);
    expect(near(shot(12, 0, 1), keptAtLeast7(3, false), 20_000)).toBe(true);
    // Beyond its range, no shot at all.
    expect(shot(30, 0, 0)).toBe(0);
  });

  it("ends from turn 4 on a D6 of 1-2 with the turn extension (ruling B2), and wins on models left with victory 'models' (ruling B35)", () => {
    // Two lines holding out of range: nothing happens, so only the extension ends a game early. Over 6
    // turns: 1/3 end at turn 4, 2/3 x 1/3 at turn 5, the other 4/9 play turn 6.
    const line = { entries: [{ count: 2, weapons: [{ ranged: true, rangeInches: 12 }, {}] }], tactic: 'hold' as const };
    const trials = 20_000;
    const { tally, layout } = play(battlePlan(line, line, { turns: 6, turnExtension: 'd6-ends-on-1-2-after-turn-4' }), trials);
    const ended = layout.outcomes.length + 2 * layout.means.length;
    expect([0, 1, 2].map((t) => tally[ended + t])).toEqual([0, 0, 0]);
    expect(near(tally[ended + 3]!, 1 / 3, trials) && near(tally[ended + 4]!, 2 / 9, trials) && near(tally[ended + 5]!, 4 / 9, trials)).toBe(true);
    // One holding model against two, out of each other's range: no one is taken out. On victory points
    // that is a draw; on models left, b's two against a's one win.
    const one = { entries: [{ weapons: [{ ranged: true, rangeInches: 12 }, {}] }], tactic: 'hold' as const };
    const two = { entries: [{ count: 2, weapons: [{ ranged: true, rangeInches: 12 }, {}] }], tactic: 'hold' as const };
    const over = (victory: 'points' | 'models') => play(battlePlan(one, two, { turns: 2, victory }), 100).tally;
    expect(over('points')[DRAW]).toBe(100);
    expect(over('models')[B_WINS]).toBe(100);
  });

  it('stands a Down model up at half its move, and with standUp half-move-minus-dice at -1 DICE too (ruling B9)', () => {
    // a, Down, 5" away, charges (6 + D6) / 2 >= 4 (5/6) and strikes once, a hit (+10 to injure) taking b out.
    const striker = { body: { targetDown: true }, weapons: [{ fields: { injuryModifier: 10 } }] };
    const wins = (standUp: 'half-move' | 'half-move-minus-dice') =>
      play(battlePlan({ entries: [striker] }, { entries: [{ movement: 0 }], tactic: 'hold' }, { turns: 1, startInches: 5, initiative: 'a', morale: false, standUp }), 20_000).tally[A_WINS]!;
    expect(near(wins('half-move'), (5 / 6) * keptAtLeast7(2, false), 20_000)).toBe(true);
    expect(near(wins('half-move-minus-dice'), (5 / 6) * keptAtLeast7(3, true), 20_000)).toBe(true);
  });

  it('is a draw on victory points when no one can reach anyone: two lines of riflemen holding out of range', () => {
    const line = { entries: [{ count: 3, weapons: [{ ranged: true, rangeInches: 12 }, {}] }], tactic: 'hold' as const };
    const { tally, layout } = play(battlePlan(line, line, { turns: 4, startInches: 24 }), 200);
    expect(tally[DRAW]).toBe(200);
    // Every game went its four turns and ended with no victory points: none was decided by them.
    expect(tally.slice(layout.outcomes.length + 2 * layout.means.length, layout.outcomes.length + 2 * layout.means.length + 4)).toEqual(new Float64Array([0, 0, 0, 200]));
    expect(tally[layout.outcomes.length + 2 * layout.means.length + 4 + BY_LAST_TURN]).toBe(0);
  });

  it('a mirror match is even: the same warband on both sides, initiative by the rules, wins a and b equally often', () => {
    // Riflemen, a Tough brute and a pistol-and-sword leader, advancing into each other with cover about.
    const warband = {
      entries: [
        { name: 'rifleman', count: 4, victoryPoints: 4, weapons: [{ ranged: true, rangeInches: 24, fields: { injuryDice: 0 } }, {}], body: { armour: 'standard' } },
        { name: 'brute', count: 2, victoryPoints: 9, weapons: [{ fields: { injuryDice: 1 } }], body: { armour: 'reinforced', tough: true } },
        { name: 'leader', victoryPoints: 6, weapons: [{ ranged: true, rangeInches: 12, attacks: 2 }, { fields: { attackDice: 1 } }, {}] },
      ],
      blood: 'injury' as const,
    };
    const trials = 20_000;
    const { tally } = play(battlePlan(warband, warband, { coverChance: 0.25 }), trials);
    const a = tally[A_WINS]!;
    const b = tally[B_WINS]!;
    // By symmetry a and b win equally often: given a + b decided games, a's wins are Binomial(a + b, 1/2).
    const z = (a - b) / Math.sqrt(a + b);
    expect(Math.abs(z)).toBeLessThan(normalQuantile(1 - FAMILY_ALPHA / 2));
    // A game in which each side takes the other's models Out of Action: the tally shows some of each.
    expect(a).toBeGreaterThan(trials / 10);
    expect(b).toBeGreaterThan(trials / 10);
  });
});


