import { meanOffset, tallyOffsets } from '../../model/tally.js';
import type { Dice, SimKernel } from '../../model/types.js';
import { attackLayout, bloodMarkersMean, injuryLayout } from './layout.js';
import type { OneRollScenario, TrenchCrusadeScenario } from './fields.js';
import type { TrenchCrusadeRules } from './rule-spec.js';
import type { MarkerKinds } from './tables.js';

/**
 * The Trench Crusade simulator. It shares the rule tables with the exact engine but none of its code:
 * it works out the roll the way a player at the table would (gather the dice and modifiers, roll every
 * die, keep the best or worst, add, look up), so a mistake in either path shows up in `check`.
 */

/** One injury roll as a player sets it up: how many dice to pick up, how many to keep, what to add. */
interface TableRoll {
  rollNothing: boolean;
  dice: number;
  keep: number;
  keepHighest: boolean;
  bonusD6: number;
  add: number;
  /** GOLEM and no Bloodbath: Out of Action is a Down. */
  golemSaves: boolean;
  /** One die of the pool put aside showing a 6 before the rest are rolled (a Tank-Splitter Sword against armour). */
  sixAside: boolean;
}

function setUpInjuryRoll(s: OneRollScenario, wasCritical: boolean): TableRoll {
  const rules = s.rules;
  const fallInches = s.kind === 'fall' ? s.heightInches : undefined;
  const falling = fallInches !== undefined;
  // A fall has no attack type, critical or Bloodbath die of its own.
  const attack = s.kind === 'fall' ? undefined : s;
  if (falling && fallInches < rules.fall.minimumInches) {
    return { rollNothing: true, dice: 0, keep: 0, keepHighest: true, bonusD6: 0, add: 0, golemSaves: false, sixAside: false };
  }
  // Injury dice, source by source.
  let plus = 0;
  let minus = 0;
  const weaponDice = s.injuryDice;
  if (weaponDice > 0) plus += weaponDice;
  else minus -= weaponDice;
  // The target's own abilities: "-1 INJURY DICE" on rolls against it.
  if (s.targetInjuryDice > 0) plus += s.targetInjuryDice;
  else minus -= s.targetInjuryDice;
  plus += s.bloodMarkersSpent * rules.markers.injuryDicePerMarker;
  minus += s.blessingMarkersSpent * rules.blessings.injuryDicePerMarker;
  if (wasCritical && attack) plus += attack.criticalInjuryDice;
  if (s.targetDown) {
    if (s.downBonus === 'any' || (s.downBonus === 'melee' && attack?.attackType === 'melee')) {
      plus += rules.down.injuryDice;
    }
    // The weapon's own dice against a Down target (an Anaza Spear), beyond the rules' bonus.
    if (attack) plus += attack.injuryDiceIfDown;
  }
  // The weapon's own dice against a target in cover (an Infernal Bomb's -1), whatever IGNORE COVER says.
  if (s.kind === 'attack' && s.targetInCover) {
    if (s.injuryDiceInCover > 0) plus += s.injuryDiceInCover;
    else minus -= s.injuryDiceInCover;
  }
  if (falling) {
    // Every full step of the fall adds its dice.
    let steps = 0;
    for (let fallen = rules.fall.inchesPerStep; fallen <= fallInches; fallen += rules.fall.inchesPerStep) steps++;
    plus += steps * rules.fall.dicePerStep;
  }

  // Starting pool: a pooled Bloodbath and Deadly each set it (3 dice in the rules); both together make
  // it deadlyBloodbathKeep dice. A separate Bloodbath die (playtest option) is rolled after keeping.
  let startingDice = rules.injuryRoll.dice;
  let bonusD6 = 0;
  let pooledBloodbath = false;
  if (s.bloodbath && rules.bloodbath.available) {
    if (attack?.bloodbathDie === 'separate') bonusD6 = 1;
    else pooledBloodbath = true;
  }
  if (pooledBloodbath && s.deadly) startingDice = s.deadlyBloodbathKeep;
  else if (pooledBloodbath) startingDice = rules.bloodbath.dice;
  else if (s.deadly) startingDice = rules.deadly.dice;

  // Flat modifiers: list the penalties and the bonuses separately, as the cap reads.
  // The weapon may ignore armour (always, or on a critical) or pierce it: the shield is only ignored.
  const ignoresArmour = attack !== undefined && (attack.ignoreArmour || (wasCritical && attack.kind === 'attack' && attack.ignoreArmourOnCritical) || (s.targetDown && attack.ignoreArmourIfDown));
  const penalties: number[] = [];
  // IMPERVIOUS armour keeps its modifier when the weapon ignores armour; the shield does not.
  if (!ignoresArmour || s.impervious) {
    const pierced = rules.armour[s.armour] + (attack?.armourPiercing ?? 0);
    penalties.push(pierced < 0 ? pierced : 0);
  } else if (attack !== undefined && attack.armourWhenIgnored < 0) {
    // Armour that still gives a modifier when ignored (a Runeforged Armour): the weaker of that and the
    // armour's own, shortened by ARMOUR PIERCING as armour is (ruling T32).
    const own = rules.armour[s.armour];
    const still = attack.armourWhenIgnored > own ? attack.armourWhenIgnored : own;
    const pierced = still + attack.armourPiercing;
    if (pierced < 0) penalties.push(pierced);
  }
  if (!ignoresArmour && s.shield && s.armour !== 'machine') penalties.push(rules.shield.modifier);
  penalties.push(s.targetInjuryModifier);
  const attackerModifier = s.injuryModifier;
  if (attackerModifier < 0) penalties.push(attackerModifier);
  const bonus = attackerModifier > 0 ? attackerModifier : 0;
  let penalty = 0;
  for (const p of penalties) penalty += p;
  const cap = rules.modifierCap.size;
  let add: number;
  if (s.modifierCap === 'negative') add = (penalty < cap ? cap : penalty) + bonus;
  else if (s.modifierCap === 'net') add = Math.max(cap, penalty + bonus);
  else add = penalty + bonus;

  const net = plus - minus;
  return {
    rollNothing: false,
    dice: startingDice + Math.abs(net),
    keep: startingDice,
    keepHighest: net >= 0,
    bonusD6,
    add,
    // A GOLEM goes out of action only to a Bloodbath roll.
    golemSaves: s.golem && !(pooledBloodbath || bonusD6 > 0),
    // A Tank-Splitter Sword looks at the target first: any armour worn or a shield carried (ruling T34).
    sixAside: attack !== undefined && attack.sixAgainstArmoured && (s.armour !== 'none' || s.shield),
  };
}

