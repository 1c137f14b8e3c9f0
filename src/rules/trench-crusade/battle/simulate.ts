/**
 * The battle simulator (issue 50): each trial is one game played as players would play it, turn by
 * turn, activation by activation, every die rolled one at a time: the initiative roll-off, each charge's
 * D6, each Dash's and morale check's success roll, and every attack by the sequence simulator's attack
 * roller (../sequence/attack-roller.ts), one roller per weapon and target entry (and per Ranged Attack
 * Modifier a shot can meet). The rulings are docs/rules.md's B1-B49.
 *
 * The game state lives in typed arrays made once per kernel: a trial allocates nothing.
 */
import type { Dice, SimKernel } from '../../../model/types.js';
import { rollAndKeep } from '../simulate.js';
import { AttackRoller } from '../sequence/attack-roller.js';
import { markerCapOf, riskyStrings } from '../sequence/rules.js';
import type { BattlePlan, BattleSide } from './plan.js';
import { A_WINS, B_WINS, BY_DRAW, BY_LAST_TURN, BY_MORALE, BY_WIPE_OUT, DRAW, battleEntryNames, battleGame, battleTallyCounter } from './report.js';
import type { ReportLayout } from '../../../model/types.js';


/** An enemy within this many inches may be declared the target of a charge (ruling B17). */
export const CHARGE_DECLARE_INCHES = 12;
/** A charge ends engaged when it ends within this many inches of its target (ruling B17). */
export const ENGAGE_INCHES = 1;
/** AUTOMATIC's further attacks of one action go to targets within this many inches of the first (ruling B22). */
const AUTOMATIC_SPREAD_INCHES = 6;
/** The turn extension (ruling B2): from the end of this turn on, a D6 of this or less ends the game. */
const EXTENSION_FROM_TURN = 4;
const EXTENSION_ENDS_ON = 2;
/** No model (an index of none). */
const NONE = -1;

/** Which of a shot's four rollers: long range and cover, each met or not. */
const variantOf = (longRange: boolean, cover: boolean) => (longRange ? 2 : 0) + (cover ? 1 : 0);

