/**
 * A duel scenario's two sides (`a` and `b`): the fields each takes, and the duel plan both engines read,
 * built from them. A side is a model with its weapon: it takes every weapon and model field of the
 * sequence kind (declared once in ../fields.ts and ../sequence/fields.ts), the state its body starts in
 * (markers, Down, Tough used, blessing markers), and its own policy and attacks (./fields.ts). What
 * both sides share (how the modifier cap and Bloodbaths read, the marker cap) stays at the top level.
 */
import { showValue } from '../../../errors.js';
import type { FieldSpec, FieldsOf, FieldsOfKind } from '../../../model/types.js';
import { trenchCrusadeFields, type TrenchCrusadeScenario } from '../fields.js';
import type { SequenceScenario } from '../sequence/model.js';
import { SEQUENCE_KIND } from '../sequence/fields.js';
import { DUEL_SIDES, type DuelSideKey } from '../../duel-report.js';
import { duelSideOwnFields } from './fields.js';
import type { DuelPlan } from './plan.js';
import { OPTIMAL_STATE_BUDGET, optimalSize } from './optimal.js';

/**
 * The sequence fields a side does not take: the readings both sides share (top level), the target's
 * Down (a side's own `down`), what the duel decides itself (attacks, policy, activations), and the
 * conditions of the Ranged Attack Modifiers, which a duel's melee attacks never meet.
 */
const NOT_SIDE_FIELDS = [
  'modifierCap',
  'bloodbathDie',
  'deadlyBloodbathKeep',
  'downBonus',
  'criticalOn',
  'markerCap',
  'targetDown',
  'attacks',
  'policy',
  'attacksPerActivation',
  'attackRollMarkers',
  // Cover and long range are Ranged Attack Modifiers (ruling T30); a duel's attacks are melee (issue 24).
  'targetInCover',
  'longRange',
] as const;
const notSide: ReadonlySet<string> = new Set(NOT_SIDE_FIELDS);

/**
 * The side's words for the fields a sequence declares for its target's state (the same values and
 * defaults); the weapon's and the model's fields say which of the side's two roles they belong to.
 */
const SIDE_WORDING: Readonly<Record<string, string>> = {
  bloodMarkers: "Blood markers on this side's model at the start (the opponent's to spend)",
  blessingMarkers: "Blessing markers this side's model holds at the start (core)",
  blessingPolicy: "How this side spends its blessing markers (core): none, or all of them on the first injury roll against it",
  toughUsed: "This side's one save has already saved it (Tough, or its first Out of Action as No Effect): it goes Out of Action at the next Out of Action result",
};
/** "The target's armour" after a colon: "the target's armour" (a keyword such as "FEAR:" stays as written). */
const continued = (text: string) => (/^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text);
const sideWorded = (f: FieldSpec): FieldSpec => {
  const own = SIDE_WORDING[f.name];
  if (own) return { ...f, description: own };
  if (f.profile === 'weapon') return { ...f, description: `Its attacks: ${continued(f.description)}` };
  if (f.profile === 'model') return { ...f, description: `Attacks on it: ${continued(f.description)}` };
  return f;
};

/** Every field a duel side takes, in `a` and in `b`. */
export const duelSideFields: readonly FieldSpec[] = [
  ...trenchCrusadeFields.filter((f) => (f.kinds as readonly string[]).includes(SEQUENCE_KIND) && !notSide.has(f.name)).map(sideWorded),
  ...duelSideOwnFields,
];

export type DuelSideValues = Omit<FieldsOfKind<typeof trenchCrusadeFields, typeof SEQUENCE_KIND>, (typeof NOT_SIDE_FIELDS)[number]> & FieldsOf<typeof duelSideOwnFields>;

/** A validated duel: its top-level fields and both sides filled. */
export type DuelScenario = TrenchCrusadeScenario<'duel'> & { readonly [K in DuelSideKey]: DuelSideValues };

const weaponFields: readonly string[] = trenchCrusadeFields.filter((f) => f.profile === 'weapon').map((f) => f.name);
const modelFields: readonly string[] = trenchCrusadeFields.filter((f) => f.profile === 'model').map((f) => f.name);
const pick = (from: DuelSideValues, names: readonly string[]) => Object.fromEntries(names.filter((n) => n in from).map((n) => [n, (from as Readonly<Record<string, unknown>>)[n]]));

