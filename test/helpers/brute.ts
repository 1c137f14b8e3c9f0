/** Brute-force dice counting for tests: every face of every die enumerated, no engine code. */
import { type Fraction, ZERO, add, fraction, mul } from '../../src/exact/fraction.js';

/** Every roll of `dice` d6, keeping `keep` highest (or lowest): counts of each kept total. */
export function keptTotals(dice: number, keep: number, lowest: boolean): Map<number, bigint> {
  const out = new Map<number, bigint>();
  const faces = new Array<number>(dice).fill(1);
  for (;;) {
    const sorted = [...faces].sort((a, b) => (lowest ? a - b : b - a));
    const total = sorted.slice(0, keep).reduce((a, b) => a + b, 0);
    out.set(total, (out.get(total) ?? 0n) + 1n);
    let i = 0;
    while (i < dice && faces[i] === 6) faces[i++] = 1;
    if (i === dice) return out;
    faces[i]!++;
  }
}


/**
 * P(Out of Action within `attacks`) for a core melee sequence against an unarmoured target under the
 * policy `all` (every marker spent as +1 injury dice), every die enumerated, written from the rules:
 * success 2D6, 7+ hits, 12 a critical (+1 injury die); injury 2D6 + dice, keep the 2 highest, +1 die
 * against a Down target; 2+ Minor Hit (1 marker), 7+ Down (1 marker, 2 if already Down), 9+ Out of
 * Action; then the weapon's `fireMarkers` after every roll the target survives. With
 * `activationPerAttack`, the target activates between attacks: it stands up and removes `regenerate`
 * markers.
 */
export function bruteCoreMeleeSequence(o: { attacks: number; startMarkers?: number; fireMarkers?: number; regenerate?: number; activationPerAttack?: boolean }): Fraction {
  const fire = o.fireMarkers ?? 0;
  const regenerate = o.regenerate ?? 0;
  const totals = new Map<number, Map<number, bigint>>();
  const rolls = (pool: number) => totals.get(pool) ?? totals.set(pool, keptTotals(pool, 2, false)).get(pool)!;
  const seen = new Map<string, Fraction>();
  const next = (left: number, markers: number, down: boolean): Fraction =>
    o.activationPerAttack ? play(left, Math.max(0, markers - regenerate), false) : play(left, markers, down);
  const play = (left: number, markers: number, down: boolean): Fraction => {
    if (left === 0) return ZERO;
    const key = `${left}/${markers}/${down}`;
    const known = seen.get(key);
    if (known) return known;
    let p = ZERO;
    for (const [success, ways] of keptTotals(2, 2, false)) {
      const w = fraction(ways, 36n);
      if (success < 7) {
        p = add(p, mul(w, next(left - 1, markers, down)));
        continue;
      }
      const pool = 2 + markers + (success >= 12 ? 1 : 0) + (down ? 1 : 0);
      for (const [total, count] of rolls(pool)) {
        const q = mul(w, fraction(count, 6n ** BigInt(pool)));
        if (total >= 9) p = add(p, q);
        else if (total >= 7) p = add(p, mul(q, next(left - 1, (down ? 2 : 1) + fire, true)));
        else p = add(p, mul(q, next(left - 1, 1 + fire, down)));
      }
    }
    seen.set(key, p);
    return p;
  };
  return play(o.attacks, o.startMarkers ?? 0, false);
}
