import { Dist } from '../../exact/dist.js';
import { ONE, ZERO, add, div, fraction, mul, sub, type Fraction } from '../../exact/fraction.js';
import { keepDice } from '../../exact/keep.js';
import type { ExactAnswer } from '../../model/types.js';
import type { D20WarbandScenario, OneActionKind } from './fields.js';
import type { D20WarbandRules } from './rule-spec.js';
import {
  DAZED,
  DIE_SIDES,
  INCAPACITATED,
  INJURY_ROLL_OUTCOMES,
  NONE,
  STAGGERED,
  STATE_SEVERITY,
  STUNNED,
  modifierValue,
  statValue,
  type InjuryTiming,
  type Severity,
} from './tables.js';

/** +1 advantage, -1 disadvantage, 0 a plain d20 (both at once cancel: see docs/rules-d20.md). */
export type Tilt = -1 | 0 | 1;

export function tilt(advantage: boolean, disadvantage: boolean): Tilt {
  return advantage === disadvantage ? 0 : advantage ? 1 : -1;
}

const keptCache = new Map<Tilt, Dist<number>>();
/** The kept d20 of a check or roll: one d20, or the higher/lower of two (stats file, Advantage). */
export function keptD20(t: Tilt): Dist<number> {
  let d = keptCache.get(t);
  if (!d) {
    d = t === 0 ? Dist.die(DIE_SIDES) : keepDice(2, 1, DIE_SIDES, t > 0 ? 'highest' : 'lowest');
    keptCache.set(t, d);
  }
  return d;
}

/**
 * The number a natural roll must reach for a stat check, after `improvement` points of modifiers, or null
 * when no roll is made: a "-" stat "does not need to make Defence Checks", but its first point of
 * improvement makes it `dashFirstImproved` ("changes the stat from a '-' to a '20'", stats file, Stats
 * with Dashes), and each further point lowers it by 1.
 */
export function checkTarget(stat: number | null, improvement: number, rules: D20WarbandRules): number | null {
  if (stat !== null) return stat - improvement;
  return improvement > 0 ? rules.dashFirstImproved - (improvement - 1) : null;
}

/**
 * Whether a natural roll passes a check needing `target`: a natural of naturalSuccessMin or more always
 * passes, and (below that) a natural of naturalFailMax or less always fails (stats file, Criticals and Stats
 * Checks: 20 and 1-4 in the rules).
 */
export function passes(natural: number, target: number, rules: D20WarbandRules): boolean {
  if (natural >= rules.naturalSuccessMin) return true;
  if (natural <= rules.naturalFailMax) return false;
  return natural >= target;
}

/** Whether a natural attack roll is a Critical Hit: naturals of criticalHitMin or more (20 in the rules). */
export function isCriticalHit(natural: number, rules: D20WarbandRules): boolean {
  return natural >= rules.criticalHitMin;
}

/**
 * Whether a natural attack roll hits: a Critical Hit is a hit whatever the stat (the spec keeps
 * criticalHitMin above naturalFailMax, so no natural is both); any other roll is a check.
 */
export function attackHits(natural: number, target: number, rules: D20WarbandRules): boolean {
  return isCriticalHit(natural, rules) || passes(natural, target, rules);
}

/** Injury Check Chart (injury file) on the modified attack roll: each band from its lowest total up. */
export function injuryCheckResult(value: number, table: D20WarbandRules['injuryCheckTable']): Severity {
  return value >= table.incapacitated ? INCAPACITATED : value >= table.stunned ? STUNNED : DAZED;
}

export type InjuryRollOutcome = (typeof INJURY_ROLL_OUTCOMES)[number];
/** Injury Roll Table (injury file) on the modified d20: each band from its lowest total up, below Dazed no effect. */
export function injuryRollResult(value: number, table: D20WarbandRules['injuryRollTable']): InjuryRollOutcome {
  if (value >= table.incapacitated) return 'incapacitated';
  if (value >= table.stunned) return 'stunned';
  if (value >= table.dazed) return 'dazed';
  return 'no-effect';
}

/** +modifierPerInch for every extra full inch above freeInches ("+2 ... above 2"", injury file, Falling). */
export function fallModifier(heightInches: number, fall: D20WarbandRules['fall']): number {
  return fall.modifierPerInch * Math.max(0, Math.floor(heightInches - fall.freeInches));
}

