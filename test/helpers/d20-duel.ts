import { parseScenario } from '../../src/input/scenario.js';
import type { D20WarbandScenario } from '../../src/rules/d20-warband/fields.js';
import type { D20DuelPlan } from '../../src/rules/d20-warband/duel/plan.js';
import type { TargetState } from '../../src/rules/d20-warband/tables.js';

/** A d20 duel unit in a few plain fields, for the duel tests (defaults as the `attack` kind's). */
export interface Unit {
  /** As an attacker. */
  readonly stat?: number;
  readonly modifier?: number;
  readonly attacks?: number;
  readonly injury?: number;
  readonly pierce?: number;
  readonly explode?: boolean;
  readonly advantage?: boolean;
  /** As a target. */
  readonly defence?: number;
  readonly defenceModifier?: number;
  readonly wounds?: number;
  readonly state?: TargetState;
  /** The ledge it fights by. */
  readonly ledgeInches?: number;
  readonly agility?: number;
}

/** "x attacking y" as an `attack` scenario, read by the `attack` kind's own parser; `staggered`: x rolls with disadvantage. */
function attacking(x: Unit, y: Unit, staggered: boolean): D20WarbandScenario<'attack'> {
  return parseScenario({
    system: 'd20-warband',
    kind: 'attack',
    stat: x.stat ?? 10,
    modifier: x.modifier ?? 0,
    attacks: x.attacks ?? 1,
    injury: x.injury ?? 0,
    pierce: x.pierce ?? 0,
    explode: x.explode ?? true,
    advantage: x.advantage ?? false,
    disadvantage: staggered,
    defence: y.defence ?? 10,
    defenceModifier: y.defenceModifier ?? 0,
    wounds: y.wounds ?? 1,
    state: y.state ?? 'none',
  }) as D20WarbandScenario<'attack'>;
}

const ledgeOf = (u: Unit) => (u.ledgeInches !== undefined && u.ledgeInches >= 2 ? { ledge: { agility: u.agility ?? 10, heightInches: u.ledgeInches } } : {});

export function d20DuelPlan(a: Unit, b: Unit, first: 'a' | 'b', rounds: number): D20DuelPlan {
  return {
    a: { attacking: attacking(a, b, false), attackingStaggered: attacking(a, b, true), ...ledgeOf(a) },
    b: { attacking: attacking(b, a, false), attackingStaggered: attacking(b, a, true), ...ledgeOf(b) },
    first,
    rounds,
  };
}
