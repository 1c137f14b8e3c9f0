/**
 * Suggestions for a name that is not known (a flag, a rule, a keyword, a profile): the nearest names by
 * edit distance. Plain string work at the bottom of the house, so every layer that refuses a name can use it.
 */
import { showValue } from './errors.js';
import { terminalSafe } from './terminal-safe.js';

/**
 * "Did you mean" for unknown names. yargs suggests only commands (recommendCommands), and no
 * edit-distance library is a dependency; this small optimal-string-alignment distance (Levenshtein plus
 * swapping two neighbours, so --hieght-inches is one edit from --height-inches) is all it needs.
 * Once the distance is sure to be more than `atMost`, it returns atMost + 1 instead.
 */
export function editDistance(a: string, b: string, atMost = Infinity): number {
  // Three rows of the table (a swap looks two rows back), not all of it, and given up once beyond
  // `atMost`: a did-you-mean over a profiles file measures tens of thousands of names.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = new Array<number>(b.length + 1);
  let current = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  let previousLeast = 0;
  for (let i = 1; i <= a.length; i++) {
    const ai = a.charCodeAt(i - 1);
    current[0] = i;
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1);
      let best = previous[j - 1]! + (ai === bj ? 0 : 1);
      if (previous[j]! + 1 < best) best = previous[j]! + 1;
      if (current[j - 1]! + 1 < best) best = current[j - 1]! + 1;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && before[j - 2]! + 1 < best) best = before[j - 2]! + 1;
      current[j] = best;
      if (best < least) least = best;
    }
    // Every cell is at least the least of the two rows above it: two rows beyond atMost stay beyond.
    if (least > atMost && previousLeast > atMost) return atMost + 1;
    previousLeast = least;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/**
 * The flags `unknown` (a name without dashes) is probably a typo of: those at the smallest distance, if
 * it is at most 2 (1 for names of 3 letters or fewer), else those it is the start of or that start it
 * (3 letters at least). At most three, best first.
 */
export function suggestFlags(unknown: string, flags: readonly string[]): string[] {
  const u = unknown.toLowerCase();
  const most = u.length <= 3 ? 1 : 2;
  const scored = [...new Set(flags)]
    .map((flag) => {
      const f = flag.toLowerCase();
      // The distance is at least the difference in length: a profiles file's 40,000 names are mostly skipped unmeasured.
      const distance = Math.abs(u.length - f.length) > most ? most + 1 : editDistance(u, f, most);
      if (distance <= most) return { flag, score: distance };
      const prefix = (u.length >= 3 && f.startsWith(u)) || (f.length >= 3 && u.startsWith(f));
      return prefix ? { flag, score: most + 1 } : undefined;
    })
    .filter((s): s is { flag: string; score: number } => s !== undefined);
  if (scored.length === 0) return [];
  const best = Math.min(...scored.map((s) => s.score));
  return scored.filter((s) => s.score === best).map((s) => s.flag).slice(0, 3);
}

/** How many names a message offers at most, however many a file gives. */
export const NAMES_OFFERED = 5;

/**
 * The `count` names closest to `unknown`: suggestFlags' guesses first (the "did you mean" of the same
 * message), then the rest by edit distance, ties in the order given.
 */
export function nearestNames(unknown: string, names: readonly string[], count = NAMES_OFFERED): string[] {
  const guesses = suggestFlags(unknown, names).slice(0, count);
  const taken = new Set(guesses);
  const u = unknown.toLowerCase();
  // The nearest so far, nearest first; a name replaces one only if it is strictly nearer, so ties keep file order.
  const nearest: { name: string; distance: number }[] = [];
  const wanted = count - guesses.length;
  for (const name of names) {
    if (wanted <= 0) break;
    if (taken.has(name)) continue;
    const atMost = nearest.length < wanted ? Infinity : nearest[nearest.length - 1]!.distance - 1;
    if (atMost < 0) break;
    if (Math.abs(u.length - name.length) > atMost) continue;
    const distance = editDistance(u, name.toLowerCase(), atMost);
    if (distance > atMost) continue;
    const at = nearest.findIndex((n) => n.distance > distance);
    nearest.splice(at === -1 ? nearest.length : at, 0, { name, distance });
    if (nearest.length > wanted) nearest.pop();
  }
  return [...guesses, ...nearest.map((n) => n.name)];
}

/**
 * What to say is allowed instead of `unknown`, a name a user's file lists (a profile): every name when
 * they are few, else the nearest few, how many more there are and the command that lists them all
 * (`listedBy`), so that a file of 40,000 names does not make a message one 389 KB line.
 */
export function allowedNames(unknown: unknown, names: readonly string[], listedBy: string): string {
  const quoted = (ns: readonly string[]) => ns.map((n) => showValue(n)).join(', ');
  if (names.length <= NAMES_OFFERED) return quoted(names);
  const offered = typeof unknown === 'string' ? nearestNames(unknown, names) : names.slice(0, NAMES_OFFERED);
  const count = (n: number) => n.toLocaleString('en-US');
  return `${quoted(offered)} and ${count(names.length - offered.length)} more (\`${terminalSafe(listedBy)}\` lists all ${count(names.length)})`;
}
