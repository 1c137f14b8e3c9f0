import { parseScenario } from '../../src/input/scenario.js';
import type { BattleBloodPolicy, BattleInitiative, BattleMoraleLoss, BattleTactic, BattleStandUpRule, BattleTurnExtension, BattleVictoryRule } from '../../src/rules/trench-crusade/battle/kind.js';
import type { BattlePlan } from '../../src/rules/trench-crusade/battle/plan.js';
import type { SequenceScenario } from '../../src/rules/trench-crusade/sequence/model.js';

/** A weapon in a few plain fields: its battle numbers and the sequence fields of its attacks. */
export interface PlainWeapon {
  readonly name?: string;
  readonly ranged?: boolean;
  readonly rangeInches?: number;
  readonly assault?: boolean;
  readonly attacks?: number;
  /** Sequence fields of the weapon's attacks (attackDice, injuryDice, ...). */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** An entry: its body as sequence fields of a target (armour, tough, bloodMarkers, ...), its weapons and numbers. */
export interface PlainEntry {
  readonly name?: string;
  readonly count?: number;
  readonly victoryPoints?: number;
  readonly movement?: number;
  readonly body?: Readonly<Record<string, unknown>>;
  readonly weapons?: readonly PlainWeapon[];
}

export interface PlainSide {
  readonly entries: readonly PlainEntry[];
  readonly tactic?: BattleTactic;
  readonly blood?: BattleBloodPolicy;
}

export interface PlainGame {
  readonly turns?: number;
  readonly startInches?: number;
  readonly initiative?: BattleInitiative;
  readonly morale?: boolean;
  readonly coverChance?: number;
  readonly elevationChance?: number;
  readonly victory?: BattleVictoryRule;
  readonly turnExtension?: BattleTurnExtension;
  readonly standUp?: BattleStandUpRule;
  readonly moraleLoss?: BattleMoraleLoss;
}

const FIST: PlainWeapon = { name: 'fist' };

/**
 * A battle plan from plain sides, each attack a sequence scenario of the core edition parsed as a user's
 * would be (every field filled by the kind's validation): the weapon's fields, the target's body, and
 * the shot's long range and cover.
 */
export function battlePlan(a: PlainSide, b: PlainSide, game: PlainGame = {}): BattlePlan {
  const sides = [a, b];
  const weaponsOf = (e: PlainEntry) => (e.weapons && e.weapons.length > 0 ? e.weapons : [FIST]);
  const cache = new Map<string, SequenceScenario>();
  const side = (s: PlainSide) => ({
    tactic: s.tactic ?? 'advance',
    blood: s.blood ?? 'none',
    entries: s.entries.map((e, i) => ({
      name: e.name ?? `entry ${i}`,
      count: e.count ?? 1,
      victoryPoints: e.victoryPoints ?? 1,
      movement: e.movement ?? 6,
      weapons: weaponsOf(e).map((w, wi) => ({ name: w.name ?? `weapon ${wi}`, ranged: w.ranged === true, rangeInches: w.rangeInches ?? 0, assault: w.assault === true, attacks: w.attacks ?? 1 })),
    })),
  });
  return {
    a: side(a),
    b: side(b),
    turns: game.turns ?? 6,
    startInches: game.startInches ?? 24,
    initiative: game.initiative ?? 'rules',
    morale: game.morale ?? true,
    coverChance: game.coverChance ?? 0,
    elevationChance: game.elevationChance ?? 0,
    victory: game.victory ?? 'points',
    turnExtension: game.turnExtension ?? 'none',
    standUp: game.standUp ?? 'half-move',
    moraleLoss: game.moraleLoss ?? 'two-in-a-row',
    attack(s, entry, weapon, target, longRange, cover) {
      const key = `${s} ${entry} ${weapon} ${target} ${longRange} ${cover}`;
      let found = cache.get(key);
      if (!found) {
        const w = weaponsOf(sides[s]!.entries[entry]!)[weapon]!;
        const body = sides[1 - s]!.entries[target]!.body ?? {};
        found = parseScenario({
          kind: 'sequence',
          ...w.fields,
          ...body,
          attackType: w.ranged === true ? 'ranged' : 'melee',
          ...(w.ranged === true ? { longRange, targetInCover: cover } : {}),
        }) as SequenceScenario;
        cache.set(key, found);
      }
      return found;
    },
  };
}
