/** Brute-force dice counting for tests: every face of every die enumerated, no engine code. */

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