/** The naturals from `n` up: "20", "18-20". */
function naturalsFrom(n: number): string {
  return n >= DIE_SIDES ? String(DIE_SIDES) : `${n}-${DIE_SIDES}`;
}

/** A band of totals: "15", "15-17". */
function band(low: number, high: number): string {
  return low === high ? String(low) : `${low}-${high}`;
}

// ---------------------------------------------------------------------------------------------------------
// check

function checkAnswer(s: D20WarbandScenario<'check'>): ExactAnswer {
  const rules = s.rules;
  const target = checkTarget(statValue(s.stat), s.modifier, rules);
  const t = tilt(s.advantage === true, s.disadvantage === true);
  if (target === null) {
    const first = rules.dashFirstImproved;
    return {
      outcomes: [ONE, ZERO],
      means: [ZERO],
      histograms: [],
      notes: [`No roll: a "-" stat fails without rolling unless a modifier improves it (it then reads ${first}, ${first - 1}, ...)`],
    };
  }
  const kept = keptD20(t);
  const result = kept.map((r) => (passes(r, target, rules) ? 'success' : 'fail'));
  // The mean (naturalTwentyProbability) is the chance of a natural that always succeeds: naturalSuccessMin or more.
  return {
    outcomes: [result.probability('fail'), result.probability('success')],
    means: [kept.probabilityWhere((r) => r >= rules.naturalSuccessMin)],
    histograms: [],
    notes: [`Check: ${describeD20(t)} needs ${describeNeed(target, rules)}`],
  };
}

function describeD20(t: Tilt): string {
  return t === 0 ? 'd20' : `2d20 keep ${t > 0 ? 'highest (advantage)' : 'lowest (disadvantage)'}`;
}

/** What a check needing `target` passes on, in the table's numbers ("10+ (natural 1-4 always fail, ...)"). */
function describeNeed(target: number | null, rules: D20WarbandRules): string {
  if (target === null) return 'nothing: no roll is made, the check fails';
  const { naturalFailMax: failMax, naturalSuccessMin: successMin } = rules;
  // The lowest natural the stat passes on, the always-fail naturals aside.
  const byStat = Math.max(target, failMax + 1);
  if (byStat >= successMin) {
    return successMin > DIE_SIDES ? 'a natural above 20: no roll passes' : `a natural ${naturalsFrom(successMin)}`;
  }
  const fails = failMax === 0 ? 'no natural always fails' : `natural ${band(1, failMax)} always fail${failMax === 1 ? 's' : ''}`;
  const succeeds = successMin > DIE_SIDES ? 'no natural always succeeds' : `natural ${naturalsFrom(successMin)} always succeed${successMin >= DIE_SIDES ? 's' : ''}`;
  return `${byStat}+ (${fails}, ${succeeds})`;
}

/** What an attack check hits on: a check, widened by Critical Hits where they start below what the check passes on. */
function describeAttackNeed(target: number, rules: D20WarbandRules): string {
  const checkLowest = Math.min(rules.naturalSuccessMin, Math.max(target, rules.naturalFailMax + 1));
  if (rules.criticalHitMin >= checkLowest || rules.criticalHitMin > DIE_SIDES) return describeNeed(target, rules);
  return `a natural ${naturalsFrom(rules.criticalHitMin)} (a Critical Hit, which is a hit whatever the stat)`;
}

// ---------------------------------------------------------------------------------------------------------
// injury-roll and fall

function injuryRollAnswer(s: D20WarbandScenario<'injury-roll' | 'fall'>): ExactAnswer {
  const rules = s.rules;
  const extra = s.kind === 'fall' ? fallModifier(s.heightInches, rules.fall) : 0;
  const mod = s.modifier + extra;
  const t = tilt(s.advantage === true, s.disadvantage === true);
  const result = keptD20(t)
    .shift(mod)
    .map((total) => injuryRollResult(total, rules.injuryRollTable));
  const fall = s.kind === 'fall' ? ` (falling ${s.heightInches}": +${extra})` : '';
  return {
    outcomes: INJURY_ROLL_OUTCOMES.map((o) => result.probability(o)),
    means: [],
    histograms: [],
    notes: [`Injury roll: ${describeD20(t)} ${mod >= 0 ? '+' : '-'} ${Math.abs(mod)}${fall}`],
  };
}

