import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import { coerceFieldFlags } from '../src/cli/options.js';
import { editDistance, suggestFlags } from '../src/suggest.js';
import { parseScenario } from '../src/input/scenario.js';
import { systems } from '../src/rules/registry.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 9 part 2, the CLI: field flags per system and kind, their help, and suggestions.
 *
 * `cli` starts the built CLI in a process of its own; `cliInProcess` runs the same src/cli/main.ts (its
 * yargs set-up, help and "did you mean") in this process, at a fraction of the CPU. Two runs stay real
 * processes, end to end: a help (exit 0, printed by yargs) and a refusal (exit 2, one line); the other
 * cases differ only in the words printed. (A reader that stops reading, at the end, needs a real pipe.)
 */

type System = (typeof systems)[number];
const tc = systems.find((s) => s.id === 'trench-crusade')!;
const d20 = systems.find((s) => s.id === 'd20-warband')!;

function expectRefused(r: { code: number | null; stdout: string; stderr: string }, message: string | RegExp): void {
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  if (typeof message === 'string') expect(r.stderr).toBe(`injury-lab: ${message}\n`);
  else expect(r.stderr).toMatch(message);
  expect(r.code).toBe(2);
}

/** The field groups of a help text (they follow the examples), on one line: wrapping changes no test. */
function fieldGroups(help: string): string {
  const at = help.search(/^\S+ fields \(/m);
  return at < 0 ? '' : help.slice(at).replace(/\s+/g, ' ');
}

/** What `--help` may be at most, in lines at the 100 columns of a pipe (issue 25: it was 566). */
const HELP_MOST_LINES = 60;

/** The scenario options --help leaves out, which --help-fields lists (where their systems and kinds are in scope). */
const REFERENCE_FLAGS = ['--profiles', '--roster', '--catalogue', '--allow-unmodelled', '--weapon', '--target', '--weapon-keywords', '--target-keywords', '--a', '--a-profile', '--b', '--b-profile', '--rules'];

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

describe('--help is short: what most command lines need, and where the rest is', () => {
  // End to end in a CLI process: the whole help, as a user sees it.
  it(`exact: at most ${HELP_MOST_LINES} lines, the common options, examples and the pointer to --help-fields`, () => {
    const r = cli('exact', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').length).toBeLessThanOrEqual(HELP_MOST_LINES);
    for (const flag of ['--system', '--edition', '--kind', '--format', '--chart', '--help-fields']) expect(r.stdout).toMatch(new RegExp(`^ +${flag} `, 'm'));
    expect(r.stdout).toMatch(/^ +scenario +Scenario JSON file/m);
    expect(r.stdout).toContain('Examples:');
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).toContain('Every field of the scenario, with its allowed values and default: `injury-lab exact --kind attack --help-fields`');
    // The options it leaves out are named, so that a search of the help finds them.
    for (const flag of REFERENCE_FLAGS) expect(help).toMatch(new RegExp(`${flag}[,)]`));
    // yargs lists an option with its type; an example wrapped onto a line of its own has none.
    expect(r.stdout).not.toMatch(/^ +--(profiles|roster|a-profile|rules|armour|injury-dice) .*\[(string|boolean|array)\]$/m);
    expect(fieldGroups(r.stdout)).toBe('');
  });

  it('every command that takes scenario fields points to its --help-fields and stays short', async () => {
    for (const command of ['simulate', 'check', 'sweep', 'solve', 'compare']) {
      const r = await cliInProcess(command, '--help');
      expect(r.code).toBe(0);
      expect(r.stdout.replace(/\s+/g, ' ')).toContain(`\`injury-lab ${command} --kind attack --help-fields\``);
      expect(fieldGroups(r.stdout)).toBe('');
      expect(r.stdout.trimEnd().split('\n').length).toBeLessThan(80);
    }
    // The simulation options are what simulate is for.
    expect((await cliInProcess('simulate', '--help')).stdout).toMatch(/^Simulation:\n +--trials /m);
  });

  it("--kind names the kinds of the command line's system", async () => {
    const r = await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'fall', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('--kind Scenario kind: check (default), attack, injury-roll, fall, turns, duel');
  });
});

describe('--help-fields lists the field flags per system and kind', () => {
  it('attack: every field of each system\'s attack kind, with allowed values and defaults, and the options --help leaves out', async () => {
    const r = await cliInProcess('exact', '--kind', 'attack', '--help-fields');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const reference = r.stdout.replace(/\s+/g, ' ');
    const attackFields = [tc, d20].map((s) => s.fields.filter((f) => f.kinds.includes('attack')));
    for (const f of attackFields.flat()) expect(reference).toContain(`--${kebab(f.name)} ${f.description.replace(/\s+/g, ' ')} Allowed: `);
    // One "Allowed:" and one "Default:" for each field, and for nothing else.
    const count = attackFields.flat().length;
    expect(reference.match(/Allowed: /g)).toHaveLength(count);
    expect(reference.match(/Default: /g)).toHaveLength(count);
    expect(r.stdout).toMatch(/^trench-crusade fields \(attack\):$/m);
    expect(r.stdout).toMatch(/^d20-warband fields \(attack\):$/m);
    for (const flag of REFERENCE_FLAGS.filter((f) => !/^--[ab]\b/.test(f))) expect(r.stdout).toMatch(new RegExp(`^  ${flag} `, 'm'));
    // No kind in scope has sides.
    expect(r.stdout).not.toMatch(/^ +--a-profile /m);
  });

  it('d20 fall: only d20 fall fields, with d20 descriptions, allowed values and defaults', async () => {
    const r = await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'fall', '--help-fields');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^d20-warband fields \(fall\):$/m);
    const fields = fieldGroups(r.stdout);
    expect(fields).toContain('--height-inches Height of the fall in inches: +2 to the Injury Roll per full inch above 2 Allowed: a number from 0 to 100. Default: 3.');
    expect(fields).not.toMatch(/no roll under 3|trench-crusade|--armour|--stat\b|--defence/);
  });

  it('trench-crusade: its own group, the per-edition defaults, and the kinds of each field', async () => {
    const r = await cliInProcess('sweep', '--system', 'trench-crusade', '--help-fields');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^trench-crusade fields \(injury, attack, fall, sequence, duel, battle\):$/m);
    const fields = fieldGroups(r.stdout);
    expect(fields).not.toMatch(/d20-warband fields/);
    expect(fields).toContain("--armour The target's armour Allowed: none, standard, reinforced, machine. Default: none.");
    expect(fields).toMatch(/--modifier-cap .*? Allowed: negative, net, none\. Default: playtest none, comprehensive negative, core negative\./);
    expect(fields).toContain('--height-inches Height of the fall in inches (no roll under 3; +1 injury dice per full 3 inches) Allowed: a number from 0 to 120. Default: 0. Kinds: fall.');
  });

  it('no system named: one group per system, each with its own descriptions, and every option --help leaves out', async () => {
    const r = await cliInProcess('exact', '--help-fields');
    expect(r.code).toBe(0);
    const tcAt = r.stdout.indexOf('trench-crusade fields (injury, attack, fall, sequence, duel, battle):');
    const d20At = r.stdout.indexOf('d20-warband fields (check, attack, injury-roll, fall, turns, duel):');
    expect(tcAt).toBeGreaterThanOrEqual(0);
    expect(d20At).toBeGreaterThan(tcAt);
    const [tcPart, d20Part] = [fieldGroups(r.stdout.slice(tcAt, d20At)), fieldGroups(r.stdout.slice(d20At))];
    expect(tcPart).toContain('no roll under 3');
    expect(tcPart).not.toContain('--defence');
    expect(d20Part).toContain('+2 to the Injury Roll per full inch above 2');
    expect(d20Part).not.toContain('no roll under 3');
    for (const flag of REFERENCE_FLAGS) expect(r.stdout).toMatch(new RegExp(`^  ${flag} `, 'm'));
  });

  it('a scenario file sets the scope when no flag does', async () => {
    const r = await cliInProcess('exact', 'examples/standard.json', '--help-fields');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^trench-crusade fields \(attack\):$/m);
    expect(fieldGroups(r.stdout)).not.toMatch(/--height-inches|d20-warband/);
  });

  it('needs nothing else of the command line: no --vary for sweep, no scenarios for compare', async () => {
    for (const args of [['sweep', '--kind', 'fall'], ['solve'], ['compare', '--kind', 'fall'], ['simulate', '--trials', 'many']]) {
      const r = await cliInProcess(...args, '--help-fields');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^trench-crusade fields \(/m);
    }
  });

  it('a system or kind that is not one is refused as a run of the command line refuses it', async () => {
    const run = await cliInProcess('exact', '--kind', 'zzz');
    expect(run.stderr).toMatch(/^injury-lab: kind: "zzz" is not a kind of trench-crusade; allowed: /);
    expectRefused(await cliInProcess('exact', '--kind', 'zzz', '--help-fields'), run.stderr.replace(/^injury-lab: |\n$/g, ''));
    expectRefused(await cliInProcess('exact', '--system', 'zzz', '--kind', 'attack', '--help-fields'), /^injury-lab: system: "zzz" is not a known system; allowed: trench-crusade, d20-warband$/m);
    expectRefused(await cliInProcess('exact', '--system', 'trench-crusade', '--kind', 'check', '--help-fields'), /^injury-lab: kind: "check" is not a kind of trench-crusade/);
  });
});