/**
 * Rolls `dice` d6 one at a time and totals the `keep` highest (or lowest), as a player sorting dice on the
 * table would. Keeping 2 (every ordinary roll) tracks the best two in locals; keeping 3 or 4 (Bloodbath,
 * Deadly) inserts into the small scratch array `kept`.
 */
export function rollAndKeep(rng: Dice, dice: number, keep: number, keepHighest: boolean, kept: Int32Array): number {
  if (dice === keep) {
    let total = 0;
    for (let i = 0; i < dice; i++) total += rng.d6();
    return total;
  }
  if (keep === 2) {
    let best = rng.d6();
    let second = rng.d6();
    if (keepHighest) {
      if (second > best) {
        const t = best;
        best = second;
        second = t;
      }
      for (let i = 2; i < dice; i++) {
        const face = rng.d6();
        if (face > second) {
          if (face > best) {
            second = best;
            best = face;
          } else second = face;
        }
      }
    } else {
      if (second < best) {
        const t = best;
        best = second;
        second = t;
      }
      for (let i = 2; i < dice; i++) {
        const face = rng.d6();
        if (face < second) {
          if (face < best) {
            second = best;
            best = face;
          } else second = face;
        }
      }
    }
    return best + second;
  }
  let held = 0;
  // Store lowest-first dice as negatives, so "keep the best" is one comparison rule.
  for (let i = 0; i < dice; i++) held = keepFace(keepHighest ? rng.d6() : -rng.d6(), held, keep, kept);
  return keptTotal(held, keepHighest, kept);
}

