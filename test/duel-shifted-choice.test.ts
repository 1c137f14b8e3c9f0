import { describe, expect, it } from 'vitest';
import { parseScenario } from '../src/input/scenario.js';
import { duelPlanOf } from '../src/rules/trench-crusade/duel/sides.js';
import { choiceTransition, injuryCodes, searchSides, shiftedChoice, type SearchSide } from '../src/rules/trench-crusade/duel/optimal.js';
import { downOf, markersOf } from '../src/rules/trench-crusade/sequence/model.js';

/**
 * The optimal duel's search computes one exact transition per injury choice at the fewest markers the
 * choice needs, and moves it to every other marker count (shiftedChoice): nothing in an injury roll reads
 * the markers left over. Checked here by brute force: for every body index the search has room for,
 * every choice the attacker's policy allows, hit and critical, the moved transition is the transition
 * computed at that index itself, entry for entry.
 */
const duels = {
  'Tough in standard armour, both optimal (the README duel)': { a: { armour: 'standard', tough: true, policy: 'optimal' }, b: { armour: 'standard', tough: true, policy: 'optimal' } },
  'a FIRE weapon (markers placed on every survived roll) against Tough by a 6-inch ledge': {
    a: { policy: 'optimal', weaponKeywords: 'FIRE' },
    b: { policy: 'optimal', armour: 'reinforced', tough: true, ledgeInches: 6 },
  },
  'blessing markers against +1 injury dice, a fixed policy against optimal': { a: { policy: 'optimal', injuryDice: 1 }, b: { policy: 'injury', blessingMarkers: 1, tough: true } },
};

function compareAll(x: SearchSide, size: number): number {
  let checked = 0;
  for (let g = 0; g < size; g++) {
    for (const code of injuryCodes(x, markersOf(g), downOf(g))) {
      for (let c = 0; c < 2; c++) {
        const moved = shiftedChoice(x, c, g, code);
        const direct = choiceTransition(x, c, g, code);
        expect([g, c, code, [...moved.next]]).toEqual([g, c, code, [...direct.next]]);
        expect([g, c, code, [...moved.p]]).toEqual([g, c, code, [...direct.p]]);
        checked++;
      }
    }
  }
  return checked;
}

describe('an injury choice moved to another marker count is the transition computed there', () => {
  for (const [name, sides] of Object.entries(duels)) {
    it(name, () => {
      const { a, b, sa, sb } = searchSides(duelPlanOf(parseScenario({ kind: 'duel', rounds: 2, ...sides }, 'test') as never));
      // a attacks b's body (sb indexes), b attacks a's.
      const checked = compareAll(a, sb) + compareAll(b, sa);
      // Several hundred choices each way: the markers two rounds can place.
      expect(checked).toBeGreaterThan(200);
    });
  }
});
