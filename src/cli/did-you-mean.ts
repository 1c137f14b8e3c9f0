import { suggestFlags } from '../suggest.js';

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
