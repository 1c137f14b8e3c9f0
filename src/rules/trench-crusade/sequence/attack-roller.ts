/**
 * One attacker's attacks on one target, rolled die by die as players roll them: the success roll, the
 * attacker's spending, the injury roll, the table, Tough, markers. The target's state lives in the
 * roller's fields (m, d, tl, bl), which the sequence simulator (./simulate.ts) plays one target through
 * and the duel simulator (../duel/simulate.ts) plays two rollers against each other with. It shares the
 * rule table with the exact engines and nothing else (the optimal policy's lookup table aside, which is
 * a policy, not a probability: ./simulate.ts).
 */
import type { Dice } from '../../../model/types.js';
import { markersLeftAfterRoll, rollAndKeep, rollAndKeepWithSix, successRollNetDice } from '../simulate.js';
import { stateIndex, type SequenceScenario } from './model.js';
import { bloodbathCost } from './rules.js';

/** A policy's decision table, as the simulator reads it (./optimal-finite.ts, ./optimal-unlimited.ts). */
export interface Lookup {
  readonly stride: number;
  readonly attack: Int32Array;
  readonly inner: Int32Array;
}

export class AttackRoller {
  /** The target: blood markers on it, Down, Tough still to save it, blessing markers still held (0/1). */
  m = 0;
  d = 0;
  tl = 0;
  bl = 0;
  /** Markers the attacker spent, and whether Tough saved the target, over the trial so far. */
  spent = 0;
  saved = 0;
  /** Did the last attack miss its success roll? (A RISKY string then ends.) */
  missed = false;

  private readonly kept = new Int32Array(8);
  private readonly s: SequenceScenario;
  // The scenario's numbers, read once: the attack below is the simulator's hot loop.
  private readonly attackDiceBase: number;
  private readonly attackModifier: number;
  private readonly autoHit: boolean;
  private readonly criticalOnDice: boolean;
  private readonly successDice: number;
  private readonly successHit: number;
  private readonly successCritical: number;
  private readonly rerollFailed: boolean;
  private readonly attackRollMax: number;
  private readonly attackDicePerMarker: number;
  private readonly spendAll: boolean;
  private readonly spendOnBloodbath: boolean;
  private readonly bbCostUp: number;
  private readonly bbCostDown: number;
  private readonly blessing: number;
  private readonly weaponDice: number;
  private readonly injuryDicePerMarker: number;
  private readonly blessingDicePerMarker: number;
  private readonly critDice: number;
  private readonly downBonus: number;
  private readonly addOnHit: number;
  private readonly addOnCritical: number;
  /** The same against a Down target: a weapon may ignore armour only then (ignoreArmourIfDown). */
  private readonly addOnHitDown: number;
  private readonly addOnCriticalDown: number;
  private readonly injuryStart: number;
  private readonly bloodbathStart: number;
  private readonly separateBloodbathDie: boolean;
  private readonly outOfAction: number;
  private readonly downAt: number;
  private readonly minorAt: number;
  private readonly standfast: boolean;
  /** The weapon's Minor Hit is a Down (a Chain Kura). */
  private readonly minorAsDown: boolean;
  /** One injury die put aside as a 6 (a Tank-Splitter Sword against a target with armour or a shield). */
  private readonly sixAside: boolean;
  /** The table row the one save makes of an Out of Action: Tough's Down (2), or the first Out of Action's No Effect (0). */
  private readonly savedAs: number;
  private readonly golem: boolean;
  private readonly markersAfterRoll: number;
  private readonly minorMarkers: number;
  private readonly downMarkers: number;
  private readonly resultMinorMarkers: number;
  private readonly resultDownMarkers: number;
  private readonly resultDownAgainMarkers: number;
  private readonly regenerate: number;
  /** The ledge the target fights by (a duel side's, ruling D9): its fall's injury roll, if any. */
  private ledgeFall: ((rng: Dice, kept: Int32Array) => number) | undefined;

