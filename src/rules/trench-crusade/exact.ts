import { Dist } from '../../exact/dist.js';
import { formatFraction, toNumber, type Fraction } from '../../exact/fraction.js';
import { keepDice, keptSumCountsWithTopFace } from '../../exact/keep.js';
import type { ExactAnswer } from '../../model/types.js';
import type { OneRollScenario } from './fields.js';
import type { TrenchCrusadeRules } from './rule-spec.js';
import {
  bloodMarkersPlaced,
  extraMarkersPerRoll,
  injuryOutcome,
  type Armour,
  type AttackType,
  type BloodbathDie,
  type CriticalOn,
  type DownBonus,
  type InjuryOutcome,
  type ModifierCap,
} from './tables.js';

/** Everything that decides one injury roll, after the scenario's modifiers have been resolved. */
export interface InjuryRollPlan {
  /** Dice in the starting pool (2; 3 for a pooled Bloodbath or Deadly; both: deadlyBloodbathKeep). Also how many are kept. */
  readonly baseDice: number;
  /** Net injury dice: positive keeps the highest, negative the lowest. */
  readonly netDice: number;
  /** Flat modifier after the -3 cap. */
  readonly modifier: number;
  /** Playtest Bloodbath with bloodbathDie "separate": one more D6 added to the kept total. */
  readonly extraD6: number;
  /** No roll at all (a fall under 3 inches). */
  readonly noRoll: boolean;
  readonly alreadyDown: boolean;
  /** Tough (or firstOutOfActionNoEffect) and not yet used: Out of Action becomes Down (No Effect with saveIsNoEffect). */
  readonly toughSaves: boolean;
  /** The save is a first Out of Action's No Effect (firstOutOfActionNoEffect), not Tough's Down. */
  readonly saveIsNoEffect: boolean;
  /** The weapon's: a Minor Hit result of the table is a Down (a Chain Kura; before STANDFAST, ruling T33). */
  readonly minorAsDown: boolean;
  /** One die of the pool is put aside showing a 6, the rest rolled (a Tank-Splitter Sword against an armoured target, ruling T34). */
  readonly sixAside: boolean;
  /** STANDFAST: a Down result of the table is a Minor Hit (Tough's Down stays a Down). */
  readonly downBecomesMinor: boolean;
  /** GOLEM and this is not a Bloodbath roll: Out of Action is a Down (Tough is not used). */
  readonly golemSaves: boolean;
  /** The injury table the total is read on. */
  readonly table: TrenchCrusadeRules['injuryTable'];
}

/** Combines the flat modifiers under the chosen reading of the cap (`size`, -3 in the rules). */
export function cappedModifier(negatives: number, positives: number, cap: ModifierCap, size: number): number {
  switch (cap) {
    case 'negative':
      return Math.max(negatives, size) + positives;
    case 'net':
      return Math.max(negatives + positives, size);
    case 'none':
      return negatives + positives;
  }
}

/**
 * What decides one injury roll, whatever made it: a scenario of one roll (injuryRollInput), or a state
 * of a sequence (sequence/model.ts). Markers are already netted into `markerDice`.
 */