/** Puts a face into the `keep` best held so far (kept, best first, as keepFace's caller signs them); returns how many are held. */
function keepFace(face: number, held: number, keep: number, kept: Int32Array): number {
  if (held < keep || face > kept[keep - 1]!) {
    let j = held < keep ? held++ : keep - 1;
    while (j > 0 && kept[j - 1]! < face) {
      kept[j] = kept[j - 1]!;
      j--;
    }
    kept[j] = face;
  }
  return held;
}

/** The sum of the faces held, signed back (lowest-first faces were held as negatives). */
function keptTotal(held: number, keepHighest: boolean, kept: Int32Array): number {
  let total = 0;
  for (let j = 0; j < held; j++) total += kept[j]!;
  return keepHighest ? total : -total;
}

/**
 * As rollAndKeep, with one die of the pool put aside and turned to show a 6 before the others are rolled
 * one by one (a Tank-Splitter Sword): the player sorts the whole pool, that die included, and keeps as usual.
 */
export function rollAndKeepWithSix(rng: Dice, dice: number, keep: number, keepHighest: boolean, kept: Int32Array): number {
  let held = 0;
  for (let i = 0; i < dice; i++) {
    const rolled = i === 0 ? 6 : rng.d6();
    // Lowest-first dice stored as negatives, as in rollAndKeep.
    held = keepFace(keepHighest ? rolled : -rolled, held, keep, kept);
  }
  return keptTotal(held, keepHighest, kept);
}

/** Row of the injury table for a modified total: 0 no effect, 1 minor hit, 2 down, 3 out of action. */
function tableRow(total: number, table: TrenchCrusadeRules['injuryTable']): number {
  return total >= table.outOfAction ? 3 : total >= table.down ? 2 : total >= table.minorHit ? 1 : 0;
}

/**
 * The table as a player reads it for one set-up roll, written out once per scenario: row by unmodified
 * dice total (Tough already applied), so the hot loop does one lookup instead of a chain of comparisons.
 */
interface ReadyRoll extends TableRoll {
  rowByDiceTotal: Int32Array;
  /** Plain 2D6, no bonus die: the commonest roll, looked up directly. */
  plainTwo: boolean;
  /** For a keep-2 roll of 3+ dice without a bonus die: row by the final (best, second) state. */
  rowByBestTwo: Int32Array | undefined;
}

/**
 * Keeping the best two of several dice, die by die, is a small state machine: the state is the pair
 * (best, second best) seen so far, packed as best * 8 + second, and each new face moves it. Writing the
 * moves out as a table turns the comparisons, which mispredict on random faces, into one load per die.
 * For "keep the lowest" the player mirrors each face (7 - face) and keeps the highest of those.
 */
const BEST_TWO_NEXT: Int32Array = (() => {
  const next = new Int32Array(64 * 8);
  for (let best = 0; best <= 6; best++)
    for (let second = 0; second <= best; second++)
      for (let face = 1; face <= 6; face++) {
        const [b, s] = face > best ? [face, best] : face > second ? [best, face] : [best, second];
        next[((best * 8 + second) << 3) | face] = b * 8 + s;
      }
  return next;
})();

function rollBestTwo(rng: Dice, dice: number, mirror: boolean): number {
  let state = 0;
  if (mirror) for (let i = 0; i < dice; i++) state = BEST_TWO_NEXT[(state << 3) | (7 - rng.d6())]!;
  else for (let i = 0; i < dice; i++) state = BEST_TWO_NEXT[(state << 3) | rng.d6()]!;
  return state;
}