  constructor(s: SequenceScenario) {
    this.s = s;
    const rules = s.rules;
    this.attackDiceBase = successRollNetDice(s);
    this.attackModifier = s.attackModifier;
    this.autoHit = s.autoHit;
    this.criticalOnDice = s.criticalOn === 'unmodified';
    this.successDice = rules.successRoll.dice;
    this.successHit = rules.successRoll.hit;
    // The weapon's own critical threshold (ruling T37) and re-roll of a failed success roll (ruling T38).
    this.successCritical = s.criticalThreshold;
    this.rerollFailed = s.rerollFailedSuccess;
    this.attackRollMax = s.attackRollMarkers;
    this.attackDicePerMarker = rules.markers.attackDicePerMarker;
    this.spendAll = s.policy === 'all';
    this.spendOnBloodbath = s.policy === 'bloodbath';
    this.bbCostUp = bloodbathCost(rules, false);
    this.bbCostDown = bloodbathCost(rules, true);
    this.blessing = s.blessingPolicy === 'all' ? s.blessingMarkers : 0;
    // The weapon's injury dice and those the target's abilities give rolls against it, netted; and the
    // weapon's own against a target in cover (an Infernal Bomb's).
    this.weaponDice = s.injuryDice + s.targetInjuryDice + (s.targetInCover ? s.injuryDiceInCover : 0);
    this.injuryDicePerMarker = rules.markers.injuryDicePerMarker;
    this.blessingDicePerMarker = rules.blessings.injuryDicePerMarker;
    this.critDice = s.criticalInjuryDice;
    // The rules' bonus against a Down target, and the weapon's own dice beyond it (an Anaza Spear).
    this.downBonus = (s.downBonus === 'any' || (s.downBonus === 'melee' && s.attackType === 'melee') ? rules.down.injuryDice : 0) + s.injuryDiceIfDown;
    this.addOnHit = flatModifier(s, s.ignoreArmour);
    this.addOnCritical = flatModifier(s, s.ignoreArmour || s.ignoreArmourOnCritical);
    this.addOnHitDown = flatModifier(s, s.ignoreArmour || s.ignoreArmourIfDown);
    this.addOnCriticalDown = flatModifier(s, s.ignoreArmour || s.ignoreArmourOnCritical || s.ignoreArmourIfDown);
    // Deadly rolls its own pool (3 dice); a pooled Bloodbath too; both together deadlyBloodbathKeep.
    const deadly = s.deadly === true;
    this.injuryStart = deadly ? rules.deadly.dice : rules.injuryRoll.dice;
    this.bloodbathStart = deadly ? s.deadlyBloodbathKeep : rules.bloodbath.dice;
    this.separateBloodbathDie = s.bloodbathDie === 'separate';
    this.outOfAction = rules.injuryTable.outOfAction;
    this.downAt = rules.injuryTable.down;
    this.minorAt = rules.injuryTable.minorHit;
    this.standfast = s.downBecomesMinor;
    this.minorAsDown = s.minorAsDown;
    // Ruling T34: what the target wears or carries, whether or not a roll ignores it.
    this.sixAside = s.sixAgainstArmoured && (s.armour !== 'none' || s.shield === true);
    this.savedAs = s.firstOutOfActionNoEffect === true ? 0 : 2;
    this.golem = s.golem;
    // FIRE, GAS and SHRAPNEL: markers after every injury roll the target survives.
    this.markersAfterRoll = markersLeftAfterRoll(s);
    this.minorMarkers = rules.markers.minorHit;
    this.downMarkers = rules.markers.down;
    // The weapon's multiplier of its result's own markers (ruling T36); a ledge's fall places the rules' own.
    const times = s.bloodMarkersMultiplier;
    this.resultMinorMarkers = rules.markers.minorHit * times;
    this.resultDownMarkers = rules.markers.down * times;
    this.resultDownAgainMarkers = rules.markers.downAgain * times;
    this.regenerate = s.regenerate;
  }

  /**
   * The target fights by a ledge: each time it is taken Down while standing, a success roll first, and on
   * a failure the fall (`fall`: its injury roll's table row, Tough not applied) in full before the Down.
   */
  byLedge(fall: (rng: Dice, kept: Int32Array) => number): this {
    this.ledgeFall = fall;
    return this;
  }

  /** The target as the scenario starts it, with `markers` on it. */
  reset(markers: number): void {
    const s = this.s;
    this.m = markers;
    this.d = s.targetDown === true ? 1 : 0;
    // The one save of an Out of Action: Tough's, or the first Out of Action's No Effect (never both).
    this.tl = (s.tough === true || s.firstOutOfActionNoEffect === true) && s.toughUsed !== true ? 1 : 0;
    this.bl = this.blessing > 0 ? 1 : 0;
    this.spent = 0;
    this.saved = 0;
    this.missed = false;
  }