// ---------------------------------------------------------------------------------------------------------
// attack

/** Everything that decides one attack action, read from a validated scenario. */
export interface AttackPlan {
  readonly melee: boolean;
  readonly attacks: number;
  readonly explode: boolean;
  readonly advantage: boolean;
  readonly disadvantage: boolean;
  /** Natural roll the attack check needs (before the natural-roll and Critical Hit rules). */
  readonly attackTarget: number;
  /** Added to the kept attack roll for the Injury Check. */
  readonly injuryAdd: number;
  /** Natural roll the Defence check needs, or null when no roll is made (an unimproved "-"). */
  readonly defenceTarget: number | null;
  readonly startState: Severity;
  readonly startWounds: number;
  readonly timing: InjuryTiming;
  readonly stunnedDefends: boolean;
  /** Defence rolls with disadvantage for the whole action (started Staggered and the option is on). */
  readonly staggeredAllAction: boolean;
  /** The rule table (an edition's or a variant's) every number of the action comes from. */
  readonly rules: D20WarbandRules;
}

export function attackPlan(s: D20WarbandScenario<'attack' | 'turns'>): AttackPlan {
  const rules = s.rules;
  const modifier = s.modifier;
  const stat = statValue(s.stat);
  // checkCombination rejects a "-" attack stat, so this never falls back.
  const attackTarget = checkTarget(stat, modifier, rules) ?? DIE_SIDES + 1;
  // Pierce is "the equivalent of saying 'a -1 Defence modifier for your opponent'" (stats file), so it nets
  // against the Defence modifier before a "-" is improved.
  const defenceImprovement = s.defenceModifier - modifierValue(s.pierce);
  return {
    melee: s.attackType === 'melee',
    attacks: s.attacks,
    explode: s.explode === true,
    advantage: s.advantage === true,
    disadvantage: s.disadvantage === true,
    attackTarget,
    injuryAdd: modifierValue(s.injury) + (s.attackModifierToInjury === true ? modifier : 0),
    defenceTarget: checkTarget(statValue(s.defence), defenceImprovement, rules),
    startState: STATE_SEVERITY[s.state],
    startWounds: s.wounds,
    timing: s.injuryTiming,
    stunnedDefends: s.stunnedDefends !== false,
    staggeredAllAction: s.staggerPersists !== false && s.state === 'staggered',
    rules,
  };
}

/** One attack's effect on the target: whether it exploded and the target's state and wounds after it. */
interface Step {
  readonly p: Fraction;
  readonly crit: boolean;
  readonly state: Severity;
  readonly wounds: number;
}

function stepKey(crit: boolean, state: Severity, wounds: number): string {
  return `${crit ? 1 : 0}|${state}|${wounds}`;
}

function parseStepKey(key: string, p: Fraction): Step {
  const [c, st, w] = key.split('|');
  return { p, crit: c === '1', state: Number(st) as Severity, wounds: Number(w) };
}

/** Distribution of a Defence check: 'fail' includes "no roll" (stats file, Criticals). */
function defenceDist(plan: AttackPlan, effective: Severity): Dist<'pass' | 'fail'> {
  if (plan.defenceTarget === null) return Dist.constant('fail');
  if (!plan.melee && effective === STUNNED && !plan.stunnedDefends) return Dist.constant('fail');
  // "all Checks made by it are rolled with Disadvantage until the end of the current turn" (injury file,
  // Staggered): by default that lasts the whole action even after a worse injury replaces Staggered.
  const target = plan.defenceTarget;
  const rules = plan.rules;
  return keptD20(effective === STAGGERED || plan.staggeredAllAction ? -1 : 0).map((d) => (passes(d, target, rules) ? 'pass' : 'fail'));
}