function prepare(r: TableRoll, toughSaves: boolean, table: TrenchCrusadeRules['injuryTable'], downBecomesMinor: boolean, savedAs = 2, minorAsDown = false): ReadyRoll {
  const highest = r.keep * 6 + r.bonusD6 * 6;
  const rowByDiceTotal = new Int32Array(highest + 1);
  for (let dice = 0; dice <= highest; dice++) {
    const read = tableRow(dice + r.add, table);
    // The weapon's Minor Hit is a Down (a Chain Kura), before the target's STANDFAST reads the Down (ruling T33).
    const row = read === 1 && minorAsDown ? 2 : read;
    // STANDFAST: the table's Down is a Minor Hit; Tough's save still puts the model Down.
    // A GOLEM's save is a Down; the one save (toughSaves) is Tough's Down or the first Out of Action's No Effect (savedAs).
    rowByDiceTotal[dice] = row === 2 && downBecomesMinor ? 1 : row === 3 && r.golemSaves ? 2 : row === 3 && toughSaves ? savedAs : row;
  }
  let rowByBestTwo: Int32Array | undefined;
  if (r.keep === 2 && r.dice > 2 && r.bonusD6 === 0 && !r.sixAside) {
    rowByBestTwo = new Int32Array(64);
    for (let best = 1; best <= 6; best++)
      for (let second = 1; second <= best; second++) {
        const kept = r.keepHighest ? best + second : 14 - best - second;
        rowByBestTwo[best * 8 + second] = rowByDiceTotal[kept]!;
      }
  }
  return { ...r, rowByDiceTotal, rowByBestTwo, plainTwo: r.dice === 2 && r.keep === 2 && r.bonusD6 === 0 && !r.sixAside };
}

function rollInjury(rng: Dice, r: ReadyRoll, kept: Int32Array): number {
  if (r.rollNothing) return 0;
  if (r.plainTwo) return r.rowByDiceTotal[rng.d6() + rng.d6()]!;
  const bestTwo = r.rowByBestTwo;
  if (bestTwo !== undefined) return bestTwo[rollBestTwo(rng, r.dice, !r.keepHighest)]!;
  let total = r.sixAside ? rollAndKeepWithSix(rng, r.dice, r.keep, r.keepHighest, kept) : rollAndKeep(rng, r.dice, r.keep, r.keepHighest, kept);
  for (let i = 0; i < r.bonusD6; i++) total += rng.d6();
  return r.rowByDiceTotal[total]!;
}

/**
 * A fall's injury roll, set up once as a player would (the `fall` kind's), read on the table with
 * STANDFAST and GOLEM but not Tough, which the caller keeps track of (a duel's ledge, ./duel/simulate.ts).
 * Returns the row: 0 no effect, 1 minor hit, 2 down, 3 out of action.
 */
export function fallRoller(s: TrenchCrusadeScenario<'fall'>): (rng: Dice, kept: Int32Array) => number {
  const ready = prepare(setUpInjuryRoll(s, false), false, s.rules.injuryTable, s.downBecomesMinor);
  return (rng, kept) => rollInjury(rng, ready, kept);
}

/**
 * Plays `trials` injury rolls into `counts` (by table row). The common shapes of roll each get their
 * own loop: a loop that serves every shape keeps testing which shape it is, and V8 compiles a loop with
 * one job into far tighter code (about twice the rolls per second for a plain 2D6).
 */
function countInjuryRolls(rng: Dice, trials: number, r: ReadyRoll, kept: Int32Array, counts: Float64Array): void {
  if (r.rollNothing) {
    counts[0]! += trials;
    return;
  }
  const rows = r.rowByDiceTotal;
  if (r.plainTwo) {
    for (let t = 0; t < trials; t++) counts[rows[rng.d6() + rng.d6()]!]! += 1;
    return;
  }
  const bestTwo = r.rowByBestTwo;
  if (bestTwo !== undefined) {
    countBestTwo(rng, trials, r.dice, !r.keepHighest, bestTwo, counts);
    return;
  }
  for (let t = 0; t < trials; t++) counts[rollInjury(rng, r, kept)]! += 1;
}

function countBestTwo(rng: Dice, trials: number, dice: number, mirror: boolean, rows: Int32Array, counts: Float64Array): void {
  const next = BEST_TWO_NEXT;
  if (mirror) {
    for (let t = 0; t < trials; t++) {
      let state = 0;
      for (let i = 0; i < dice; i++) state = next[(state << 3) | (7 - rng.d6())]!;
      counts[rows[state]!]! += 1;
    }
  } else {
    for (let t = 0; t < trials; t++) {
      let state = 0;
      for (let i = 0; i < dice; i++) state = next[(state << 3) | rng.d6()]!;
      counts[rows[state]!]! += 1;
    }
  }
}

