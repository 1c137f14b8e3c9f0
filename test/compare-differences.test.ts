import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closePool } from '../src/pool/simulate.js';
import { parseScenario } from '../src/input/scenario.js';
import { scenarioDifferences } from '../src/analysis/compare-core.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 51 item 3: compare says, before its table, every field in which the compared scenarios differ,
 * so +1 injury dice given in one file only is not read as a rule's doing; a variant is named by its name.
 */

afterAll(() => closePool());

const dir = mkdtempSync(join(tmpdir(), 'injury-lab-differ-'));
const variant = resolve('examples/variants/out-of-action-on-10.json');
const plusOne = join(dir, 'plus-one.json');
writeFileSync(plusOne, JSON.stringify({ kind: 'attack', injuryDice: 1 }));

describe('compare says where the scenarios differ', () => {
  it("the issue's case: injury dice given in the first scenario only is said beside the rules asked about", async () => {
    const r = await cliInProcess('compare', plusOne, `rules=${variant}`, '--kind', 'attack');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const differ = lines.findIndex((l) => l.startsWith('differ in: '));
    // Before the table, after the scenarios are named.
    expect(differ).toBeGreaterThan(0);
    expect(differ).toBeLessThan(lines.findIndex((l) => l.startsWith('outcome ')));
    expect(lines[differ]).toMatch(/^differ in: injuryDice \((#1|plus-one): 1, (#2|Out of Action on 10\+): 0\); rules \((#1|plus-one): edition rules, (#2|Out of Action on 10\+): Out of Action on 10\+\)$/);
  });

  it('JSON holds the differences; a variant given inline is named by its name, not its path', async () => {
    const r = await cliInProcess('compare', plusOne, `rules=${variant}`, '--kind', 'attack', '--format', 'json');
    const json = JSON.parse(r.stdout) as { differences: { field: string; values: string[] }[]; scenarios: { name: string }[] };
    expect(json.differences).toEqual([
      { field: 'injuryDice', values: ['1', '0'] },
      { field: 'rules', values: ['edition rules', 'Out of Action on 10+'] },
    ]);
    expect(json.scenarios.map((s) => s.name)).toEqual(['plus-one', 'Out of Action on 10+']);
    const withField = await cliInProcess('compare', 'armour=none', `rules=${variant},armour=none`, '--kind', 'attack', '--format', 'json');
    expect((JSON.parse(withField.stdout) as { scenarios: { name: string }[] }).scenarios[1]!.name).toBe('Out of Action on 10+, armour=none');
  });

  it('a duel side\'s field, and two scenarios alike in all but name', async () => {
    const duel = await cliInProcess('compare', '--kind', 'duel', 'a.armour=standard', 'a.armour=reinforced', '--rounds', '1');
    // A duel's table is wide: the scenarios are named by number there, said in the lines above.
    expect(duel.stdout).toMatch(/^differ in: a\.armour \((#1|a\.armour=standard): standard, (#2|a\.armour=reinforced): reinforced\)$/m);
    const same = await cliInProcess('compare', 'armour=none', 'armour=none,shield=false', '--kind', 'attack');
    expect(same.stdout).toContain('differ in: nothing (the same fields and rules)\n');
  });
});

describe("compare's chart names what every scenario shares", () => {
  it('two editions: the subtitle names neither as the edition; one edition: it names it', async () => {
    const subtitle = async (file: string, ...args: string[]) => {
      expect((await cliInProcess('compare', ...args, '--chart', join(dir, file))).code).toBe(0);
      return (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { title: { subtitle: string[] } }).title.subtitle[0];
    };
    expect(await subtitle('editions.vl.json', 'edition=playtest', 'edition=core', '--kind', 'injury')).toBe('trench-crusade, injury; edition=playtest against edition=core');
    expect(await subtitle('armour.vl.json', 'armour=none', 'armour=standard', '--kind', 'attack', '--injury-dice', '1')).toBe(
      'trench-crusade (core edition), attack: injuryDice 1; armour=none against armour=standard',
    );
  });
});

describe('scenarioDifferences', () => {
  it('an edition lists the edition and every default it changes; nothing else', () => {
    const core = parseScenario({ kind: 'attack' });
    const playtest = parseScenario({ kind: 'attack', edition: 'playtest' });
    const diffs = scenarioDifferences([core, playtest]);
    expect(diffs[0]).toEqual({ field: 'edition', values: ['core', 'playtest'] });
    const coreRecord = core as unknown as Record<string, unknown>;
    const playtestRecord = playtest as unknown as Record<string, unknown>;
    // Each listed field really differs, and each field that differs (the rule table aside) is listed.
    const differing = Object.keys(coreRecord).filter((k) => k !== 'rules' && JSON.stringify(coreRecord[k]) !== JSON.stringify(playtestRecord[k]));
    expect(diffs.map((d) => d.field).sort()).toEqual(differing.sort());
    expect(scenarioDifferences([core, parseScenario({ kind: 'attack' })])).toEqual([]);
  });
});
