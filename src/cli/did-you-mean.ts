/**
 * "Did you mean" for unknown flags. yargs suggests only commands (recommendCommands), and no
 * edit-distance library is a dependency; this small optimal-string-alignment distance (Levenshtein plus
 * swapping two neighbours, so --hieght-inches is one edit from --height-inches) is all it needs.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
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
      const distance = editDistance(u, f);
      if (distance <= most) return { flag, score: distance };
      const prefix = (u.length >= 3 && f.startsWith(u)) || (f.length >= 3 && u.startsWith(f));
      return prefix ? { flag, score: most + 1 } : undefined;
    })
    .filter((s): s is { flag: string; score: number } => s !== undefined);
  if (scored.length === 0) return [];
  const best = Math.min(...scored.map((s) => s.score));
  return scored.filter((s) => s.score === best).map((s) => s.flag).slice(0, 3);
}

/** kebab-case of a camelCase name yargs also reports (hieghtInches beside hieght-inches). */
const kebabOf = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * yargs' "Unknown argument(s): a, b" with a suggestion for each unknown flag that is close to one of
 * `flags`, and where to look: `injury-lab COMMAND --help`. Positional arguments get no suggestion.
 */
export function unknownArgumentsMessage(text: string, context: { command?: string; flags: readonly string[]; args: readonly string[] }): string {
  const listed = text.replace(/^Unknown arguments?:\s*/, '').split(', ');
  // yargs names --hieght-inches twice, as typed and in camelCase.
  const names = listed.filter((n) => !(n !== kebabOf(n) && listed.includes(kebabOf(n))));
  const typedAsFlag = (n: string) => context.args.some((a) => a === `--${n}` || a.startsWith(`--${n}=`) || a === `--no-${n}`);
  const hints = names.flatMap((n) => {
    const s = typedAsFlag(n) ? suggestFlags(n, context.flags) : [];
    return s.length ? [{ n, s: s.map((f) => `--${f}`).join(' or ') }] : [];
  });
  const head = `Unknown argument${names.length > 1 ? 's' : ''}: ${names.join(', ')}`;
  const hint = hints.length === 0 ? '' : names.length === 1 ? `; did you mean ${hints[0]!.s}?` : `; did you mean ${hints.map((h) => `${h.s} for --${h.n}`).join(', ')}?`;
  return `${head}${hint} (\`injury-lab ${context.command ?? '<command>'} --help\` lists the options)`;
}