/** "x attacking y" as a sequence scenario: x's weapon (and policy) against y's body and y's state. */
function attacking(s: DuelScenario, x: DuelSideValues, y: DuelSideValues): SequenceScenario {
  const sequence = {
    system: s.system,
    edition: s.edition,
    kind: SEQUENCE_KIND,
    rules: s.rules,
    modifierCap: s.modifierCap,
    bloodbathDie: s.bloodbathDie,
    deadlyBloodbathKeep: s.deadlyBloodbathKeep,
    downBonus: s.downBonus,
    criticalOn: s.criticalOn,
    markerCap: s.markerCap,
    ...pick(x, weaponFields),
    ...pick(y, modelFields),
    targetDown: y.down,
    // A melee attack is never in cover or at long range (ruling T30).
    targetInCover: false,
    longRange: false,
    toughUsed: y.toughUsed,
    bloodMarkers: y.bloodMarkers,
    blessingMarkers: y.blessingMarkers,
    blessingPolicy: y.blessingPolicy,
    // The chain and the simulator read the duel's own policy from the plan; `all` makes the
    // simulator's attack roller spend as policy injury does.
    policy: x.policy === 'injury' ? 'all' : 'none',
    attacks: 1,
    attacksPerActivation: x.attacksPerActivation,
    attackRollMarkers: 0,
  };
  // Every field the sequence kind reads is here: the shared ones, the sides' (filled by validation).
  return sequence as unknown as SequenceScenario;
}

export function duelPlanOf(s: DuelScenario): DuelPlan {
  return {
    a: { attacking: attacking(s, s.a, s.b), policy: s.a.policy, attacksPerActivation: s.a.attacksPerActivation, ledgeInches: s.a.ledgeInches },
    b: { attacking: attacking(s, s.b, s.a), policy: s.b.policy, attacksPerActivation: s.b.attacksPerActivation, ledgeInches: s.b.ledgeInches },
    first: s.first,
    rounds: s.rounds,
    objective: s.objective,
  };
}

/**
 * Combinations a duel cannot have, as one line naming the side's field: its attacks are melee (issue
 * 24, rule 2); hindering needs the rule; and each direction of attack must be a sequence the rules allow
 * (`checkAttacks`, the system's own check; its problem is named on the side whose field it is: the
 * weapon's on the attacker, the rest on the target). How big an optimal duel may be is checkDuelSize's.
 */
export function checkDuel(s: DuelScenario, checkAttacks: (attacks: SequenceScenario) => string | undefined): string | undefined {
  const plan = duelPlanOf(s);
  for (const key of DUEL_SIDES) {
    const side = s[key];
    if (side.attackType !== 'melee') {
      return `${key}.attackType: ${showValue(side.attackType)} is not allowed in a duel (its attacks are melee attacks, issue 24); allowed: melee`;
    }
    if (side.ledgeInches > 0 && !s.rules.fall.available) {
      return `${key}.ledgeInches: ${showValue(side.ledgeInches)} is not allowed with these rules (rule fall.available is false: no model falls from a ledge); allowed: 0`;
    }
    if (side.policy === 'hinder' && !s.rules.markers.onOwnRolls) {
      return `${key}.policy: "hinder" is not allowed with these rules (rule markers.onOwnRolls is false: no blood marker may be spent on a model's own rolls); allowed: none, injury`;
    }
  }
  for (const [attacker, target] of [['a', 'b'], ['b', 'a']] as const) {
    const problem = checkAttacks(plan[attacker].attacking);
    if (problem) {
      const field = /^(\w+):/.exec(problem)?.[1] ?? '';
      const owner = weaponFields.includes(field) || field === 'attacksPerActivation' ? attacker : target;
      return `${owner}.${problem}`;
    }
  }
  return undefined;
}

/**
 * An optimal duel whose search would visit more states than it is allowed: the rules allow it, this
 * tool will not compute it (SystemSpec.checkSize), so a sweep stops there rather than leave it out.
 */
export function checkDuelSize(s: DuelScenario): string | undefined {
  if (s.a.policy !== 'optimal' && s.b.policy !== 'optimal') return undefined;
  const size = optimalSize(duelPlanOf(s));
  if (size <= OPTIMAL_STATE_BUDGET) return undefined;
  const key = s.a.policy === 'optimal' ? 'a' : 'b';
  return `${key}.policy: "optimal" needs ${size.toLocaleString('en-US')} states x attacks here, more than the ${OPTIMAL_STATE_BUDGET.toLocaleString('en-US')} it is allowed; allowed: fewer rounds, fewer attacks per activation, fewer markers to start, or a markerCap`;
}

/**
 * The duel's line of play for a table's heading: how many rounds and who goes first. Each side, as the
 * fields it changes, is said by every command's "Given:" line (src/analysis/asked.ts's givenLines).
 */
export function describeDuel(s: DuelScenario): string {
  return `${s.rounds} rounds, ${s.first} first`;
}
