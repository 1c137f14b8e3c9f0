/**
 * A d20 warband duel scenario's two sides (`a` and `b`): the fields each takes, and the duel plan both
 * engines read, built from them. A side is a unit: it takes the `attack` kind's fields that belong to a
 * unit (declared once in ../fields.ts), as attacker (`stat`, the Melee stat, `modifier`, `advantage`,
 * `disadvantage`, `attacks`, `injury`, `pierce`, `explode`, `attackType`) and as target (`defence`,
 * `defenceModifier`, `wounds`, its starting `state`), and the ledge it fights by (./fields.ts). How the
 * rules read for both units (`injuryTiming`, `staggerPersists`, `attackModifierToInjury`) stays at the
 * top level (ruling DW2).
 */
import { showValue } from '../../../errors.js';
import type { FieldSpec, FieldsOf, FieldsOfKind } from '../../../model/types.js';
import { type D20WarbandScenario, d20WarbandFields } from '../fields.js';
import { DASH, STATS_FILE, INJURY_FILE } from '../tables.js';
import { DUEL_SIDES, type DuelSideKey } from '../../duel-report.js';
import { d20DuelSideOwnFields } from './fields.js';
import type { D20DuelPlan, D20DuelSide } from './plan.js';

/**
 * The `attack` fields a side does not take: the readings both units share (top level), and
 * `stunnedDefends`, which only acts at range (a duel's attacks are melee, ruling DW1).
 */
const NOT_SIDE_FIELDS = ['injuryTiming', 'staggerPersists', 'attackModifierToInjury', 'stunnedDefends'] as const;
const notSide: ReadonlySet<string> = new Set(NOT_SIDE_FIELDS);

/** What a field means on a duel's side, where the `attack` kind's words speak of an attacker and a target. */
const SIDE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  stat: "This unit's Melee stat, 1-20: its attack checks need a d20 at least this. Lower is better",
  modifier: "Improvement to this unit's Melee for its attack checks (+2 turns Mel 10 into Mel 8)",
  advantage: 'This unit rolls its attack checks with advantage (cancels with disadvantage, a Staggered unit\'s included)',
  disadvantage: 'This unit rolls its attack checks with disadvantage (cancels with advantage)',
  attackType: "This unit's attacks: a duel's are melee (a ranged weapon's profile is refused)",
  attacks: "This unit's Attacks: melee attack checks in each of its attack actions, before critical hits add more",
  injury: 'Injury modifier added to this unit\'s kept attack roll for the Injury Check only ("-" means none)',
  pierce: 'Pierce: worsens the other unit\'s Defence checks against this unit\'s attacks by this much (negative improves them; "-" means none)',
  defence: 'This unit\'s Defence stat, 1-20, or "-" (no Defence: every hit gets through unless improved)',
  defenceModifier: "Improvement to this unit's Defence for its Defence checks (+1 turns Def 10 into 9, and \"-\" into 20)",
  wounds: 'Wounds this unit has at the start: each hit that gets through costs one, they never come back, and the Injury Check comes at 0',
  state: "This unit's injury state at the start; its own turns begin with Upkeep (Stunned to Dazed, Dazed to Staggered)",
};

/** Every field a duel side takes, in `a` and in `b`. */
export const d20DuelSideFields: readonly FieldSpec[] = [
  ...d20WarbandFields
    .filter((f) => (f.kinds as readonly string[]).includes('attack') && !notSide.has(f.name))
    .map((f): FieldSpec => ({ ...f, description: SIDE_DESCRIPTIONS[f.name] ?? f.description })),
  ...d20DuelSideOwnFields,
];

export type D20DuelSideValues = Omit<FieldsOfKind<typeof d20WarbandFields, 'attack'>, (typeof NOT_SIDE_FIELDS)[number]> & FieldsOf<typeof d20DuelSideOwnFields>;

/** A validated d20 duel: its top-level fields and both sides filled. */
export type D20DuelScenario = D20WarbandScenario<'duel'> & { readonly [K in DuelSideKey]: D20DuelSideValues };

/** "x attacking y" as an `attack` scenario: x's attack fields against y's Defence, y's state and wounds at the start. */
function attacking(s: D20DuelScenario, x: D20DuelSideValues, y: D20DuelSideValues, staggered: boolean): D20WarbandScenario<'attack'> {
  return {
    system: s.system,
    edition: s.edition,
    kind: 'attack',
    rules: s.rules,
    injuryTiming: s.injuryTiming,
    staggerPersists: s.staggerPersists,
    attackModifierToInjury: s.attackModifierToInjury,
    stunnedDefends: true,
    stat: x.stat,
    modifier: x.modifier,
    advantage: x.advantage,
    // "all Checks made by it are rolled with Disadvantage until the end of the current turn" (injury file, Staggered).
    disadvantage: x.disadvantage || staggered,
    attackType: x.attackType,
    attacks: x.attacks,
    injury: x.injury,
    pierce: x.pierce,
    explode: x.explode,
    defence: y.defence,
    defenceModifier: y.defenceModifier,
    wounds: y.wounds,
    state: y.state,
  };
}

/** The drop from which a ledge makes a unit check ("a ledge that has a drop of at least 2"", injury file). */
export const LEDGE_MIN_INCHES = 2;

function sideOf(s: D20DuelScenario, x: D20DuelSideValues, y: D20DuelSideValues): D20DuelSide {
  return {
    attacking: attacking(s, x, y, false),
    attackingStaggered: attacking(s, x, y, true),
    ...(x.ledgeInches >= LEDGE_MIN_INCHES ? { ledge: { agility: x.agility, heightInches: x.ledgeInches } } : {}),
  };
}

export function d20DuelPlanOf(s: D20DuelScenario): D20DuelPlan {
  return { a: sideOf(s, s.a, s.b), b: sideOf(s, s.b, s.a), first: s.first, rounds: s.rounds };
}

/**
 * Combinations a duel cannot have, as one line naming the side's field: its attacks are melee attacks
 * (ruling DW1), so a side needs a Melee stat, and a ledge is one of 2" or more (ruling DW9).
 */
export function checkD20Duel(s: D20DuelScenario): string | undefined {
  for (const key of DUEL_SIDES) {
    const side = s[key];
    if (side.attackType !== 'melee') {
      return `${key}.attackType: ${showValue(side.attackType)} is not allowed in a duel (its units make melee attacks on each other, issue 24); allowed: melee`;
    }
    if (side.stat === DASH) {
      return `${key}.stat: ${showValue(side.stat)} cannot make a melee attack (for a stat other than Ranged, Defence, Injury or Pierce "the meaning will be stated as a Special Rule", ${STATS_FILE}); allowed: a whole number from 1 to 20`;
    }
    if (side.ledgeInches > 0 && side.ledgeInches < LEDGE_MIN_INCHES) {
      return `${key}.ledgeInches: ${showValue(side.ledgeInches)} is not a ledge to Fall from (only "a ledge that has a drop of at least 2"" makes a unit check, ${INJURY_FILE}); allowed: 0 (no ledge), or a number from 2 to 100`;
    }
  }
  return undefined;
}