/** The target after a hit it failed to defend, given the kept attack roll. */
function afterFailedDefence(
  plan: AttackPlan,
  effective: Severity,
  state: Severity,
  wounds: number,
  roll: number,
): { state: Severity; wounds: number } {
  // "If a Dazed warrior fails a Defence Check in Melee they are immediately Incapacitated, no Injury Check
  // required" (injury file): it replaces the wound and the Injury Check.
  if (plan.melee && effective === DAZED) return { state: INCAPACITATED, wounds };
  // "it actually loses 1 Wound first. If this would bring its Wounds to 0, then it rolls the Injury Check"
  // (injury file, Wounds); a unit with none left goes straight to the Injury Check.
  let w = wounds;
  if (w > 0) {
    w -= 1;
    if (w > 0) return { state, wounds: w };
  }
  const result = injuryCheckResult(roll + plan.injuryAdd, plan.rules.injuryCheckTable);
  // Ranged: "If the Injury Check would inflict a less severe Injury than the one the unit already has,
  // nothing happens" (injury file). In melee an injured unit never reaches an Injury Check (Stunned and
  // Dazed are handled above, and every result is worse than Staggered), so the same max is exact there.
  return { state: result > state ? result : state, wounds: w };
}

/** Distribution of one attack against a target in `state` with `wounds` left. */
function oneAttack(plan: AttackPlan, state: Severity, wounds: number): Step[] {
  const effective = plan.timing === 'next-attack' ? state : plan.startState;
  // "If a Stunned unit is attacked in Melee, they are immediately Incapacitated, no Melee, Defence, or
  // Injury Checks required" (injury file): no roll, so no critical hit either.
  if (plan.melee && effective === STUNNED) return [{ p: ONE, crit: false, state: INCAPACITATED, wounds }];
  // "Enemies attacking Dazed units do so with Advantage" (injury file); one advantage, however many sources.
  const roll = keptD20(tilt(plan.advantage || effective === DAZED, plan.disadvantage));
  const defence = defenceDist(plan, effective);
  const rules = plan.rules;
  const steps = roll.flatMap<string>((r) => {
    // A natural of criticalHitMin or more is a Critical Hit: with explode, it owes one more attack.
    const crit = plan.explode && isCriticalHit(r, rules);
    const unchanged = stepKey(crit, state, wounds);
    // A Critical Hit is a hit whatever the stat; any other roll is a check (natural limits apply).
    if (!attackHits(r, plan.attackTarget, rules)) return Dist.constant(unchanged);
    return defence.map((d) => {
      if (d === 'pass') return unchanged;
      const after = afterFailedDefence(plan, effective, state, wounds, r);
      return stepKey(crit, after.state, after.wounds);
    });
  });
  return [...steps.weights].map(([key, w]) => parseStepKey(key, fraction(w, steps.total)));
}

/** Final (state, wounds) of the target as one number, for map keys. */
function finalKey(state: Severity, wounds: number): number {
  return state * 64 + wounds;
}

interface Solved {
  /** Probability of each final (state, wounds). */
  readonly finals: ReadonlyMap<number, Fraction>;
  /** Expected number of attacks still to be made, explosions included. */
  readonly attacks: Fraction;
}

/**
 * The whole attack action as a Markov chain on (attacks pending, target state, wounds left), solved
 * exactly. An attack either leaves the target as it was or moves it to a strictly worse (state, wounds)
 * (more severe, or fewer wounds); it uses up one pending attack and adds one back on a critical hit.
 *
 * The only step that keeps the chain where it is - a critical hit that leaves the target unchanged - has
 * probability `stay` < 1 (39/400 at most in the rules, a natural 20 with advantage; under any rule table a
 * natural 1 is never a critical hit, as criticalHitMin is at least 2). Runs of it are a geometric series:
 * the next step that does something else has probability p / (1 - stay), and takes 1 / (1 - stay) attacks
 * on average. With those removed, every step either spends a pending attack or worsens the target, which
 * happens at most 5 + wounds times, so the recursion is finite and the answer is exact: no truncation.
 */