/**
 * Blood markers a result places, per table row, and their sum and sum of squares from the row counts:
 * the markers are a function of the row, so adding them up per trial would only cost time.
 */
function addMarkers(tally: Float64Array, rowOffset: number, meanOffset: number, perRow: readonly number[]): void {
  let sum = 0;
  let sumSq = 0;
  for (let row = 0; row < 4; row++) {
    const n = tally[rowOffset + row]!;
    sum += n * perRow[row]!;
    sumSq += n * perRow[row]! * perRow[row]!;
  }
  tally[meanOffset] = sum;
  tally[meanOffset + 1] = sumSq;
}

/**
 * The net dice of a success roll, counted as a player counts them (both simulators roll with it): the
 * weapon's; a FEAR target's -1 against a melee attacker without FEAR; the target's own "-N DICE"
 * against the attacks it names; and, on a shot, the Ranged Attack Modifiers of cover and long range.
 */
export function successRollNetDice(s: {
  readonly attackDice: number;
  readonly attackType: string;
  readonly fear: boolean;
  readonly attackerFear: boolean;
  readonly targetAttackDice: number;
  readonly targetAttackDiceApplies: string;
  readonly targetInCover: boolean;
  readonly longRange: boolean;
  readonly ignoreCover: boolean;
  readonly ignoreLongRange: boolean;
  readonly coverDice: number;
  readonly coverAndLongRangeDice: number | 'usual';
  readonly rules: TrenchCrusadeRules;
}): number {
  const feared = s.fear && s.attackType === 'melee' && !s.attackerFear;
  const hindered = s.targetAttackDiceApplies === 'both' || s.targetAttackDiceApplies === s.attackType;
  let net = s.attackDice + (feared ? s.rules.fear.attackDice : 0) + (hindered ? s.targetAttackDice : 0);
  if (s.attackType === 'ranged') {
    // Each Ranged Attack Modifier in turn (rulings T30, T31): a weapon that names its own dice for them
    // adds those instead of the modifier's, a cloak's -2 included.
    const weaponSays = typeof s.coverAndLongRangeDice === 'number' ? s.coverAndLongRangeDice : undefined;
    if (s.targetInCover && !s.ignoreCover) net += weaponSays ?? s.coverDice;
    if (s.longRange && !s.ignoreLongRange) net += weaponSays ?? s.rules.ranged.longRangeDice;
  }
  return net;
}

/** Markers FIRE, GAS and SHRAPNEL leave after every roll the target survives, the kinds it negates left out. */
export function markersLeftAfterRoll(s: MarkerKinds): number {
  let markers = 0;
  if (!s.negateFire) markers += s.fireMarkers;
  if (!s.negateGas) markers += s.gasMarkers;
  if (!s.negateShrapnel) markers += s.shrapnelMarkers;
  // The weapon's own marker after every roll (a Khyber Knife): no NEGATE keyword stops it.
  markers += s.extraBloodMarkers;
  return markers;
}

