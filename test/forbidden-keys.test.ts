import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeOpened, openedFiles } from '../src/input/opened-files.js';
import { parseScenarioWith } from '../src/input/scenario-core.js';
import { forbiddenKeyIn } from '../src/json-text.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 51's regression: `{"__proto__": {"armour": "machine"}}` was answered as Machine Armour. JSON.parse
 * keeps "__proto__" as an own key, and the first copy by assignment made it the copy's prototype, whose
 * fields were then read as given. Every input path refuses the keys that reach a prototype (__proto__,
 * constructor, prototype), in one line naming the file or flag and where the key is: a test a path.
 */
const dir = mkdtempSync(join(tmpdir(), 'injury-lab-forbidden-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function refused(args: string[], line: RegExp): Promise<void> {
  const r = await cliInProcess(...args);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^injury-lab: [^\n]*\n$/);
  expect(r.stderr).toMatch(line);
  expect(r.code).toBe(2);
}

const REMEDY = 'allowed: any key but "__proto__", "constructor", "prototype"';

describe('keys that reach a prototype are refused on every input path', () => {
  it('finds one at any depth, as JSON.parse leaves it (an own key), and nothing in plain JSON', () => {
    expect(forbiddenKeyIn(JSON.parse('{"__proto__": {"armour": "machine"}}'))).toBe('__proto__');
    expect(forbiddenKeyIn(JSON.parse('{"analyses": [{"scenario": {"a": {"constructor": 1}}}]}'))).toBe('analyses.0.scenario.a.constructor');
    expect(forbiddenKeyIn(JSON.parse('{"a": {"prototype": null}}'))).toBe('a.prototype');
    expect(forbiddenKeyIn(JSON.parse('{"armour": "machine", "a": [1, {"b": "__proto__"}]}'))).toBeUndefined();
  });

  it('a scenario file, at its top and in a side', async () => {
    const top = file('top.json', '{"__proto__": {"armour": "machine"}}');
    await refused(['exact', top], new RegExp(`^injury-lab: scenario file "[^"]*top\\.json": key "__proto__" is not allowed: it would reach an object's prototype; ${REMEDY}\\n$`));
    const side = file('side.json', '{"kind": "duel", "a": {"__proto__": {"armour": "machine"}}, "b": {}}');
    await refused(['exact', side], /key "__proto__" \(at a\.__proto__\) is not allowed/);
  });

  it('a side flag, an inline scenario of compare, and a field varied', async () => {
    await refused(['exact', '--kind', 'duel', '--a', '__proto__=x', '--b', ''], new RegExp(`^injury-lab: --a: key "__proto__" is not allowed: it would reach an object's prototype; ${REMEDY}\\n$`));
    await refused(['compare', 'constructor=1', 'armour=machine'], /^injury-lab: scenario 1: key "constructor" is not allowed/);
    await refused(['sweep', '--vary', '__proto__=1,2'], /^injury-lab: vary: "__proto__" is not a field of trench-crusade kind "injury"/);
  });

  it('a profiles file, a variant file, a battle file, a report definition and a roster in JSON', async () => {
    const profiles = file('profiles.json', '{"system": "trench-crusade", "models": {"M": {"__proto__": {"tough": true}}}, "weapons": {}}');
    await refused(['exact', '--profiles', profiles, '--target', 'M'], /profiles file "[^"]*profiles\.json": key "__proto__" \(at models\.M\.__proto__\) is not allowed/);
    const variant = file('variant.json', '{"name": "v", "system": "trench-crusade", "edition": "core", "rules": {"prototype": {}}}');
    await refused(['exact', '--rules', variant], /variant\.json[^\n]*key "prototype" \(at rules\.prototype\) is not allowed/);
    const battle = file('battle.json', '{"constructor": {"turns": 1}}');
    await refused(['battle', battle], /battle file "[^"]*battle\.json": key "constructor" is not allowed/);
    const report = file('report.json', '{"title": "t", "analyses": [{"scenario": {"__proto__": {"armour": "machine"}}, "vary": ["injuryDice=0,1"]}]}');
    await refused(['report', report, '--check-only'], /report\.json: key "__proto__" \(at analyses\.0\.scenario\.__proto__\) is not allowed/);
    const roster = file('roster.json', '{"roster": {"__proto__": {"name": "x"}}}');
    await refused(['profiles', '--roster', roster], /roster\.json[^\n]*key "__proto__" \(at roster\.__proto__\) is not allowed/);
  });

  it("a file opened in the page: listed with its problem, and never read as a scenario's", () => {
    const shelf = new Map([['sneaky.json', new TextEncoder().encode('{"system": "trench-crusade", "__proto__": {"weapons": {}}, "models": {}}')]]);
    const listed = describeOpened(shelf);
    expect(listed.map((f) => [f.name, f.problem])).toEqual([['sneaky.json', 'key "__proto__" is not allowed: it would reach an object\'s prototype']]);
    expect(() => parseScenarioWith({ kind: 'attack', profiles: 'sneaky.json' }, openedFiles(shelf))).toThrow(/key "__proto__" is not allowed/);
  });
});
