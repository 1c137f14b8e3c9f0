import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import { defaultWorkers } from '../src/pool/threads.js';
import { parseSimFlags } from '../src/cli/sim-options.js';

/** Every simulation-flag message, one by one: the flag, the value given, what is allowed. */
describe('simulation flags', () => {
  it('has defaults: a million trials, seed 1, one worker per core, at most 1e9 trials for --precision', () => {
    expect(parseSimFlags({})).toEqual({ trials: 1e6, seed: 1, workers: defaultWorkers(), maxTrials: 1e9 });
  });

  it('reads 1e7 notation and the largest allowed values', () => {
    expect(parseSimFlags({ trials: '1e7', seed: '9007199254740991', workers: '64' })).toMatchObject({
      trials: 1e7,
      seed: 2 ** 53 - 1,
      // 64 is allowed, and capped to the cores (bad-inputs.test.ts tests the note).
      workers: Math.min(64, defaultWorkers()),
    });
    expect(parseSimFlags({ trials: '2.5e6' }).trials).toBe(2_500_000);
    expect(parseSimFlags({ trials: '1e12' }).trials).toBe(1e12);
    expect(parseSimFlags({ precision: '0.001', 'max-trials': '1e8' })).toMatchObject({ precision: 0.001, maxTrials: 1e8 });
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['zero trials', { trials: '0' }, '--trials: "0" is not allowed; allowed: a whole number from 1 to 1e12 (such as 1000000 or 1e6)'],
    ['negative trials', { trials: '-5' }, '--trials: "-5" is not allowed; allowed: a whole number from 1 to 1e12 (such as 1000000 or 1e6)'],
    ['fractional trials', { trials: '1.5' }, '--trials: "1.5" is not allowed; allowed: a whole number from 1 to 1e12 (such as 1000000 or 1e6)'],
    ['too many trials', { trials: '2e12' }, '--trials: "2e12" is not allowed; allowed: a whole number from 1 to 1e12 (such as 1000000 or 1e6)'],
    ['words for trials', { trials: 'lots' }, '--trials: "lots" is not allowed; allowed: a whole number from 1 to 1e12 (such as 1000000 or 1e6)'],
    ['hex trials', { trials: '0x10' }, '--trials: "0x10" is not allowed; allowed: a whole number from 1 to 1e12 (such as 1000000 or 1e6)'],
    ['a forgotten value', { trials: '' }, '--trials: "" is not allowed; allowed: a whole number from 1 to 1e12 (such as 1000000 or 1e6)'],
    ['trials twice', { trials: ['5', '6'] }, '--trials: given more than once ("5", "6"); give it once'],
    ['negative seed', { seed: '-1' }, '--seed: "-1" is not allowed; allowed: a whole number from 0 to 9007199254740991 (2^53 - 1)'],
    ['seed past 2^53', { seed: '1e16' }, '--seed: "1e16" is not allowed; allowed: a whole number from 0 to 9007199254740991 (2^53 - 1)'],
    ['zero workers', { workers: '0' }, '--workers: "0" is not allowed; allowed: a whole number from 1 to 64'],
    ['65 workers', { workers: '65' }, '--workers: "65" is not allowed; allowed: a whole number from 1 to 64'],
    ['precision 2', { precision: '2' }, '--precision: "2" is not allowed; allowed: a number above 0 and below 0.5 (such as 0.001)'],
    ['precision 0', { precision: '0' }, '--precision: "0" is not allowed; allowed: a number above 0 and below 0.5 (such as 0.001)'],
    ['precision in words', { precision: 'fine' }, '--precision: "fine" is not allowed; allowed: a number above 0 and below 0.5 (such as 0.001)'],
    ['zero max trials', { precision: '0.01', 'max-trials': '0' }, '--max-trials: "0" is not allowed; allowed: a whole number from 1 to 1e12 (such as 1e9)'],
  ];
  for (const [what, argv, message] of bad) {
    it(`rejects ${what}`, () => {
      expect(() => parseSimFlags(argv)).toThrow(UsageError);
      expect(() => parseSimFlags(argv)).toThrow(message);
    });
  }
});