export interface InjuryRollInput {
  /** The rule table (an edition's, or a variant's) every number comes from. */
  readonly rules: TrenchCrusadeRules;
  /** A fall's height in inches; undefined for an injury from an attack. */
  readonly fallInches: number | undefined;
  readonly attackType: AttackType;
  readonly injuryDice: number;
  /** Injury dice from the target's own abilities ("-1 INJURY DICE" against it). */
  readonly targetInjuryDice: number;
  /** Blood markers spent (+1 dice each in the rules) less blessing markers spent (-1 each). */
  readonly markerDice: number;
  readonly criticalInjuryDice: number;
  readonly injuryModifier: number;
  readonly targetInjuryModifier: number;
  readonly armour: Armour;
  readonly shield: boolean;
  /** The weapon's IGNORE ARMOUR (always, or on a critical hit only) and ARMOUR PIERCING N. */
  readonly ignoreArmour: boolean;
  readonly ignoreArmourOnCritical: boolean;
  readonly armourPiercing: number;
  /** IMPERVIOUS armour keeps its modifier against IGNORE ARMOUR. */
  readonly impervious: boolean;
  /** The modifier the armour still gives when ignored (a Runeforged Armour's -1; 0: none; ruling T32). */
  readonly armourWhenIgnored: number;
  readonly modifierCap: ModifierCap;
  readonly bloodbath: boolean;
  readonly bloodbathDie: BloodbathDie;
  readonly deadly: boolean;
  readonly deadlyBloodbathKeep: number;
  readonly targetDown: boolean;
  readonly downBonus: DownBonus;
  /** The weapon's own rules against a Down target: IGNORE ARMOUR, and injury dice beyond the rules' Down bonus. */
  readonly ignoreArmourIfDown: boolean;
  readonly injuryDiceIfDown: number;
  /** The weapon's injury dice against a target in cover (injuryDiceInCover), 0 when it is not in cover. */
  readonly coverInjuryDice: number;
  /** Tough (or firstOutOfActionNoEffect) and not yet used: Out of Action becomes Down (No Effect with saveIsNoEffect). */
  readonly toughSaves: boolean;
  /** The save is a first Out of Action's No Effect (firstOutOfActionNoEffect), not Tough's Down. */
  readonly saveIsNoEffect: boolean;
  /** The weapon's Minor Hit as a Down (minorAsDown); false for a fall. */
  readonly minorAsDown: boolean;
  /** The weapon's die turned to a 6 against a target with armour or a shield (sixAgainstArmoured); false for a fall. */
  readonly sixAgainstArmoured: boolean;
  readonly downBecomesMinor: boolean;
  readonly golem: boolean;
}

/** The injury roll a scenario of one roll makes (a fall reads no attack type, Bloodbath die or critical dice: their defaults). */
export function injuryRollInput(s: OneRollScenario): InjuryRollInput {
  const attacking = s.kind === 'fall' ? undefined : s;
  return {
    rules: s.rules,
    fallInches: s.kind === 'fall' ? s.heightInches : undefined,
    attackType: attacking?.attackType ?? 'melee',
    injuryDice: s.injuryDice,
    targetInjuryDice: s.targetInjuryDice,
    markerDice: s.bloodMarkersSpent * s.rules.markers.injuryDicePerMarker - s.blessingMarkersSpent * s.rules.blessings.injuryDicePerMarker,
    criticalInjuryDice: attacking?.criticalInjuryDice ?? 0,
    injuryModifier: s.injuryModifier,
    targetInjuryModifier: s.targetInjuryModifier,
    armour: s.armour,
    shield: s.shield,
    ignoreArmour: attacking?.ignoreArmour ?? false,
    ignoreArmourOnCritical: s.kind === 'attack' ? s.ignoreArmourOnCritical : false,
    armourPiercing: attacking?.armourPiercing ?? 0,
    impervious: s.impervious,
    armourWhenIgnored: attacking?.armourWhenIgnored ?? 0,
    modifierCap: s.modifierCap,
    bloodbath: s.bloodbath,
    // Falls exist only where the Bloodbath is one pool.
    bloodbathDie: attacking?.bloodbathDie ?? 'pooled',
    deadly: s.deadly,
    deadlyBloodbathKeep: s.deadlyBloodbathKeep,
    targetDown: s.targetDown,
    downBonus: s.downBonus,
    ignoreArmourIfDown: attacking?.ignoreArmourIfDown ?? false,
    injuryDiceIfDown: attacking?.injuryDiceIfDown ?? 0,
    coverInjuryDice: s.kind === 'attack' && s.targetInCover ? s.injuryDiceInCover : 0,
    toughSaves: (s.tough || s.firstOutOfActionNoEffect) && !s.toughUsed,
    saveIsNoEffect: s.firstOutOfActionNoEffect,
    minorAsDown: attacking?.minorAsDown ?? false,
    sixAgainstArmoured: attacking?.sixAgainstArmoured ?? false,
    downBecomesMinor: s.downBecomesMinor,
    golem: s.golem,
  };
}

