import { describe, expect, it } from 'vitest';
import { add, fraction, type Fraction } from '../src/exact/fraction.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 48: rules a weapon's text gives that the engines now have.
 *
 * A weapon's own rules against a Down target (a Misericordia's "IGNORE ARMOUR if the
 * target is Down", an Anaza Spear's "+1 INJURY DICE against a model that is Downed"). Against a Down
 * target each is exactly the rule it names (IGNORE ARMOUR; one more injury die), so the answers must be
 * those of the same question asked with that rule; against a standing target, exactly those without it.
 * The simulator's side is checked in test/duel-simulate.test.ts (a duel rolls both, Down and standing).
 */

async function outcomes(...args: string[]): Promise<string[]> {
  const r = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--attack-type', 'melee', ...args);
  expect([r.code, r.stderr]).toEqual([0, '']);
  return (JSON.parse(r.stdout) as { outcomes: { exact: string }[] }).outcomes.map((o) => o.exact);
}

describe("a weapon's rules against a Down target", () => {
  it('IGNORE ARMOUR if the target is Down: IGNORE ARMOUR against a Down target, nothing against a standing one', async () => {
    const down = await outcomes('--ignore-armour-if-down', '--target-down', '--armour', 'reinforced');
    expect(down).toEqual(await outcomes('--weapon-keywords=IGNORE ARMOUR', '--target-down', '--armour', 'reinforced'));
    expect(down).not.toEqual(await outcomes('--target-down', '--armour', 'reinforced'));
    expect(await outcomes('--ignore-armour-if-down', '--armour', 'reinforced')).toEqual(await outcomes('--armour', 'reinforced'));
  });

  it('+1 injury dice against a Down target: one more die then, beyond the rules\' own Down bonus; none against a standing one', async () => {
    const down = await outcomes('--injury-dice-if-down', '1', '--target-down');
    expect(down).toEqual(await outcomes('--injury-dice', '1', '--target-down'));
    expect(down).not.toEqual(await outcomes('--target-down'));
    expect(await outcomes('--injury-dice-if-down', '1')).toEqual(await outcomes());
  });

  // 200 000 attacks at a family error of 1e-6: a correct simulator fails one seed in a million; the duel
  // test's fixed seed shows the same rules caught when forgotten.
  it('the simulator agrees with the exact answer for a single attack on a Down target', async () => {
    const r = await cliInProcess('check', '--kind', 'attack', '--attack-type', 'melee', '--ignore-armour-if-down', '--injury-dice-if-down', '1', '--target-down', '--armour', 'reinforced', '--trials', '200000', '--seed', '48', '--workers', '1', '--format', 'json');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { passed: boolean }).passed).toBe(true);
  });
});

async function markers(...args: string[]): Promise<string> {
  const r = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--attack-type', 'melee', ...args);
  expect([r.code, r.stderr]).toEqual([0, '']);
  return (JSON.parse(r.stdout) as { expectedBloodMarkers: { exact: string } }).expectedBloodMarkers.exact;
}

describe("a weapon's own blood markers after every roll (extraBloodMarkers, ruling T27)", () => {
  it('are FIRE\'s marker that NEGATE FIRE does not stop; the results are unchanged', async () => {
    // A FIRE marker and an extra marker both come after every roll the target survives: the same markers.
    expect(await markers('--extra-blood-markers', '1')).toBe(await markers('--weapon-keywords=FIRE'));
    // NEGATE FIRE stops FIRE's, never the weapon's own.
    expect(await markers('--extra-blood-markers', '1', '--target-keywords=NEGATE FIRE')).toBe(await markers('--weapon-keywords=FIRE'));
    expect(await markers('--extra-blood-markers', '1')).not.toBe(await markers());
    expect(await outcomes('--extra-blood-markers', '1')).toEqual(await outcomes());
  });

  it('the simulator agrees with the exact answer, markers and all', async () => {
    const r = await cliInProcess('check', '--kind', 'attack', '--attack-type', 'melee', '--extra-blood-markers', '2', '--target-down', '--trials', '200000', '--seed', '27', '--workers', '1', '--format', 'json');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { passed: boolean }).passed).toBe(true);
  });
});

/** "5/18" (or "0", "1") as a reduced fraction. */
const fractionOf = (text: string): Fraction => {
  const [num, den = '1'] = text.split('/');
  return fraction(BigInt(num!), BigInt(den));
};

describe("a model's first Out of Action as No Effect (firstOutOfActionNoEffect, ruling T28)", () => {
  /** The outcomes of one attack as fractions, by name. */
  async function byOutcome(...args: string[]): Promise<Record<string, Fraction>> {
    const r = await cliInProcess('exact', '--kind', 'attack', '--format', 'json', '--attack-type', 'melee', '--injury-dice', '2', ...args);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const doc = JSON.parse(r.stdout) as { outcomes: { outcome: string; exact: string }[] };
    return Object.fromEntries(doc.outcomes.map((o) => [o.outcome, fractionOf(o.exact)]));
  }

  it('one attack: every Out of Action of the plain answer is a No Effect, the rest as it was; once used, the plain answer', async () => {
    const plain = await byOutcome();
    const saved = await byOutcome('--first-out-of-action-no-effect');
    expect(saved['out-of-action']!.num).toBe(0n);
    expect(saved['no-effect']).toEqual(add(plain['no-effect']!, plain['out-of-action']!));
    for (const o of ['miss', 'minor-hit', 'down']) expect(saved[o]).toEqual(plain[o]);
    expect(await byOutcome('--first-out-of-action-no-effect', '--tough-used')).toEqual(plain);
  });

  it('with Tough is refused in one line: each saves the first Out of Action', async () => {
    const r = await cliInProcess('exact', '--kind', 'attack', '--first-out-of-action-no-effect', '--tough');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain('firstOutOfActionNoEffect: true cannot be combined with tough: true');
  });

  it('a sequence: the simulator agrees with the exact chain (the save leaves the target standing)', async () => {
    const r = await cliInProcess('check', '--kind', 'sequence', '--attacks', '3', '--injury-dice', '2', '--first-out-of-action-no-effect', '--trials', '200000', '--seed', '28', '--workers', '1', '--format', 'json');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { passed: boolean }).passed).toBe(true);
  });
});