describe('field flags are read with the spec of the scenario system', () => {
  it('a field flag of the other system is refused in one line naming where it belongs', async () => {
    const allowedTc = tc.fields.filter((f) => f.kinds.includes('injury')).map((f) => `--${f.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    expectRefused(
      await cliInProcess('exact', '--kind', 'injury', '--defence', '5'),
      `--defence: not a field of trench-crusade kind "injury"; it belongs to d20-warband (attack, turns); allowed: ${allowedTc.join(', ')}`,
    );
    expectRefused(
      await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'fall', '--armour', 'standard'),
      '--armour: not a field of d20-warband kind "fall"; it belongs to trench-crusade (injury, attack, fall, sequence); allowed: --modifier, --advantage, --disadvantage, --height-inches',
    );
    // The system comes from the scenario file when no flag names it.
    expectRefused(await cliInProcess('exact', 'examples/standard.json', '--stat', '5'), /^injury-lab: --stat: not a field of trench-crusade kind "attack"; it belongs to d20-warband \(check, attack, turns\)/);
    expectRefused(
      await cliInProcess('sweep', '--system', 'd20-warband', '--kind', 'attack', '--armour', 'standard', '--vary', 'stat=5,6'),
      /^injury-lab: --armour: not a field of d20-warband kind "attack"/,
    );
  });

  it('a flag of another kind of the same system gets the words a file field gets', async () => {
    const fromFile = (() => {
      try {
        parseScenario({ kind: 'injury', heightInches: 5 });
      } catch (e) {
        return (e as UsageError).message;
      }
    })();
    expect(fromFile).toBe('heightInches: 5 is not read by kind "injury"; it is a field of kind fall');
    expectRefused(await cliInProcess('exact', '--kind', 'injury', '--height-inches', '5'), `--height-inches: ${fromFile!.replace(/^heightInches: /, '')}`);
  });

  it('a d20 stat takes "-" or a whole number', async () => {
    // A lone "-" is attached to its flag by main.ts (dashAsValue), which runs in process too.
    const stat = async (v: string) =>
      JSON.parse((await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'check', '--stat', v, '--format', 'json')).stdout).scenario.stat;
    expect(await stat('-')).toBe('-');
    expect(await stat('7')).toBe(7);
    expectRefused(await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'check', '--stat', '21'), 'stat: 21 is not allowed; allowed: a whole number from 1 to 20, or "-"');
    const fall = JSON.parse((await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'fall', '--height-inches', '5', '--format', 'json')).stdout);
    expect(fall.scenario).toMatchObject({ system: 'd20-warband', heightInches: 5 });
  });

  it('a third system with its own armour field converts --armour with its own spec', () => {
    const third = {
      ...d20,
      id: 'third-system',
      fields: [{ name: 'armour', description: 'Armour points, or "-"', schema: { type: 'integer-or', minimum: 0, maximum: 6, words: ['-'] }, default: 0, kinds: ['check'] }],
    } as unknown as System;
    const registry = [...systems, third];
    expect(coerceFieldFlags({ armour: '3' }, third, 'check', registry)).toEqual({ armour: 3 });
    expect(coerceFieldFlags({ armour: '-' }, third, 'check', registry)).toEqual({ armour: '-' });
    expect(coerceFieldFlags({ armour: ' standard ' }, tc, 'injury', registry)).toEqual({ armour: 'standard' });
    // A string field keeps "3" for parseScenario to refuse, naming what is allowed.
    expect(coerceFieldFlags({ armour: '3' }, tc, 'injury', registry)).toEqual({ armour: '3' });
    expect(() => coerceFieldFlags({ armour: '3' }, d20, 'check', registry)).toThrow(
      '--armour: not a field of d20-warband kind "check"; it belongs to trench-crusade (injury, attack, fall, sequence), third-system (check)',
    );
  });
});

describe('an unknown flag: did you mean', () => {
  it('suggests the flag meant', async () => {
    // End to end in a CLI process; the others differ only in the words.
    expectRefused(cli('exact', '--armor', 'standard'), 'Unknown argument: armor; did you mean --armour? (`injury-lab exact --help` lists the options)');
    expectRefused(await cliInProcess('exact', '--injurydice', '1'), 'Unknown argument: injurydice; did you mean --injury-dice? (`injury-lab exact --help` lists the options)');
    expectRefused(
      await cliInProcess('exact', '--kind', 'fall', '--hieght-inches', '6'),
      'Unknown argument: hieght-inches; did you mean --height-inches? (`injury-lab exact --help` lists the options)',
    );
    expectRefused(await cliInProcess('simulate', '--trails', '1e5'), 'Unknown argument: trails; did you mean --trials? (`injury-lab simulate --help` lists the options)');
    expectRefused(await cliInProcess('report', '--chek-only'), /^injury-lab: Unknown argument: chek-only; did you mean --check-only\?/);
  });

  it('suggests nothing far off, nothing outside the system in play, and nothing for a positional', async () => {
    expectRefused(await cliInProcess('exact', '--zzzz', '1'), 'Unknown argument: zzzz (`injury-lab exact --help` lists the options)');
    expectRefused(await cliInProcess('exact', '--system', 'd20-warband', '--kind', 'fall', '--armor', 'standard'), 'Unknown argument: armor (`injury-lab exact --help` lists the options)');
    expectRefused(await cliInProcess('exact', 'examples/standard.json', 'armor'), 'Unknown argument: armor (`injury-lab exact --help` lists the options)');
    expectRefused(
      await cliInProcess('exact', '--armor', 'x', '--zzzz', 'y'),
      'Unknown arguments: armor, zzzz; did you mean --armour for --armor? (`injury-lab exact --help` lists the options)',
    );
  });

  it('measures by edits, transpositions counting one', () => {
    expect(editDistance('armor', 'armour')).toBe(1);
    expect(editDistance('hieght', 'height')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(suggestFlags('seeds', ['seed', 'trials'])).toEqual(['seed']);
    expect(suggestFlags('injury-dice-count', ['injury-dice', 'seed'])).toEqual(['injury-dice']);
    expect(suggestFlags('zzzz', ['seed', 'kind', 'out'])).toEqual([]);
    expect(suggestFlags('xy', ['out', 'all'])).toEqual([]);
  });
});

describe('help examples', () => {
  const commands = ['exact', 'simulate', 'check', 'sweep', 'compare', 'report', 'systems', 'schema'];
  // In process: the help of every command, as main.ts builds it (the help family's CLI process is above).
  it('name files that exist', async () => {
    const named: string[] = [];
    for (const c of commands) {
      const r = await cliInProcess(c, '--help');
      expect(r.code).toBe(0);
      const help = r.stdout;
      const examples = /^Examples:\n([\s\S]*?)(?:\n\n|(?![\s\S]))/m.exec(help)?.[1] ?? '';
      named.push(...(examples.match(/[^\s'"]+\.json\b/g) ?? []));
    }
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((f) => !existsSync(f))).toEqual([]);
  });
});

describe('a reader that stops reading', () => {
  it('ends the run quietly, exit 0 and nothing on stderr, as `rules --schema | head` expects (it once printed a stack trace)', async () => {
    const { spawn } = await import('node:child_process');
    // The schema is over a megabyte, far more than a pipe holds: the writes after the reader leaves fail with EPIPE.
    const child = spawn(process.execPath, ['dist/src/cli/main.js', 'rules', '--schema'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