/** Resolves an injury roll's inputs into the dice it rolls; `critical` says whether the hit was one. */
export function planInjuryRoll(r: InjuryRollInput, critical: boolean): InjuryRollPlan {
  const rules = r.rules;
  const isFall = r.fallInches !== undefined;
  const height = r.fallInches ?? 0;
  const fallDice = isFall ? Math.floor(height / rules.fall.inchesPerStep) * rules.fall.dicePerStep : 0;
  const isMelee = !isFall && r.attackType === 'melee';
  const downDice = (r.targetDown && (r.downBonus === 'any' || (r.downBonus === 'melee' && isMelee)) ? rules.down.injuryDice : 0) + (r.targetDown ? r.injuryDiceIfDown : 0);
  const criticalDice = critical ? r.criticalInjuryDice : 0;
  const netDice = r.injuryDice + r.targetInjuryDice + r.markerDice + criticalDice + downDice + fallDice + r.coverInjuryDice;

  const bloodbath = r.bloodbath && rules.bloodbath.available;
  const separateDie = bloodbath && r.bloodbathDie === 'separate';
  const pooledBloodbath = bloodbath && !separateDie;
  const baseDice =
    pooledBloodbath && r.deadly
      ? r.deadlyBloodbathKeep
      : pooledBloodbath
        ? rules.bloodbath.dice
        : r.deadly
          ? rules.deadly.dice
          : rules.injuryRoll.dice;
  const extraD6 = separateDie ? 1 : 0;

  // Playtest: Machine Armour is "not cumulative with a shield", so the shield adds nothing there.
  // Where the table forbids the combination, validation rejects it before we get here.
  // IGNORE ARMOUR takes away the armour's and the shield's modifiers; ARMOUR PIERCING N shortens the
  // armour's (not the shield's) by N, never past 0. Ignored armour that still gives a modifier
  // (armourWhenIgnored, ruling T32) gives the weaker of that and its own, which ARMOUR PIERCING shortens as any armour's.
  const ignored = r.ignoreArmour || (critical && r.ignoreArmourOnCritical) || (r.targetDown && r.ignoreArmourIfDown);
  const shield = !ignored && r.shield && r.armour !== 'machine' ? rules.shield.modifier : 0;
  const worn = ignored && !r.impervious ? Math.max(rules.armour[r.armour], r.armourWhenIgnored) : rules.armour[r.armour];
  const armour = Math.min(0, worn + r.armourPiercing);
  const negatives = armour + shield + r.targetInjuryModifier + Math.min(r.injuryModifier, 0);
  const positives = Math.max(r.injuryModifier, 0);

  return {
    baseDice,
    netDice,
    modifier: cappedModifier(negatives, positives, r.modifierCap, rules.modifierCap.size),
    extraD6,
    noRoll: isFall && height < rules.fall.minimumInches,
    alreadyDown: r.targetDown,
    toughSaves: r.toughSaves,
    saveIsNoEffect: r.saveIsNoEffect,
    minorAsDown: r.minorAsDown,
    // The target wears armour or carries a shield (ruling T34: what it has, whether or not this roll ignores it).
    sixAside: r.sixAgainstArmoured && (r.armour !== 'none' || r.shield),
    downBecomesMinor: r.downBecomesMinor,
    // Any Bloodbath roll can take a GOLEM out of action, its die pooled or apart.
    golemSaves: r.golem && !bloodbath,
    table: rules.injuryTable,
  };
}

/** Distribution of the modified injury-roll total (before the table). */
export function injuryTotalDist(plan: InjuryRollPlan): Dist<number> {
  const pool = plan.baseDice + Math.abs(plan.netDice);
  let kept = plan.sixAside
    ? new Dist(keptSumCountsWithTopFace(pool, plan.baseDice, plan.netDice < 0).map((w, sum) => [sum, w] as const))
    : keepDice(pool, plan.baseDice, 6, plan.netDice < 0 ? 'lowest' : 'highest');
  for (let i = 0; i < plan.extraD6; i++) kept = kept.plus(Dist.die(6));
  return kept.shift(plan.modifier);
}

