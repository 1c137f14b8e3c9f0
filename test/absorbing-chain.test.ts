import { describe, expect, it } from 'vitest';
import { expectedStepsToAbsorption, infiniteNodes, runForward } from '../src/exact/absorbing-chain.js';
import { type Fraction, ONE, add, fraction, formatFraction, mul, sub } from '../src/exact/fraction.js';

/** The shared chain of every sequence of activations, on chains whose answers are known in closed form. */

const f = (n: number, d: number) => fraction(BigInt(n), BigInt(d));
const pow = (x: Fraction, n: number): Fraction => (n === 0 ? ONE : mul(x, pow(x, n - 1)));
const show = (x: Fraction | undefined) => (x === undefined ? 'infinite' : formatFraction(x));
const map = (...entries: [number, Fraction][]) => new Map(entries);

// Gambler's ruin with a fair coin between 0 and N (both absorbing): from i the expected duration is
// i (N - i) (a standard result: h(i) = 1 + (h(i-1) + h(i+1)) / 2 with h(0) = h(N) = 0 is solved by it).
const N = 4;
const ruin = (i: number) => map([i - 1, f(1, 2)], [i + 1, f(1, 2)]);
const ruined = (i: number) => i === 0 || i === N;

describe('expectedStepsToAbsorption', () => {
  it("gambler's ruin: i (N - i) steps from i", () => {
    for (let i = 1; i < N; i++) expect(show(expectedStepsToAbsorption(i, ruin, ruined, () => 0))).toBe(String(i * (N - i)));
  });

  it('a geometric wait: absorbed with 1/6 each step takes 6 steps on average', () => {
    expect(show(expectedStepsToAbsorption(1, () => map([0, f(1, 6)], [1, f(5, 6)]), (k) => k === 0, () => 0))).toBe('6');
  });

  it('levels solved from the lowest up: 2 steps to leave level 2 (p 1/2), then 3 to be absorbed (p 1/3) is 5', () => {
    const move = (k: number) => (k === 2 ? map([2, f(1, 2)], [1, f(1, 2)]) : map([1, f(2, 3)], [0, f(1, 3)]));
    expect(show(expectedStepsToAbsorption(2, move, (k) => k === 0, (k) => k))).toBe('5');
  });

  it('infinite when a reachable state is never absorbed, and a step that climbs a level is an internal error', () => {
    // From 1: absorbed with 1/2, else to 2, which only ever stays.
    const move = (k: number) => (k === 1 ? map([0, f(1, 2)], [2, f(1, 2)]) : map([2, ONE]));
    expect(expectedStepsToAbsorption(1, move, (k) => k === 0, () => 0)).toBeUndefined();
    expect(() => expectedStepsToAbsorption(1, move, (k) => k === 0, (k) => (k === 2 ? 5 : 1))).toThrow(/climbs from level 1 to 5/);
  });
});

describe('runForward', () => {
  it('the geometric wait: absorbed at step t with (5/6)^(t-1) (1/6); absorbed mass stays put; the reward counts the steps made', () => {
    const run = runForward(1, 4, () => ({ next: map([0, f(1, 6)], [1, f(5, 6)]), reward: ONE }), (k) => k === 0);
    run.absorbedAt.forEach((p, i) => expect(show(p)).toBe(show(mul(pow(f(5, 6), i), f(1, 6)))));
    expect(show(run.after[3]!.get(1))).toBe(show(pow(f(5, 6), 4)));
    expect(show(run.after[3]!.get(0))).toBe(show(sub(ONE, pow(f(5, 6), 4))));
    // Steps made: 1 + 5/6 + (5/6)^2 + (5/6)^3 (a step is made only while not absorbed).
    expect(show(run.reward)).toBe(show([0, 1, 2, 3].map((t) => pow(f(5, 6), t)).reduce(add)));
  });

  it("the move sees the step number: gambler's ruin from 2 over 2 steps ends at 0, 2 or 4 with 1/4, 1/2, 1/4", () => {
    const steps: number[] = [];
    const run = runForward(2, 2, (k, t) => (steps.push(t), { next: ruin(k) }), ruined);
    expect(steps).toEqual([1, 2, 2]);
    expect([0, 2, 4].map((k) => show(run.after[1]!.get(k)))).toEqual(['1/4', '1/2', '1/4']);
    expect(run.absorbedAt.map(show)).toEqual(['0', '1/2']);
  });
});

describe('infiniteNodes', () => {
  it('marks the nodes with no way out and those that can reach them, and leaves the rest', () => {
    // 0 -> absorbed; 1 -> 0 or 2; 2 -> 2 (trapped); 3 -> 0 only; 4 is not a node.
    const preds = [[1, 3], [], [1, 2], [], []];
    const out = infiniteNodes(5, (v) => v !== 4, (v) => v === 0, preds);
    expect([...out]).toEqual([0, 1, 1, 0, 0]);
  });
});
