/**
 * Checks the matchups of scripts/catalogue-matchups.json against a copy of the community catalogue: each
 * was labelled by hand from the entry's sentences, either as the plain question (no catalogue) that asks
 * the same thing or as a question that must stop. The catalogue is not ours to ship, so this is a check a
 * developer runs on the catalogue's newest snapshot, not a test:
 *
 *   npm run build && node dist/scripts/catalogue-matchups.js DIR      (DIR: the .gst and .cat files)
 *
 * Each question is the CLI as a user runs it, a process each: a right answer, a needless stop and an
 * answer where the text cannot be expressed are all told apart by the exit code and the JSON.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Matchup {
  readonly ask: readonly string[];
  readonly same?: readonly string[];
  readonly stops?: string;
  readonly why?: string;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');

function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [cli, ...args], { maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })),
  );
}

/** What two answers must share: every outcome's exact fraction and the expected blood markers. */
function answerOf(json: string): string {
  const answer = JSON.parse(json) as { outcomes: { outcome: string; exact: string }[]; expectedBloodMarkers?: { exact: string } };
  return JSON.stringify([answer.outcomes.map((o) => [o.outcome, o.exact]), answer.expectedBloodMarkers?.exact]);
}

function withKind(args: readonly string[]): string[] {
  return ['exact', ...(args.includes('--kind') ? [] : ['--kind', 'attack']), ...args, '--format', 'json'];
}

async function check(m: Matchup, catalogue: readonly string[]): Promise<string | undefined> {
  const asked = await run([...withKind(m.ask), '--catalogue', ...catalogue]);
  const firstLine = asked.stderr.split('\n').find((l) => l.trim()) ?? '';
  if (m.stops !== undefined) {
    if (asked.code === 0) return `answered, but it must stop (${m.stops})`;
    if (asked.code !== 2) return `exit ${asked.code}, not a stop: ${firstLine}`;
    return undefined;
  }
  if (asked.code !== 0) return `stopped (exit ${asked.code}), but the answer exists: ${firstLine}`;
  const plain = await run(withKind(m.same ?? []));
  if (plain.code !== 0) return `the plain question itself fails (exit ${plain.code}): ${plain.stderr.split('\n')[0]}`;
  const [got, want] = [answerOf(asked.stdout), answerOf(plain.stdout)];
  return got === want ? undefined : `a different answer:\n    catalogue ${got}\n    by hand   ${want}`;
}

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: node dist/scripts/catalogue-matchups.js DIR (the folder of the catalogue\'s .gst and .cat files)\n');
    process.exit(2);
  }
  const files = readdirSync(dir);
  const catalogue = [...files.filter((f) => f.endsWith('.gst')), ...files.filter((f) => f.endsWith('.cat')).sort()].map((f) => join(dir, f));
  const { matchups } = JSON.parse(readFileSync(join(root, 'scripts', 'catalogue-matchups.json'), 'utf8')) as { matchups: Matchup[] };
  const results: (string | undefined)[] = new Array(matchups.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < matchups.length) {
      const i = next++;
      results[i] = await check(matchups[i]!, catalogue);
    }
  };
  await Promise.all([worker(), worker()]);
  let wrong = 0;
  matchups.forEach((m, i) => {
    const label = m.ask.filter((a) => !a.startsWith('--')).join(' / ');
    if (results[i] === undefined) process.stdout.write(`ok    ${label}${m.stops ? ' (stops)' : ''}\n`);
    else {
      wrong++;
      process.stdout.write(`WRONG ${label}: ${results[i]}\n`);
    }
  });
  const stops = matchups.filter((m) => m.stops !== undefined).length;
  process.stdout.write(`${matchups.length - wrong}/${matchups.length} as labelled (${matchups.length - stops} answers, ${stops} stops)\n`);
  process.exit(wrong === 0 ? 0 : 1);
}

await main();