export function battleSimulator(plan: BattlePlan): SimKernel {
  const sides: readonly [BattleSide, BattleSide] = [plan.a, plan.b];
  const count = battleTallyCounter(plan.turns, battleEntryNames(plan));

  // Models, side a's first, each entry's copies together, in the warband's order (ruling B39).
  const first = [0, 0];
  const end = [0, 0];
  const sideOf: number[] = [];
  const entryOf: number[] = [];
  /** Each model's entry among both sides' (side a's entries first): where its counts go. */
  const tallyEntryOf: number[] = [];
  for (let s = 0; s < 2; s++) {
    first[s] = sideOf.length;
    sides[s]!.entries.forEach((e, ei) => {
      for (let k = 0; k < e.count; k++) {
        sideOf.push(s);
        entryOf.push(ei);
        tallyEntryOf.push(s === 0 ? ei : plan.a.entries.length + ei);
      }
    });
    end[s] = sideOf.length;
  }
  const n = sideOf.length;
  const startCount = [end[0]! - first[0]!, end[1]! - first[1]!];

  // rollers[s][e][w][t][variant]: side s's entry e's weapon w on the other side's entry t.
  const rollers: AttackRoller[][][][][] = [];
  const risky: boolean[][][] = [];
  for (let s = 0 as 0 | 1; s < 2; s = (s + 1) as 0 | 1) {
    const side = sides[s]!;
    const targets = sides[1 - s]!.entries;
    rollers.push(
      side.entries.map((entry, e) =>
        entry.weapons.map((weapon, w) =>
          targets.map((_, t) => {
            const variants = weapon.ranged ? [false, true].flatMap((longRange) => [false, true].map((cover) => [longRange, cover] as const)) : [[false, false] as const];
            return variants.map(([longRange, cover]) => {
              const seq = plan.attack(s, e, w, t, longRange, cover);
              return new AttackRoller({ ...seq, policy: side.blood === 'injury' ? 'all' : 'none' });
            });
          }),
        ),
      ),
    );
    risky.push(side.entries.map((entry, e) => entry.weapons.map((_, w) => riskyStrings(plan.attack(s, e, w, 0, false, false)))));
  }
  const some = plan.attack(0, 0, 0, 0, false, false);
  const rules = some.rules;
  const cap = markerCapOf(some.markerCap);
  const successDice = rules.successRoll.dice;
  const successHit = rules.successRoll.hit;
  // Dice per marker an enemy who hinders takes off a side's success rolls (ruling B31), 0 if it does not.
  const hinderDice = [0, 1].map((s) => (sides[1 - s]!.blood === 'hinder' && rules.markers.onOwnRolls ? rules.markers.ownRollDicePerMarker : 0));

  // Each entry's body as it starts (markers, Down, Tough, blessings) and its REGENERATE, read from a
  // roller aimed at it; its movement, ranged weapon of longest range, melee weapons (two at most, ruling B28).
  const startM = new Int32Array(n);
  const startD = new Uint8Array(n);
  const startTl = new Uint8Array(n);
  const startBl = new Uint8Array(n);
  const regen = new Int32Array(n);
  const movement = new Float64Array(n);
  const victoryPoints = new Float64Array(n);
  const rangedWeapon = new Int32Array(n).fill(NONE);
  const assaultWeapon = new Int32Array(n).fill(NONE);
  const meleeWeapons: number[][] = [];
  for (let i = 0; i < n; i++) {
    const s = sideOf[i]!;
    const t = entryOf[i]!;
    const entry = sides[s]!.entries[t]!;
    const body = rollers[1 - s]![0]![0]![t]![0]!;
    const bodySeq = plan.attack((1 - s) as 0 | 1, 0, 0, t, false, false);
    body.reset(bodySeq.bloodMarkers);
    startM[i] = body.m;
    startD[i] = body.d;
    startTl[i] = body.tl;
    startBl[i] = body.bl;
    regen[i] = bodySeq.regenerate;
    movement[i] = entry.movement;
    victoryPoints[i] = entry.victoryPoints;
    let longest = -1;
    entry.weapons.forEach((w, wi) => {
      if (!w.ranged) return;
      if (w.rangeInches > longest) {
        longest = w.rangeInches;
        rangedWeapon[i] = wi;
      }
      if (w.assault && assaultWeapon[i] === NONE) assaultWeapon[i] = wi;
    });
    meleeWeapons.push(entry.weapons.flatMap((w, wi) => (w.ranged ? [] : [wi])).slice(0, 2));
  }
  const weaponRange = sides.map((side) => side.entries.map((e) => e.weapons.map((w) => w.rangeInches)));
  const weaponAttacks = sides.map((side) => side.entries.map((e) => e.weapons.map((w) => w.attacks)));
  const tactics = sides.map((side) => side.tactic);
  // Each chance as a threshold of one 32-bit draw (ruling B43).
  const coverThreshold = Math.round(plan.coverChance * 2 ** 32);
  const elevationThreshold = Math.round(plan.elevationChance * 2 ** 32);
  const startEngaged = plan.startInches <= ENGAGE_INCHES;
  const byModels = plan.victory === 'models';
  // Dice off a model's success rolls in the activation it stands up in (ruling B9's playtest reading).
  const standUpDice = plan.standUp === 'half-move-minus-dice' ? 1 : 0;
  const extension = plan.turnExtension !== 'none';
  /** Failed morale checks in a row that lose the game (ruling B33). */
  const moraleLosingFails = plan.moraleLoss === 'first-failure' ? 1 : 2;

  // The game's state, one slot per model.
  const x = new Float64Array(n);
  const m = new Int32Array(n);
  const d = new Uint8Array(n);
  const tl = new Uint8Array(n);
  const bl = new Uint8Array(n);
  const out = new Uint8Array(n);
  const acted = new Uint8Array(n);
  const engaged = new Uint8Array(n * n);
  const engagedCount = new Int32Array(n);
  const entries = plan.a.entries.length + plan.b.entries.length;
  // The game's record, counted into the tally at its end: one object for every game.
  const game = battleGame(entries);
  const { lost, spent, standing: standingOf, takenOut: takenOutBy, attacks: attacksBy } = game;
  const fails = [0, 0];
  const kept = new Int32Array(8);
  let winner = NONE;
  let decidedBy = NONE;
  /** Did the last attack miss its success roll (a RISKY string then ends)? */
  let missed = false;
  /** Dice off the success rolls of the activating model this activation (it stood up: ruling B9). */
  let activationDice = 0;

  const forward = (s: number) => (s === 0 ? 1 : -1);
  const distance = (i: number, j: number) => Math.abs(x[i]! - x[j]!);

  function engage(i: number, j: number): void {
    if (engaged[i * n + j] === 1) return;
    engaged[i * n + j] = 1;
    engaged[j * n + i] = 1;
    engagedCount[i]! += 1;
    engagedCount[j]! += 1;
  }

  /** Model j is taken Out of Action by model i: off the battlefield, its engagements ended; a side with none left loses (ruling B1). */
  function takeOut(j: number, i: number): void {
    out[j] = 1;
    takenOutBy[tallyEntryOf[i]!]! += 1;
    const s = sideOf[j]!;
    lost[s]! += 1;
    for (let k = first[1 - s]!; k < end[1 - s]!; k++) {
      if (engaged[j * n + k] === 1) {
        engaged[j * n + k] = 0;
        engaged[k * n + j] = 0;
        engagedCount[k]! -= 1;
      }
    }
    engagedCount[j] = 0;
    if (lost[s] === startCount[s]) {
      winner = s === 0 ? B_WINS : A_WINS;
      decidedBy = BY_WIPE_OUT;
    }
  }

  /** The markers an enemy who hinders spends on model i's success roll, as dice off it (ruling B31). */
  function hindrance(i: number): number {
    const per = hinderDice[sideOf[i]!]!;
    if (per === 0 || m[i] === 0) return 0;
    const dice = m[i]! * per;
    spent[1 - sideOf[i]!]! += m[i]!;
    m[i] = 0;
    return dice;
  }

  /** A success roll of model i with `net` dice (a Dash's, ruling B15): does it pass? */
  function successRoll(net: number): boolean {
    const dice = successDice + (net < 0 ? -net : net);
    return rollAndKeep(rng0, dice, successDice, net >= 0, kept) >= successHit;
  }

  /**
   * Model i attacks model j with its weapon w, `extra` dice off its success roll: true when j goes Out of
   * Action. `own`: the attack is of i's own activation (its standing up's dice apply, ruling B9), not a
   * Retreat's free blow at another's (ruling B21).
   */
  function attackWith(i: number, w: number, j: number, longRange: boolean, cover: boolean, extra: number, own = true): boolean {
    const s = sideOf[i]!;
    const r = rollers[s]![entryOf[i]!]![w]![entryOf[j]!]![variantOf(longRange, cover)]!;
    r.m = m[j]!;
    r.d = d[j]!;
    r.tl = tl[j]!;
    r.bl = bl[j]!;
    const hindered = extra + hindrance(i) + (own ? activationDice : 0);
    const spentBefore = r.spent;
    attacksBy[tallyEntryOf[i]!]! += 1;
    const taken = r.attack(rng0, cap, undefined, 0, hindered);
    spent[s]! += r.spent - spentBefore;
    missed = r.missed;
    if (taken) {
      takeOut(j, i);
      return true;
    }
    m[j] = r.m;
    d[j] = r.d;
    tl[j] = r.tl;
    bl[j] = r.bl;
    return false;
  }

  /** The nearest enemy of model i (the first in warband order among equals); `free`: only one engaged with none of i's side. */
  function nearestEnemy(i: number, free: boolean): number {
    const o = 1 - sideOf[i]!;
    let best = NONE;
    let bestDistance = Infinity;
    for (let k = first[o]!; k < end[o]!; k++) {
      if (out[k] === 1 || (free && engagedCount[k]! > 0)) continue;
      const dk = distance(i, k);
      if (dk < bestDistance) {
        bestDistance = dk;
        best = k;
      }
    }
    return best;
  }

  /**
   * Model i moves up to `inches` toward the enemy lines, never ending within 1" of an enemy ahead of it
   * (ruling B14: only a Charge does; contact is made by charges alone, ruling B37).
   */
  function advance(i: number, inches: number): void {
    const s = sideOf[i]!;
    const o = 1 - s;
    const dir = forward(s);
    let limit = x[i]! + dir * inches;
    for (let k = first[o]!; k < end[o]!; k++) {
      if (out[k] === 1) continue;
      const ahead = (x[k]! - x[i]!) * dir;
      if (ahead < 0) continue;
      const stop = x[k]! - dir * ENGAGE_INCHES;
      if ((stop - limit) * dir < 0) limit = stop;
    }
    if ((limit - x[i]!) * dir > 0) x[i] = limit;
  }

  /** A Dash (ruling B15): a risky success roll, then a move of `inches`; false when it fails (the activation ends). */
  function dash(i: number, inches: number): boolean {
    if (!successRoll(-hindrance(i) - activationDice)) return false;
    advance(i, inches);
    return true;
  }

  /** The Fight action (rulings B27, B28): each melee weapon's attacks, the second weapon's at -1 DICE, a Down enemy first. */
  function fight(i: number): void {
    const weapons = meleeWeapons[i]!;
    const s = sideOf[i]!;
    const o = 1 - s;
    for (let k = 0; k < weapons.length; k++) {
      const w = weapons[k]!;
      const attacks = weaponAttacks[s]![entryOf[i]!]![w]!;
      for (let a = 0; a < attacks; a++) {
        if (engagedCount[i] === 0) return;
        let target = NONE;
        for (let j = first[o]!; j < end[o]!; j++) {
          if (engaged[i * n + j] !== 1) continue;
          if (target === NONE || (d[j] === 1 && d[target] === 0)) target = j;
        }
        attackWith(i, w, target, false, false, k > 0 ? 1 : 0);
        if (winner !== NONE) return;
        if (missed && risky[s]![entryOf[i]!]![w]) return;
      }
    }
  }

  /** A chance of the scenario's (cover, elevation): one draw below its threshold, none for a chance of 0. */
  const chance = (threshold: number) => threshold > 0 && rng0.below(threshold);

  /** The Shoot action with weapon w at model j (rulings B22-B23): AUTOMATIC's further shots at the nearest free enemy in range. */
  function shoot(i: number, w: number, j: number): void {
    const s = sideOf[i]!;
    const e = entryOf[i]!;
    const range = weaponRange[s]![e]![w]!;
    const attacks = weaponAttacks[s]![e]![w]!;
    let target = j;
    const firstAt = x[j]!;
    for (let a = 0; a < attacks; a++) {
      if (out[target] === 1) {
        // AUTOMATIC's targets are all within 6" of each other (ruling B22): of the first.
        target = nearestEnemy(i, true);
        if (target === NONE || distance(i, target) > range || Math.abs(x[target]! - firstAt) > AUTOMATIC_SPREAD_INCHES) return;
      }
      const longRange = distance(i, target) > range / 2;
      const cover = chance(coverThreshold);
      attackWith(i, w, target, longRange, cover, chance(elevationThreshold) ? -1 : 0);
      if (winner !== NONE) return;
      if (missed && risky[s]![e]![w]) return;
    }
  }

  /**
   * Charge model j (ruling B17): M + D6 (halved after standing up, ruling B9); within 1" of it at the
   * end, engaged, and the Fight follows; short of it, the model ends where its roll took it (ruling B18).
   */
  function charge(i: number, j: number, half: boolean): boolean {
    const roll = movement[i]! + rng0.d6();
    const reach = half ? roll / 2 : roll;
    if (reach >= distance(i, j) - ENGAGE_INCHES) {
      x[i] = x[j]! - forward(sideOf[i]!) * ENGAGE_INCHES;
      engage(i, j);
      fight(i);
      return true;
    }
    advance(i, reach);
    return false;
  }

  /**
   * The weakest enemy a charge of model i could reach from where it stands (ruling B45): within 12" and
   * M + 6; a Down one first (its +1 injury dice), then the one with most blood markers, then the nearest,
   * then the first in warband order. NONE when no enemy is in reach.
   */
  function weakestInReach(i: number, reachMax: number): number {
    const o = 1 - sideOf[i]!;
    let best = NONE;
    for (let k = first[o]!; k < end[o]!; k++) {
      if (out[k] === 1) continue;
      const dk = distance(i, k);
      if (dk > CHARGE_DECLARE_INCHES || dk - ENGAGE_INCHES > reachMax) continue;
      if (best === NONE || d[k]! > d[best]! || (d[k] === d[best] && (m[k]! > m[best]! || (m[k] === m[best] && dk < distance(i, best))))) best = k;
    }
    return best;
  }

  /**
   * A model that closes with the enemy (rulings B40-B42): the nearest enemy within 12" is charged, a
   * Dash first where only a Dash brings it within reach of a charge; farther, it Moves and Dashes toward
   * the enemy. Holding, it charges only an enemy a charge can reach from where it stands.
   */
  function close(i: number, half: boolean, holding: boolean, weakest = false): void {
    const mv = half ? movement[i]! / 2 : movement[i]!;
    const reachMax = half ? (movement[i]! + 6) / 2 : movement[i]! + 6;
    const within = weakest ? weakestInReach(i, reachMax) : NONE;
    const j = within !== NONE ? within : nearestEnemy(i, false);
    if (j === NONE) return;
    const gap = distance(i, j);
    if (gap <= CHARGE_DECLARE_INCHES && gap - ENGAGE_INCHES <= reachMax) {
      if (!charge(i, j, half) && !holding) dash(i, mv);
      return;
    }
    if (holding) return;
    const afterDash = gap - mv;
    if (afterDash <= CHARGE_DECLARE_INCHES && afterDash - ENGAGE_INCHES <= reachMax) {
      // Dash, then Charge (ruling B8's order): a failed Dash ends the activation. The Dash may stop
      // short (1" before another enemy ahead): the charge is declared only if the target is then within 12".
      if (dash(i, mv) && distance(i, j) <= CHARGE_DECLARE_INCHES) charge(i, j, half);
      return;
    }
    advance(i, mv);
    dash(i, mv);
  }

  /**
   * A model that shoots (rulings B40, B41): at the nearest enemy no friend is fighting (ruling B38), with
   * its ranged weapon of longest range; advancing, it first Moves until that enemy is within half the
   * range (no long range), and Dashes when it is still out of range. With no such enemy left it closes.
   */
  function shootOrClose(i: number, half: boolean, holding: boolean): void {
    const j = nearestEnemy(i, true);
    if (j === NONE) {
      close(i, half, holding);
      return;
    }
    const w = rangedWeapon[i]!;
    const range = weaponRange[sideOf[i]!]![entryOf[i]!]![w]!;
    const mv = half ? movement[i]! / 2 : movement[i]!;
    if (!holding && distance(i, j) > range / 2) advance(i, Math.min(mv, distance(i, j) - range / 2));
    if (distance(i, j) > range) {
      if (holding || !dash(i, mv) || distance(i, j) > range) return;
    }
    shoot(i, w, j);
  }

  /**
   * The Retreat action (ruling B21): each enemy engaged with model i makes one melee attack at it (its
   * first melee weapon, one attack), and unless that leaves it Down or Out of Action it moves its
   * Movement (halved after standing up) straight back from the enemy's line, out of every engagement.
   * False when it did not get away (a Down model's activation ends, ruling B13).
   */
  function retreat(i: number, half: boolean): boolean {
    const o = 1 - sideOf[i]!;
    for (let j = first[o]!; j < end[o]!; j++) {
      if (engaged[i * n + j] !== 1 || out[j] === 1) continue;
      if (attackWith(j, meleeWeapons[j]![0]!, i, false, false, 0, false) || winner !== NONE) return false;
      if (d[i] === 1) return false;
    }
    for (let j = first[o]!; j < end[o]!; j++) {
      if (engaged[i * n + j] !== 1) continue;
      engaged[i * n + j] = 0;
      engaged[j * n + i] = 0;
      engagedCount[j]! -= 1;
    }
    engagedCount[i] = 0;
    x[i]! -= forward(sideOf[i]!) * (half ? movement[i]! / 2 : movement[i]!);
    return true;
  }

  /** One activation of model i (rulings B6-B9): it stands up, REGENERATEs, and acts by its side's tactic. */
  function activate(i: number): void {
    acted[i] = 1;
    let half = false;
    activationDice = 0;
    if (d[i] === 1) {
      d[i] = 0;
      half = true;
      activationDice = standUpDice;
    }
    m[i] = m[i]! > regen[i]! ? m[i]! - regen[i]! : 0;
    const tactic = tactics[sideOf[i]!];
    if (engagedCount[i]! > 0) {
      // A skirmishing shooter Retreats and shoots (ruling B48): the nearest free enemy its weapon reaches, no Move or Charge after a Retreat (ruling B8).
      if (tactic === 'skirmish' && rangedWeapon[i] !== NONE) {
        if (!retreat(i, half)) return;
        const w = rangedWeapon[i]!;
        const j = nearestEnemy(i, true);
        if (j !== NONE && distance(i, j) <= weaponRange[sideOf[i]!]![entryOf[i]!]![w]!) shoot(i, w, j);
        return;
      }
      fight(i);
      return;
    }
    if (tactic === 'charge' || tactic === 'charge-weakest') {
      // An ASSAULT weapon may Shoot before the charge (ruling B10).
      const w = assaultWeapon[i]!;
      if (w !== NONE) {
        const j = nearestEnemy(i, true);
        if (j !== NONE && distance(i, j) <= weaponRange[sideOf[i]!]![entryOf[i]!]![w]!) {
          shoot(i, w, j);
          if (winner !== NONE) return;
        }
      }
      close(i, half, false, tactic === 'charge-weakest');
    } else if (rangedWeapon[i] !== NONE) shootOrClose(i, half, tactic === 'hold');
    else close(i, half, tactic === 'hold');
  }

  /** The next model of side s to activate: the first in warband order not yet activated this turn (ruling B39). */
  function nextOf(s: number): number {
    for (let k = first[s]!; k < end[s]!; k++) if (out[k] === 0 && acted[k] === 0) return k;
    return NONE;
  }

  /** Standing models (neither Down nor Out of Action) of side s: the initiative count (ruling B4). */
  function standing(s: number): number {
    let c = 0;
    for (let k = first[s]!; k < end[s]!; k++) if (out[k] === 0 && d[k] === 0) c++;
    return c;
  }

  /** Who activates first this turn (rulings B4, B5): fewer standing models, a roll-off on a tie. */
  function initiative(): number {
    if (plan.initiative === 'a') return 0;
    if (plan.initiative === 'b') return 1;
    const a = standing(0);
    const b = standing(1);
    if (a !== b) return a < b ? 0 : 1;
    for (;;) {
      const ra = rng0.d6();
      const rb = rng0.d6();
      if (ra !== rb) return ra > rb ? 0 : 1;
    }
  }

  /** The Morale phase (ruling B33): a side with half its models Down or Out of Action checks; two failures in a row lose (or the first, as the settings say). */
  function morale(): void {
    let loser = NONE;
    for (let s = 0; s < 2; s++) {
      let down = 0;
      for (let k = first[s]!; k < end[s]!; k++) if (out[k] === 0 && d[k] === 1) down++;
      if (2 * (lost[s]! + down) < startCount[s]!) {
        fails[s] = 0;
        continue;
      }
      if (successRoll(0)) fails[s] = 0;
      else fails[s]! += 1;
      if (fails[s]! >= moraleLosingFails) loser = loser === NONE ? s : 2;
    }
    if (loser === NONE) return;
    winner = loser === 2 ? DRAW : loser === 0 ? B_WINS : A_WINS;
    decidedBy = loser === 2 ? BY_DRAW : BY_MORALE;
  }

  let rng0: Dice;

  return {
    run(rng, trials, tally) {
      rng0 = rng;
      for (let t = 0; t < trials; t++) {
        for (let i = 0; i < n; i++) {
          x[i] = sideOf[i] === 0 ? 0 : plan.startInches;
          m[i] = startM[i]!;
          d[i] = startD[i]!;
          tl[i] = startTl[i]!;
          bl[i] = startBl[i]!;
          out[i] = 0;
          engagedCount[i] = 0;
        }
        engaged.fill(0);
        takenOutBy.fill(0);
        attacksBy.fill(0);
        spent[0] = 0;
        spent[1] = 0;
        if (startEngaged) {
          for (let i = first[0]!; i < end[0]!; i++) for (let j = first[1]!; j < end[1]!; j++) engage(i, j);
        }
        lost[0] = 0;
        lost[1] = 0;
        fails[0] = 0;
        fails[1] = 0;
        winner = NONE;
        decidedBy = NONE;
        let turn = 1;
        for (; turn <= plan.turns; turn++) {
          acted.fill(0);
          let side = initiative();
          for (;;) {
            let i = nextOf(side);
            if (i === NONE) {
              // One side has no model left to activate: the other activates the rest (ruling B7).
              side = 1 - side;
              i = nextOf(side);
              if (i === NONE) break;
            }
            activate(i);
            if (winner !== NONE) break;
            side = 1 - side;
          }
          if (winner === NONE && plan.morale) morale();
          if (winner !== NONE) break;
          // From the end of turn 4, a D6 of 1-2 may end the game before its last turn (ruling B2).
          if (extension && turn >= EXTENSION_FROM_TURN && turn < plan.turns && rng0.d6() <= EXTENSION_ENDS_ON) break;
        }
        const played = turn > plan.turns ? plan.turns : turn;
        if (winner === NONE) {
          // The game played out (ruling B35): victory points for the enemies each side took Out of Action,
          // or, with victory 'models', the models each side has left.
          let aScore = 0;
          let bScore = 0;
          for (let k = 0; k < n; k++) {
            if (byModels) {
              if (out[k] === 1) continue;
              if (sideOf[k] === 0) aScore += 1;
              else bScore += 1;
            } else {
              if (out[k] === 0) continue;
              if (sideOf[k] === 0) bScore += victoryPoints[k]!;
              else aScore += victoryPoints[k]!;
            }
          }
          winner = aScore > bScore ? A_WINS : bScore > aScore ? B_WINS : DRAW;
          decidedBy = winner === DRAW ? BY_DRAW : BY_LAST_TURN;
        }
        standingOf.fill(0);
        for (let k = 0; k < n; k++) if (out[k] === 0) standingOf[tallyEntryOf[k]!]! += 1;
        game.winner = winner;
        game.decidedBy = decidedBy;
        game.turns = played;
        count(tally, game);
      }
    },
  };
}
