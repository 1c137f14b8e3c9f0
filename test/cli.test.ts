import { describe, expect, it } from 'vitest';
import { FIXED_COLUMNS, meanColumns } from '../src/present/tables/csv.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * `cli` starts the built CLI in a process of its own (run `npm run build` first); `cliInProcess` runs the
 * same src/cli/main.ts inside this process (same output, same exit code) at a fraction of the CPU. One
 * refusal below stays a real process, end to end: exit 2 of a process, and no stack trace from Node.
 */

describe('injury-lab exact', () => {
  it('prints one JSON document with every outcome, in order, and the expected blood markers', async () => {
    const r = await cliInProcess('exact', '--kind', 'injury', '--injury-dice', '1', '--armour', 'standard', '--format', 'json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ system: 'trench-crusade', edition: 'core', kind: 'injury' });
    expect(doc.scenario).toMatchObject({ injuryDice: 1, armour: 'standard', shield: false });
    expect(doc.outcomes.map((o: { outcome: string }) => o.outcome)).toEqual(['no-effect', 'minor-hit', 'down', 'out-of-action']);
    // 3D6 keep 2 highest, -1: no effect needs a kept total of 2 (all three dice 1s): 1/216.
    expect(doc.outcomes[0]).toMatchObject({ exact: '1/216', probability: 1 / 216 });
    expect(doc.expectedBloodMarkers.exact).toMatch(/^\d+\/\d+$/);
    expect(doc.manifest).toMatchObject({ tool: 'injury-lab', edition: 'core' });
  });

  it('reads a scenario file, and flags override its fields', async () => {
    const file = JSON.parse((await cliInProcess('exact', 'test/fixtures/attack.json', '--format', 'json')).stdout);
    expect(file.scenario).toMatchObject({ kind: 'attack', armour: 'reinforced', shield: true, injuryDice: 1 });
    expect(file.outcomes[0].outcome).toBe('miss');
    const over = JSON.parse((await cliInProcess('exact', 'test/fixtures/attack.json', '--armour', 'standard', '--format', 'json')).stdout);
    expect(over.scenario.armour).toBe('standard');
  });

  it('prints CSV: a header and one row per outcome, the tidy columns of a sweep', async () => {
    const lines = (await cliInProcess('exact', '--kind', 'attack', '--format', 'csv')).stdout.trim().split('\n');
    const inputs = Object.keys(JSON.parse((await cliInProcess('exact', '--kind', 'attack', '--format', 'json')).stdout).scenario).slice(3);
    expect(lines[0]).toBe([...inputs, ...FIXED_COLUMNS, ...meanColumns('expectedBloodMarkers')].join(','));
    expect(lines).toHaveLength(6);
  });

  it('prints a readable table by default', async () => {
    const r = await cliInProcess('exact', '--kind', 'fall', '--height-inches', '7');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/out-of-action/);
    expect(r.stdout).toMatch(/4D6 keep 2 highest/);
  });

  it('lists systems, editions, kinds and fields', async () => {
    const r = await cliInProcess('systems');
    expect(r.stdout).toMatch(/trench-crusade/);
    expect(r.stdout).toMatch(/core \(default\)/);
    expect(r.stdout).toMatch(/armour \/ --armour: none, standard, reinforced, machine/);
  });
});

describe('bad input: one line on stderr, exit 2, nothing on stdout, no stack trace', () => {
  /**
   * The one refusal that runs in a real process: exit 2 of a process, and no stack trace from Node (in
   * process, an error that is not a refusal is thrown on to the test instead, which fails it too).
   */
  const spawned = 'unknown flag';
  const bad: [string, string[], RegExp][] = [
    ['unknown flag', ['exact', '--armor', 'standard'], /Unknown argument: armor/],
    ['unknown system', ['exact', '--system', 'warhammer'], /system: "warhammer" is not a known system/],
    ['unknown edition', ['exact', '--edition', 'v9'], /edition: "v9" is not an edition of trench-crusade/],
    ['unknown kind', ['exact', '--kind', 'shoot'], /kind: "shoot" is not a kind/],
    ['out of range', ['exact', '--injury-dice', '40'], /injuryDice: 40 is not allowed; allowed: a whole number from -10 to 10/],
    ['not a number', ['exact', '--injury-dice', 'lots'], /injuryDice: "lots" is not allowed/],
    ['not an integer', ['exact', '--blood-markers-spent', '1.5'], /bloodMarkersSpent: 1.5 is not allowed/],
    ['machine armour and shield', ['exact', '--armour', 'machine', '--shield'], /shield: true cannot be combined with armour "machine"/],
    ['bloodbath in comprehensive', ['exact', '--edition', 'comprehensive', '--bloodbath'], /bloodbath: true is not a rule of the comprehensive edition/],
    ['fall in playtest', ['exact', '--edition', 'playtest', '--kind', 'fall', '--height-inches', '6'], /kind: "fall" is not a rule of the playtest edition/],
    ['missing file', ['exact', 'nope.json'], /scenario file "nope.json": no such file/],
    ['malformed file', ['exact', 'test/fixtures/malformed.json'], /not valid JSON/],
    ['unknown format', ['exact', '--format', 'xml'], /--format: "xml" is not a format; allowed: table, json, csv/],
    ['no command', [], /name a command/],
  ];
  if (!bad.some(([name]) => name === spawned)) throw new Error(`no case named ${spawned}`);
  for (const [name, args, message] of bad) {
    it(name, async () => {
      const r = name === spawned ? cli(...args) : await cliInProcess(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }
});
