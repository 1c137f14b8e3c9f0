import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 25 part 6, "Say what was asked": a table names the inputs that differ from their defaults (and
 * the keywords given, by the fields they set), and a fall says where its dice come from.
 */

const firstLines = async (...args: string[]) => (await cliInProcess(...args)).stdout.split('\n').slice(0, 3);

describe('tables say what was asked', () => {
  it("exact names the fields given and the keywords' fields, none when nothing is changed", async () => {
    expect(await firstLines('exact', '--kind', 'attack', '--armour', 'reinforced', '--shield', '--weapon-keywords', 'IGNORE ARMOUR')).toEqual([
      'trench-crusade (core edition), attack',
      '  Given: armour reinforced, shield, ignoreArmour',
      '  Success roll: 2D6 (6 or less misses, 12+ is critical)',
    ]);
    // The defaults given explicitly change nothing, so nothing is said.
    expect((await firstLines('exact', '--kind', 'injury', '--armour', 'none'))[1]).toBe('  Injury roll: 2D6');
  });

  it('a fall says its height and the dice it adds: 7 inches is two full steps of 3 (T16), +2 injury dice', async () => {
    expect(await firstLines('exact', '--kind', 'fall', '--height-inches', '7')).toEqual([
      'trench-crusade (core edition), fall',
      '  Given: heightInches 7',
      '  Injury roll: 4D6 keep 2 highest (a 7-inch fall: +2 injury dice, +1 per full 3 inches)',
    ]);
    // Under 3 inches there is no roll to explain.
    expect((await firstLines('exact', '--kind', 'fall', '--height-inches', '2'))[2]).toBe('  Injury roll: no injury roll (a fall too short to injure)');
  });

  it('simulate and check say it too, for either system', async () => {
    expect((await firstLines('simulate', '--kind', 'attack', '--armour', 'reinforced', '--trials', '1000'))[1]).toBe('  Given: armour reinforced');
    expect((await firstLines('check', '--system', 'd20-warband', '--kind', 'attack', '--stat', '8', '--trials', '1000'))[1]).toBe('  Given: stat 8');
  });
});