export function injuryOutcomeDist(plan: InjuryRollPlan): Dist<InjuryOutcome> {
  if (plan.noRoll) return Dist.constant<InjuryOutcome>('no-effect');
  return injuryTotalDist(plan).map((total) => {
    const read = injuryOutcome(total, plan.table);
    // The attacker's weapon turns a Minor Hit into a Down, then the target's STANDFAST turns a Down into a
    // Minor Hit (ruling T33): each result rule once, the attacker's first.
    const outcome = read === 'minor-hit' && plan.minorAsDown ? 'down' : read;
    if (outcome === 'down' && plan.downBecomesMinor) return 'minor-hit';
    if (outcome !== 'out-of-action') return outcome;
    // A GOLEM's save comes first and is always a Down; the one save of an Out of Action is Tough's Down,
    // or the first Out of Action's No Effect (ruling T28).
    if (plan.golemSaves) return 'down';
    return plan.toughSaves ? (plan.saveIsNoEffect ? 'no-effect' : 'down') : outcome;
  });
}

/**
 * Success roll of an attack: the table's dice plus net attack dice, keep that many, plus the flat
 * modifier. With criticalOn "unmodified" the kept dice alone decide a critical (a hit whatever the
 * modifier); the modified total still decides hit or miss. `criticalAt` is the weapon's threshold
 * (criticalThreshold, by default the table's `critical`): a total (or dice) reaching it is a critical,
 * and so a hit (ruling T37). With `rerollFailed` a miss is rolled again once, the second result standing
 * (ruling T38): miss m^2, hit h(1 + m), critical c(1 + m) of the roll's own m, h, c.
 */
export function successRollDist(
  attackDice: number,
  attackModifier: number,
  roll: TrenchCrusadeRules['successRoll'],
  criticalOn: CriticalOn = 'modified',
  autoHit = false,
  criticalAt: number = roll.critical,
  rerollFailed = false,
): Dist<'miss' | 'hit' | 'critical'> {
  // An auto-hit weapon makes no roll: a hit, never a critical.
  if (autoHit) return Dist.constant<'miss' | 'hit' | 'critical'>('hit');
  const net = attackDice;
  const dice = keepDice(roll.dice + Math.abs(net), roll.dice, 6, net < 0 ? 'lowest' : 'highest');
  const once = dice.map((kept) => {
    const total = kept + attackModifier;
    if (criticalOn === 'unmodified') return kept >= criticalAt ? 'critical' : total >= roll.hit ? 'hit' : 'miss';
    return total >= criticalAt ? 'critical' : total >= roll.hit ? 'hit' : 'miss';
  });
  if (!rerollFailed) return once;
  // Built by hand, not by flatMap (which reduces): a sequence's rows need a power of 6 as denominator.
  const t = once.total;
  const m = once.weight('miss');
  return new Dist<'miss' | 'hit' | 'critical'>([
    ['miss', m * m],
    ['hit', once.weight('hit') * (t + m)],
    ['critical', once.weight('critical') * (t + m)],
  ]);
}

/** Outcome distribution for any Trench Crusade kind of one roll (`injury`, `fall`, `attack`). */
export function outcomeDist(s: OneRollScenario): Dist<string> {
  const input = injuryRollInput(s);
  if (s.kind === 'attack') {
    const success = successRollDist(attackDiceOf(s), s.attackModifier, s.rules.successRoll, s.criticalOn, s.autoHit, s.criticalThreshold, s.rerollFailedSuccess);
    return success.flatMap<string>((r) =>
      r === 'miss' ? Dist.constant('miss') : injuryOutcomeDist(planInjuryRoll(input, r === 'critical')),
    );
  }
  return injuryOutcomeDist(planInjuryRoll(input, s.kind === 'injury' && s.critical));
}

