import { Dist } from '../../exact/dist.js';
import type { Fraction } from '../../exact/fraction.js';
import { keepDice } from '../../exact/keep.js';
import type { ExactAnswer, Scenario } from '../../model/types.js';
import {
  ARMOUR_MODIFIER,
  BLOODBATH_OR_DEADLY_BASE_DICE,
  CRITICAL_MIN,
  DOWN_BONUS_DICE,
  FALL_INCHES_PER_DICE,
  FALL_MIN_INCHES,
  HAS_BLOODBATH,
  INJURY_BASE_DICE,
  INJURY_OUTCOMES,
  MISS_MAX,
  NEGATIVE_MODIFIER_CAP,
  SHIELD_MODIFIER,
  SUCCESS_BASE_DICE,
  bloodMarkersPlaced,
  injuryOutcome,
  type Armour,
  type Edition,
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
  /** Tough and not yet used: Out of Action becomes Down. */
  readonly toughSaves: boolean;
}

/** Combines the flat modifiers under the chosen reading of the -3 cap. */
export function cappedModifier(negatives: number, positives: number, cap: ModifierCap): number {
  switch (cap) {
    case 'negative':
      return Math.max(negatives, NEGATIVE_MODIFIER_CAP) + positives;
    case 'net':
      return Math.max(negatives + positives, NEGATIVE_MODIFIER_CAP);
    case 'none':
      return negatives + positives;
  }
}

/** Resolves a validated scenario into the injury roll it makes; `critical` says whether the hit was one. */
export function planInjuryRoll(s: Scenario, critical: boolean): InjuryRollPlan {
  const edition = s.edition as Edition;
  const isFall = s.kind === 'fall';
  const height = isFall ? (s.heightInches as number) : 0;
  const fallDice = isFall ? Math.floor(height / FALL_INCHES_PER_DICE) : 0;
  const isMelee = !isFall && s.attackType === 'melee';
  const downBonus = s.downBonus as string;
  const downDice =
    s.targetDown && (downBonus === 'any' || (downBonus === 'melee' && isMelee)) ? DOWN_BONUS_DICE : 0;
  const criticalDice = critical ? (s.criticalInjuryDice as number) : 0;
  const netDice =
    (s.injuryDice as number) +
    (s.bloodMarkersSpent as number) -
    (s.blessingMarkersSpent as number) +
    criticalDice +
    downDice +
    fallDice;

  // A fall reads no bloodbathDie (undefined): pooled, the only choice where falls exist.
  const bloodbath = s.bloodbath === true && HAS_BLOODBATH[edition];
  const separateDie = bloodbath && s.bloodbathDie === 'separate';
  const pooledBloodbath = bloodbath && !separateDie;
  const deadly = s.deadly === true;
  const baseDice =
    pooledBloodbath && deadly
      ? (s.deadlyBloodbathKeep as number)
      : pooledBloodbath || deadly
        ? BLOODBATH_OR_DEADLY_BASE_DICE
        : INJURY_BASE_DICE;
  const extraD6 = separateDie ? 1 : 0;

  // Playtest: Machine Armour is "not cumulative with a shield", so the shield adds nothing there.
  // The other editions forbid the combination; validation rejects it before we get here.
  const armour = s.armour as Armour;
  const shield = s.shield === true && armour !== 'machine' ? SHIELD_MODIFIER : 0;
  const attackerModifier = s.injuryModifier as number;
  const negatives =
    ARMOUR_MODIFIER[armour] + shield + (s.targetInjuryModifier as number) + Math.min(attackerModifier, 0);
  const positives = Math.max(attackerModifier, 0);

  return {
    baseDice,
    netDice,
    modifier: cappedModifier(negatives, positives, s.modifierCap as ModifierCap),
    extraD6,
    noRoll: isFall && height < FALL_MIN_INCHES,
    alreadyDown: s.targetDown === true,
    toughSaves: s.tough === true && s.toughUsed !== true,
  };
}