  /** The target's own activation: it stands up and REGENERATEs. */
  newActivation(): void {
    this.d = 0;
    this.m = this.m > this.regenerate ? this.m - this.regenerate : 0;
  }

  /** Sum of the `keep` highest (or lowest) of `dice` d6, rolled one by one (the single-roll simulator's). */
  private rollKeep(rng: Dice, dice: number, keep: number, lowest: boolean): number {
    return rollAndKeep(rng, dice, keep, !lowest, this.kept);
  }

  private injuryRoll(rng: Dice, netDice: number, bloodbath: boolean, critical: number, down: number): number {
    const add = down === 1 ? (critical === 1 ? this.addOnCriticalDown : this.addOnHitDown) : critical === 1 ? this.addOnCritical : this.addOnHit;
    // A separate Bloodbath die (playtest option) is added after keeping.
    let start = this.injuryStart;
    let extra = 0;
    if (bloodbath) {
      if (this.separateBloodbathDie) extra = 1;
      else start = this.bloodbathStart;
    }
    const dice = start + (netDice < 0 ? -netDice : netDice);
    // Plain 2D6 summed in place, as the success roll (about 5% more duels a second).
    let total =
      (this.sixAside
        ? rollAndKeepWithSix(rng, dice, start, netDice >= 0, this.kept)
        : dice === 2 && start === 2
          ? rng.d6() + rng.d6()
          : this.rollKeep(rng, dice, start, netDice < 0)) + add;
    for (let i = 0; i < extra; i++) total += rng.d6();
    return total >= this.outOfAction ? 3 : total >= this.downAt ? 2 : total >= this.minorAt ? 1 : 0;
  }