export function exactAnswer(s: OneRollScenario, outcomes: readonly string[]): ExactAnswer {
  const dist = outcomeDist(s);
  const alreadyDown = s.targetDown;
  // FIRE, GAS and SHRAPNEL add their markers to every injury roll the target survives.
  const extra = s.kind === 'fall' ? 0 : extraMarkersPerRoll(s);
  // The weapon's multiplier of the result's own markers (ruling T36), not of FIRE's and the like.
  const times = s.kind === 'fall' ? 1 : s.bloodMarkersMultiplier;
  const markers = dist.expectation((o) =>
    o === 'miss' || o === 'out-of-action' ? 0 : bloodMarkersPlaced(o as InjuryOutcome, alreadyDown, s.rules.markers) * times + extra,
  );
  return {
    outcomes: outcomes.map((o): Fraction => dist.probability(o)),
    means: [markers],
    histograms: [],
    notes: describeRolls(s),
    ...(s.kind === 'attack' ? { extra: { successRoll: successRollChances(attackDiceOf(s), s.attackModifier, s.rules.successRoll, s.criticalOn, s.autoHit, s.criticalThreshold, s.rerollFailedSuccess) } } : {}),
  };
}

/**
 * The net dice of a success roll: the weapon's, a FEAR target's against a melee attacker without FEAR,
 * the target's own "-N DICE" against the attacks it names, and a ranged attack's Cover and Long Range
 * modifiers (rangedModifierDice).
 */
export function attackDiceOf(s: RangedModifierInput & {
  attackDice: number;
  fear: boolean;
  attackerFear: boolean;
  targetAttackDice: number;
  targetAttackDiceApplies: string;
}): number {
  const targets = s.targetAttackDiceApplies === 'both' || s.targetAttackDiceApplies === s.attackType;
  return s.attackDice + (s.fear && s.attackType === 'melee' && !s.attackerFear ? s.rules.fear.attackDice : 0) + (targets ? s.targetAttackDice : 0) + rangedModifierDice(s);
}

/** What the Cover and Long Range modifiers read. */
export interface RangedModifierInput {
  attackType: string;
  targetInCover: boolean;
  longRange: boolean;
  ignoreCover: boolean;
  ignoreLongRange: boolean;
  coverDice: number;
  coverAndLongRangeDice: number | 'usual';
  rules: TrenchCrusadeRules;
}

/**
 * The dice a success roll gets from the Ranged Attack Modifiers (ruling T30): only a ranged attack's;
 * each modifier only where its condition holds and the weapon does not ignore it; the target's
 * coverDice as the Cover modifier and the rules' as Long Range's, each replaced by the weapon's
 * coverAndLongRangeDice when it gives a number (ruling T31).
 */
export function rangedModifierDice(s: RangedModifierInput): number {
  if (s.attackType !== 'ranged') return 0;
  const instead = s.coverAndLongRangeDice;
  const cover = s.targetInCover && !s.ignoreCover ? (instead === 'usual' ? s.coverDice : instead) : 0;
  const long = s.longRange && !s.ignoreLongRange ? (instead === 'usual' ? s.rules.ranged.longRangeDice : instead) : 0;
  return cover + long;
}

/**
 * The case a ranged attack's answer assumed, said with it (the defaults too: not in cover, within half
 * range), each modifier with the dice it gave; nothing for a melee attack, which neither touches.
 */
export function describeRangedCase(s: RangedModifierInput): string | undefined {
  if (s.attackType !== 'ranged') return undefined;
  const dice = (n: number) => `${n > 0 ? '+' : ''}${n} DICE`;
  const instead = s.coverAndLongRangeDice;
  const cover = !s.targetInCover
    ? 'the target not in cover'
    : s.ignoreCover
      ? 'the target in cover, ignored (IGNORE COVER)'
      : `the target in cover (${dice(instead === 'usual' ? s.coverDice : instead)})`;
  const range = !s.longRange
    ? "within half the weapon's range"
    : s.ignoreLongRange
      ? 'at long range, ignored (IGNORE LONG RANGE)'
      : `at long range (${dice(instead === 'usual' ? s.rules.ranged.longRangeDice : instead)})`;
  return `Ranged attack: ${cover}; ${range}`;
}

