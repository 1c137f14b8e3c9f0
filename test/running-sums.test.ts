import { describe, expect, it } from 'vitest';
import { fraction } from '../src/exact/fraction.js';
import { orWorse, runningTotals, total } from '../src/running-sums.js';

// A Trench Crusade injury roll, 2D6 and no modifiers: a total of 2-6 is a minor hit (15 of 36 rolls), 7-8 down (11),
// 9+ out of action (10), so nothing is "no effect" (the hand count test/report-sweep.test.ts also uses).
const injury = [fraction(0), fraction(15, 36), fraction(11, 36), fraction(10, 36)];

describe('running sums', () => {
  it('"or worse" adds every more severe outcome, over fractions and counts alike', () => {
    expect(orWorse(injury)).toEqual([fraction(1), fraction(1), fraction(21, 36), fraction(10, 36)]);
    expect(orWorse(Float64Array.of(0, 15, 11, 10))).toEqual([36, 36, 21, 10]);
  });

  it('"within n" adds every earlier bin', () => {
    expect(runningTotals([fraction(1, 2), fraction(1, 4), fraction(1, 4)])).toEqual([fraction(1, 2), fraction(3, 4), fraction(1)]);
    expect(runningTotals([3, 0, 2])).toEqual([3, 3, 5]);
  });

  it('an empty list gives an empty list, and a total of 0', () => {
    expect(orWorse([])).toEqual([]);
    expect(runningTotals([])).toEqual([]);
    expect(total([])).toEqual(fraction(0));
    expect(total(injury)).toEqual(fraction(1));
  });
});
