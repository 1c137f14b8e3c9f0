import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 22, real warbands on real files: the smaller items. Fixtures are our own invented rosters and
 * catalogues (test/fixtures/rosters/), shaped as the real files are; none copies catalogue data.
 */

const ROS = 'test/fixtures/rosters/ashen-pilgrims.ros';

describe('profiles --allow-unmodelled', () => {
  it('is accepted, and shows the stopping token as left out, as commands given the flag use it', async () => {
    const plain = await cliInProcess('profiles', '--roster', ROS);
    const line = 'weapon "Bell Hammer", weapon "Bell Golem with Bell Hammer": "Blast 2\\"" (keywords: not a keyword of the rule table';
    expect(plain.stdout).toContain(`${line}); stops a command that uses it unless --allow-unmodelled`);
    const allowed = await cliInProcess('profiles', '--roster', ROS, '--allow-unmodelled');
    expect([allowed.code, allowed.stderr]).toEqual([0, '']);
    expect(allowed.stdout).toContain(`${line}; left out (--allow-unmodelled))`);
    expect(allowed.stdout).not.toContain('stops a command');
  });
});

describe('a target\'s "-N INJURY DICE" written as a keyword', () => {
  it('is the targetInjuryDice field: --target-keywords="-1 INJURY DICE" answers as --target-injury-dice -1', async () => {
    const json = async (...args: string[]) => {
      const r = await cliInProcess('exact', '--kind', 'attack', '--armour', 'standard', '--format', 'json', ...args);
      expect([r.code, r.stderr]).toEqual([0, '']);
      return JSON.parse(r.stdout) as { outcomes: { exact: string }[]; scenario: { targetInjuryDice: number } };
    };
    const keyword = await json('--target-keywords=-1 INJURY DICE');
    const field = await json('--target-injury-dice', '-1');
    expect(keyword.scenario.targetInjuryDice).toBe(-1);
    expect(keyword.outcomes.map((o) => o.exact)).toEqual(field.outcomes.map((o) => o.exact));
    // And it moves the answer: without it, Out of Action is likelier.
    const none = await json();
    expect(none.outcomes.at(-1)!.exact).not.toBe(field.outcomes.at(-1)!.exact);
  });
});