/** Distribution of the modified injury-roll total (before the table). */
export function injuryTotalDist(plan: InjuryRollPlan): Dist<number> {
  const pool = plan.baseDice + Math.abs(plan.netDice);
  let kept = keepDice(pool, plan.baseDice, 6, plan.netDice < 0 ? 'lowest' : 'highest');
  for (let i = 0; i < plan.extraD6; i++) kept = kept.plus(Dist.die(6));
  return kept.shift(plan.modifier);
}

export function injuryOutcomeDist(plan: InjuryRollPlan): Dist<InjuryOutcome> {
  if (plan.noRoll) return Dist.constant<InjuryOutcome>('no-effect');
  return injuryTotalDist(plan).map((total) => {
    const outcome = injuryOutcome(total);
    return outcome === 'out-of-action' && plan.toughSaves ? 'down' : outcome;
  });
}

/** Success roll of an attack: 2D6 plus net attack dice, keep 2, plus the flat modifier. */
export function successRollDist(s: Scenario): Dist<'miss' | 'hit' | 'critical'> {
  const net = s.attackDice as number;
  const total = keepDice(SUCCESS_BASE_DICE + Math.abs(net), SUCCESS_BASE_DICE, 6, net < 0 ? 'lowest' : 'highest');
  return total
    .shift(s.attackModifier as number)
    .map((t) => (t <= MISS_MAX ? 'miss' : t >= CRITICAL_MIN ? 'critical' : 'hit'));
}

/** Outcome distribution for any Trench Crusade kind of one roll (`injury`, `fall`, `attack`). */
export function outcomeDist(s: Scenario): Dist<string> {
  if (s.kind === 'attack') {
    const success = successRollDist(s);
    return success.flatMap<string>((r) =>
      r === 'miss' ? Dist.constant('miss') : injuryOutcomeDist(planInjuryRoll(s, r === 'critical')),
    );
  }
  return injuryOutcomeDist(planInjuryRoll(s, s.critical === true));
}

export function exactAnswer(s: Scenario, outcomes: readonly string[]): ExactAnswer {
  const dist = outcomeDist(s);
  const alreadyDown = s.targetDown === true;
  const markers = dist.expectation((o) =>
    o === 'miss' ? 0 : bloodMarkersPlaced(o as InjuryOutcome, alreadyDown),
  );
  return {
    outcomes: outcomes.map((o): Fraction => dist.probability(o)),
    means: [markers],
    histograms: [],
    notes: describeRolls(s),
  };
}

export function describePlan(plan: InjuryRollPlan): string {
  if (plan.noRoll) return 'no injury roll (a fall under 3 inches)';
  const pool = plan.baseDice + Math.abs(plan.netDice);
  const keep =
    plan.netDice === 0 ? `${pool}D6` : `${pool}D6 keep ${plan.baseDice} ${plan.netDice > 0 ? 'highest' : 'lowest'}`;
  const extra = plan.extraD6 > 0 ? ` + ${plan.extraD6}D6 (Bloodbath)` : '';
  const mod = plan.modifier === 0 ? '' : ` ${plan.modifier > 0 ? '+' : '-'} ${Math.abs(plan.modifier)}`;
  const tough = plan.toughSaves ? '; Tough turns Out of Action into Down' : '';
  return `${keep}${extra}${mod}${tough}`;
}

function describeRolls(s: Scenario): string[] {
  if (s.kind === 'attack') {
    const net = s.attackDice as number;
    const pool = SUCCESS_BASE_DICE + Math.abs(net);
    const keep = net === 0 ? `${pool}D6` : `${pool}D6 keep 2 ${net > 0 ? 'highest' : 'lowest'}`;
    const mod = s.attackModifier as number;
    return [
      `Success roll: ${keep}${mod ? ` ${mod > 0 ? '+' : '-'} ${Math.abs(mod)}` : ''} (6 or less misses, 12+ is critical)`,
      `Injury roll on a hit: ${describePlan(planInjuryRoll(s, false))}`,
      `Injury roll on a critical: ${describePlan(planInjuryRoll(s, true))}`,
    ];
  }
  return [`Injury roll: ${describePlan(planInjuryRoll(s, s.critical === true))}`];
}