  /**
   * One attack with `hindered` dice taken off the success roll (a duel's opponent spending the
   * attacker's markers). `table`/`row` select the optimal policy's lookup (row: attacks left or the
   * activation phase); a duel's optimal side gives its injury choice codes for a hit and a critical
   * instead (hitCode, critCode: choiceCode's packing). Returns true when the target goes Out of Action.
   */
  attack(rng: Dice, markerCap: number, table: Lookup | undefined, row: number, hindered = 0, hitCode = -1, critCode = -1): boolean {
    const d = this.d;
    // Attack-roll markers (playtest), then the success roll.
    let a: number;
    if (table) a = table.attack[row * table.stride + stateIndex(this.m, d, this.tl, this.bl)]!;
    else a = this.m < this.attackRollMax ? this.m : this.attackRollMax;
    this.m -= a;
    this.spent += a;
    const net = this.attackDiceBase + a * this.attackDicePerMarker - hindered;
    let critical = 0;
    this.missed = false;
    // An auto-hit weapon makes no success roll: every attack hits, none is a critical.
    if (!this.autoHit) {
      // Plain 2D6, the commonest success roll, summed in place (the same dice in the same order as rollKeep's).
      let keptDice = net === 0 && this.successDice === 2 ? rng.d6() + rng.d6() : this.rollKeep(rng, this.successDice + (net < 0 ? -net : net), this.successDice, net < 0);
      let rolled = keptDice + this.attackModifier;
      // A critical on the modified total, or on the dice alone with criticalOn "unmodified" (then a hit).
      critical = (this.criticalOnDice ? keptDice : rolled) >= this.successCritical ? 1 : 0;
      if (critical === 0 && rolled < this.successHit && this.rerollFailed) {
        // The failure is rolled again, the same dice, once; the second result stands.
        keptDice = net === 0 && this.successDice === 2 ? rng.d6() + rng.d6() : this.rollKeep(rng, this.successDice + (net < 0 ? -net : net), this.successDice, net < 0);
        rolled = keptDice + this.attackModifier;
        critical = (this.criticalOnDice ? keptDice : rolled) >= this.successCritical ? 1 : 0;
      }
      if (critical === 0 && rolled < this.successHit) {
        this.missed = true;
        return false;
      }
    }
    // The attacker's injury spending.
    let dice = 0;
    let bloodbath = false;
    const cost = d === 1 ? this.bbCostDown : this.bbCostUp;
    if (table) {
      const code = table.inner[(row * table.stride + stateIndex(this.m, d, this.tl, this.bl)) * 2 + critical]!;
      dice = code >> 1;
      bloodbath = (code & 1) === 1;
    } else if (hitCode >= 0) {
      const code = critical === 1 ? critCode : hitCode;
      dice = code >> 1;
      bloodbath = (code & 1) === 1;
    } else if (this.spendAll) {
      dice = this.m;
    } else if (this.spendOnBloodbath) {
      bloodbath = this.m >= cost;
    }
    const used = dice + (bloodbath ? cost : 0);
    this.m -= used;
    this.spent += used;
    // The target's blessing markers, all on its first injury roll.
    let blessed = 0;
    if (this.bl === 1) {
      blessed = this.blessing;
      this.bl = 0;
    }
    const net2 = this.weaponDice + dice * this.injuryDicePerMarker - blessed * this.blessingDicePerMarker + (critical === 1 ? this.critDice : 0) + (d === 1 ? this.downBonus : 0);
    let result = this.injuryRoll(rng, net2, bloodbath, critical, d);
    // The weapon's Minor Hit is a Down result (a Chain Kura), then the target's STANDFAST reads it (ruling T33).
    if (result === 1 && this.minorAsDown) result = 2;
    // STANDFAST: the table's Down is a Minor Hit (before Tough, whose Down stays one).
    if (result === 2 && this.standfast) result = 1;
    // A GOLEM goes out of action only to a Bloodbath; otherwise it goes Down, Tough unused.
    if (result === 3 && this.golem && !bloodbath) result = 2;
    if (result === 3 && this.tl === 1) {
      this.tl = 0;
      this.saved = 1;
      result = this.savedAs;
    }
    if (result === 3) return true;
    let m = this.m + this.markersAfterRoll;
    if (result === 1) m += this.resultMinorMarkers;
    else if (result === 2) {
      let down = d;
      // By a ledge, a standing model rolls before it is taken Down; on a failure it falls first.
      if (d === 0 && this.ledgeFall !== undefined && this.rollKeep(rng, this.successDice, this.successDice, false) < this.successHit) {
        let fell = this.ledgeFall(rng, this.kept);
        if (fell === 3 && this.tl === 1) {
          this.tl = 0;
          this.saved = 1;
          fell = this.savedAs;
        }
        if (fell === 3) return true;
        if (fell === 1) m += this.minorMarkers;
        else if (fell === 2) {
          m += this.downMarkers;
          down = 1;
        }
      }
      m += down === 1 ? this.resultDownAgainMarkers : this.resultDownMarkers;
      this.d = 1;
    }
    this.m = m > markerCap ? markerCap : m;
    return false;
  }
}

/**
 * Flat modifiers, as the cap reads them: penalties summed (and capped), bonuses added after. The weapon
 * may ignore the armour and shield (always, or on a critical hit) or pierce the armour.
 */
function flatModifier(s: SequenceScenario, ignoreArmour: boolean): number {
  const rules = s.rules;
  let penalty = s.targetInjuryModifier;
  // IMPERVIOUS armour keeps its modifier when the weapon ignores armour; the shield does not.
  if (!ignoreArmour || s.impervious) {
    const pierced = rules.armour[s.armour] + s.armourPiercing;
    penalty += pierced < 0 ? pierced : 0;
  } else {
    // Armour that still gives a modifier when ignored (a Runeforged Armour, ruling T32): the weaker of
    // that and its own, shortened by ARMOUR PIERCING.
    const own = rules.armour[s.armour];
    const pierced = (s.armourWhenIgnored > own ? s.armourWhenIgnored : own) + s.armourPiercing;
    penalty += pierced < 0 ? pierced : 0;
  }
  if (!ignoreArmour && s.shield === true && s.armour !== 'machine') penalty += rules.shield.modifier;
  const attackerMod = s.injuryModifier;
  if (attackerMod < 0) penalty += attackerMod;
  const bonus = attackerMod > 0 ? attackerMod : 0;
  return s.modifierCap === 'negative'
    ? Math.max(penalty, rules.modifierCap.size) + bonus
    : s.modifierCap === 'net'
      ? Math.max(penalty + bonus, rules.modifierCap.size)
      : penalty + bonus;
}