/** The success roll's own chances, exact: `hit` is a hit that is not a critical. */
export function successRollChances(attackDice: number, attackModifier: number, roll: TrenchCrusadeRules['successRoll'], criticalOn: CriticalOn, autoHit: boolean, criticalAt: number, rerollFailed: boolean) {
  const dist = successRollDist(attackDice, attackModifier, roll, criticalOn, autoHit, criticalAt, rerollFailed);
  const chance = (r: 'miss' | 'hit' | 'critical') => ({ probability: toNumber(dist.probability(r)), exact: formatFraction(dist.probability(r)) });
  return { miss: chance('miss'), hit: chance('hit'), critical: chance('critical') };
}

export function describePlan(plan: InjuryRollPlan): string {
  if (plan.noRoll) return 'no injury roll (a fall too short to injure)';
  const pool = plan.baseDice + Math.abs(plan.netDice);
  const keep =
    plan.netDice === 0 ? `${pool}D6` : `${pool}D6 keep ${plan.baseDice} ${plan.netDice > 0 ? 'highest' : 'lowest'}`;
  const extra = (plan.sixAside ? ' (one of them put aside as a 6)' : '') + (plan.extraD6 > 0 ? ` + ${plan.extraD6}D6 (Bloodbath)` : '');
  const mod = plan.modifier === 0 ? '' : ` ${plan.modifier > 0 ? '+' : '-'} ${Math.abs(plan.modifier)}`;
  const tough = plan.toughSaves ? (plan.saveIsNoEffect ? '; its first Out of Action is a No Effect' : '; Tough turns Out of Action into Down') : '';
  const minor = plan.minorAsDown ? (plan.downBecomesMinor ? '; a Minor Hit is a Down, which STANDFAST makes a Minor Hit' : '; a Minor Hit is a Down') : '';
  return `${keep}${extra}${mod}${tough}${minor}`;
}

function describeRolls(s: OneRollScenario): string[] {
  const input = injuryRollInput(s);
  if (s.kind === 'attack') {
    const net = attackDiceOf(s);
    const roll = s.rules.successRoll;
    const pool = roll.dice + Math.abs(net);
    const keep = net === 0 ? `${pool}D6` : `${pool}D6 keep ${roll.dice} ${net > 0 ? 'highest' : 'lowest'}`;
    const mod = s.attackModifier;
    if (s.autoHit) {
      return [
        'No success roll (auto-hit): every attack hits, none is a critical',
        `Injury roll on a hit: ${describePlan(planInjuryRoll(input, false))}`,
      ];
    }
    const ranged = describeRangedCase(s);
    const reroll = s.rerollFailedSuccess ? '; a failure is rolled again once' : '';
    return [
      ...(ranged ? [ranged] : []),
      `Success roll: ${keep}${mod ? ` ${mod > 0 ? '+' : '-'} ${Math.abs(mod)}` : ''} (${roll.hit - 1} or less misses, ${s.criticalThreshold}+ ${s.criticalOn === 'unmodified' ? 'on the dice alone ' : ''}is critical${reroll})`,
      `Injury roll on a hit: ${describePlan(planInjuryRoll(input, false))}`,
      `Injury roll on a critical: ${describePlan(planInjuryRoll(input, true))}`,
    ];
  }
  const roll = `Injury roll: ${describePlan(planInjuryRoll(input, s.kind === 'injury' && s.critical))}`;
  if (s.kind !== 'fall' || s.heightInches < s.rules.fall.minimumInches) return [roll];
  // Say where the fall's dice come from: a designer reads "4D6 keep 2" and asks why.
  const fall = s.rules.fall;
  const dice = Math.floor(s.heightInches / fall.inchesPerStep) * fall.dicePerStep;
  return [`${roll} (a ${s.heightInches}-inch fall: +${dice} injury dice, +${fall.dicePerStep} per full ${fall.inchesPerStep} inches)`];
}