export function solveAttack(plan: AttackPlan): Solved {
  const transitions = new Map<number, Step[]>();
  const memo = new Map<string, Solved>();

  const stepsFrom = (state: Severity, wounds: number): Step[] => {
    const key = finalKey(state, wounds);
    let t = transitions.get(key);
    if (!t) {
      t = oneAttack(plan, state, wounds);
      transitions.set(key, t);
    }
    return t;
  };

  const solve = (pending: number, state: Severity, wounds: number): Solved => {
    // Attacks stop once the target is Incapacitated: its model "is removed from the board" (injury file).
    if (pending === 0 || state === INCAPACITATED) {
      return { finals: new Map([[finalKey(state, wounds), ONE]]), attacks: ZERO };
    }
    const key = `${pending}|${state}|${wounds}`;
    const known = memo.get(key);
    if (known) return known;
    const steps = stepsFrom(state, wounds);
    let stay = ZERO;
    for (const st of steps) if (st.crit && st.state === state && st.wounds === wounds) stay = add(stay, st.p);
    const leave = sub(ONE, stay);
    let attacks = div(ONE, leave);
    const finals = new Map<number, Fraction>();
    for (const st of steps) {
      if (st.crit && st.state === state && st.wounds === wounds) continue;
      const p = div(st.p, leave);
      const next = solve(st.crit ? pending : pending - 1, st.state, st.wounds);
      attacks = add(attacks, mul(p, next.attacks));
      for (const [f, q] of next.finals) finals.set(f, add(finals.get(f) ?? ZERO, mul(p, q)));
    }
    const solved = { finals, attacks };
    memo.set(key, solved);
    return solved;
  };

  return solve(plan.attacks, plan.startState, plan.startWounds);
}

/** Outcome index in ATTACK_OUTCOMES for a final target. */
export function attackOutcomeIndex(state: Severity, woundsLost: number): number {
  if (state === NONE) return woundsLost > 0 ? 1 : 0;
  return state + 1; // staggered 2, dazed 3, stunned 4, incapacitated 5
}

function attackAnswer(s: D20WarbandScenario<'attack'>): ExactAnswer {
  const plan = attackPlan(s);
  const solved = solveAttack(plan);
  const outcomes: Fraction[] = new Array<Fraction>(6).fill(ZERO);
  const lost: Fraction[] = new Array<Fraction>(plan.startWounds + 1).fill(ZERO);
  for (const [key, p] of solved.finals) {
    const state = Math.floor(key / 64) as Severity;
    const woundsLost = plan.startWounds - (key % 64);
    const i = attackOutcomeIndex(state, woundsLost);
    outcomes[i] = add(outcomes[i]!, p);
    lost[woundsLost] = add(lost[woundsLost]!, p);
  }
  return {
    outcomes,
    means: [solved.attacks],
    histograms: [lost],
    notes: describeAttack(plan),
  };
}

function describeDefence(plan: AttackPlan): string {
  if (plan.defenceTarget === null) return 'none (Defence "-"), every hit gets through';
  const staggered =
    plan.startState !== STAGGERED
      ? ''
      : plan.staggeredAllAction || plan.timing === 'end-of-action'
        ? ' with disadvantage (Staggered) for the whole action'
        : ' with disadvantage while Staggered';
  return `d20 needs ${describeNeed(plan.defenceTarget, plan.rules)}${staggered}`;
}

function describeAttack(plan: AttackPlan): string[] {
  const t = tilt(plan.advantage, plan.disadvantage);
  const rules = plan.rules;
  const { stunned, incapacitated } = rules.injuryCheckTable;
  const explosions = !plan.explode
    ? ''
    : rules.criticalHitMin > DIE_SIDES
      ? '; no natural is a critical hit, so none grants another attack'
      : `; a natural ${naturalsFrom(rules.criticalHitMin)} is a critical hit and grants one more attack`;
  const lines = [
    `Attack check: ${describeD20(t)} needs ${describeAttackNeed(plan.attackTarget, rules)}${explosions}`,
    `Defence check: ${describeDefence(plan)}`,
    `Injury check: kept attack roll ${plan.injuryAdd >= 0 ? '+' : '-'} ${Math.abs(plan.injuryAdd)}; ${stunned - 1} or less Dazed, ${band(stunned, incapacitated - 1)} Stunned, ${incapacitated}+ Incapacitated`,
  ];
  if (plan.explode) {
    lines.push('Explosions are summed exactly (a geometric series per target state), not truncated: error 0');
  }
  return lines;
}

export function exactAnswer(s: D20WarbandScenario<OneActionKind>): ExactAnswer {
  switch (s.kind) {
    case 'check':
      return checkAnswer(s);
    case 'attack':
      return attackAnswer(s);
    default:
      return injuryRollAnswer(s);
  }
}