export function trenchCrusadeSimulator(s: OneRollScenario): SimKernel {
  const toughSaves = (s.tough || s.firstOutOfActionNoEffect) && !s.toughUsed;
  const savedAs = s.firstOutOfActionNoEffect ? 0 : 2;
  const markers = s.rules.markers;
  // Markers placed by each table row: none, minor hit, down (more if already Down), out of action.
  // FIRE, GAS and SHRAPNEL leave theirs after every roll the target survives (a fall has no weapon).
  const afterRoll = s.kind === 'fall' ? 0 : markersLeftAfterRoll(s);
  // A weapon's multiplier (a Demonic Aura Grenade's x2) multiplies the result's own markers only (ruling T36).
  const times = s.kind === 'fall' ? 1 : s.bloodMarkersMultiplier;
  const markersByRow = [afterRoll, markers.minorHit * times + afterRoll, (s.targetDown ? markers.downAgain : markers.down) * times + afterRoll, 0];
  const table = s.rules.injuryTable;
  const kept = new Int32Array(8);
  if (s.kind !== 'attack') {
    const roll = prepare(setUpInjuryRoll(s, s.kind === 'injury' && s.critical), toughSaves, table, s.downBecomesMinor, savedAs, s.kind === 'injury' && s.minorAsDown);
    const { length, outcomes: rowsAt } = tallyOffsets(injuryLayout);
    const markersAt = meanOffset(injuryLayout, bloodMarkersMean.id);
    return {
      run(rng, trials, tally) {
        // Count into a local copy of the rows so the running sums from earlier chunks stay untouched.
        const counts = new Float64Array(4);
        countInjuryRolls(rng, trials, roll, kept, counts);
        const before = new Float64Array(tally.subarray(0, length));
        for (let row = 0; row < 4; row++) tally[rowsAt + row] = counts[row]!;
        addMarkers(tally, rowsAt, markersAt, markersByRow);
        for (let i = 0; i < length; i++) tally[i]! += before[i]!;
      },
    };
  }
  const length = tallyOffsets(attackLayout).length;
  // The injury table's rows follow the miss.
  const missAt = attackLayout.outcomes.indexOf('miss');
  const rowsAt = missAt + 1;
  const markersAt = meanOffset(attackLayout, bloodMarkersMean.id);
  const onHit = prepare(setUpInjuryRoll(s, false), toughSaves, table, s.downBecomesMinor, savedAs, s.minorAsDown);
  const onCritical = prepare(setUpInjuryRoll(s, true), toughSaves, table, s.downBecomesMinor, savedAs, s.minorAsDown);
  const success = s.rules.successRoll;
  const attackNet = successRollNetDice(s);
  const attackKeep = success.dice;
  const attackDice = attackKeep + Math.abs(attackNet);
  const attackKeepsHighest = attackNet >= 0;
  // How a player reads the kept dice of the success roll, written out once: 0 miss, 1 hit, 2 critical.
  // Read on the modified total; or, with criticalOn "unmodified", a critical on the dice alone (and so
  // a hit), the modified total deciding the rest.
  // The weapon's own critical threshold (criticalThreshold, the table's 12 by default): reaching it is a critical, so a hit.
  const resultByDice = new Int32Array(attackKeep * 6 + 1);
  for (let dice = 0; dice <= attackKeep * 6; dice++) {
    const total = dice + s.attackModifier;
    const critical = s.criticalOn === 'unmodified' ? dice >= s.criticalThreshold : total >= s.criticalThreshold;
    resultByDice[dice] = critical ? 2 : total >= success.hit ? 1 : 0;
  }
  // A failed success roll of a weapon that re-rolls it is picked up and rolled again, once (ruling T38).
  const reroll = s.rerollFailedSuccess;
  return {
    run(rng, trials, tally) {
      const counts = new Float64Array(5);
      if (s.autoHit) {
        // No success roll: every attack is a hit, never a critical.
        for (let t = 0; t < trials; t++) counts[1 + rollInjury(rng, onHit, kept)]! += 1;
      } else if (attackDice === 2 && attackKeep === 2) {
        // The usual success roll, plain 2D6, gets its own loop (see countInjuryRolls).
        for (let t = 0; t < trials; t++) {
          let result = resultByDice[rng.d6() + rng.d6()]!;
          if (result === 0 && reroll) result = resultByDice[rng.d6() + rng.d6()]!;
          if (result === 0) counts[0]! += 1;
          else counts[1 + rollInjury(rng, result === 2 ? onCritical : onHit, kept)]! += 1;
        }
      } else {
        for (let t = 0; t < trials; t++) {
          let result = resultByDice[rollAndKeep(rng, attackDice, attackKeep, attackKeepsHighest, kept)]!;
          if (result === 0 && reroll) result = resultByDice[rollAndKeep(rng, attackDice, attackKeep, attackKeepsHighest, kept)]!;
          if (result === 0) counts[0]! += 1;
          else counts[1 + rollInjury(rng, result === 2 ? onCritical : onHit, kept)]! += 1;
        }
      }
      const before = new Float64Array(tally.subarray(0, length));
      tally[missAt] = counts[0]!;
      for (let row = 0; row < 4; row++) tally[rowsAt + row] = counts[1 + row]!;
      addMarkers(tally, rowsAt, markersAt, markersByRow);
      for (let i = 0; i < length; i++) tally[i]! += before[i]!;
    },
  };
}
