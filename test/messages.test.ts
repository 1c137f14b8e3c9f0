import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { UsageError } from '../src/errors.js';
import { parseScenario, readScenarioFile } from '../src/input/scenario.js';
import * as messages from '../src/messages.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 23: every refusal a user sees is built in src/messages.ts, in one shape, `WHERE: PROBLEM; REMEDY`,
 * on one line whatever the user gave. Tested as a set: that nothing in src/ builds one elsewhere, that
 * the builders keep the shape with hostile values, and that one real refusal of each family has it.
 * Fast on purpose: no simulation and no worker pool, only parsing and refusals.
 */

/** What a terminal acts on instead of showing (the characters src/terminal-safe.ts escapes): none may reach a message raw. */
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** One line, nothing a terminal would act on, WHERE first: the CLI prints it as it is. */
function expectRefusalLine(message: string, where: string): void {
  expect(message).not.toMatch(/[\n\r]/);
  expect(message).not.toMatch(RAW_CONTROL);
  expect(message.startsWith(`${where}: `), `${JSON.stringify(message)} should start with ${JSON.stringify(`${where}: `)}`).toBe(true);
}

/** A value holding a newline, a carriage return, an ESC sequence (clear screen) and a bidi override. */
const HOSTILE = 'a\nb\rc\u001b[2Jd\u202ee';
/** How showValue shows it: quoted, every one of those escaped. */
const HOSTILE_SHOWN = String.raw`"a\nb\rc\u001b[2Jd\u202ee"`;

/** A UsageError constructed, however the expression is spaced. */
const NEW_USAGE_ERROR = /new\s+UsageError\s*\(/;

/** Builds the scan's path to every .ts file under src/, with / between folders on every platform. */
function sourceFiles(): string[] {
  const root = fileURLToPath(new URL('../src', import.meta.url));
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ name: `src/${f.split(sep).join('/')}`, text: readFileSync(join(root, f), 'utf8') }))
    .filter((f) => NEW_USAGE_ERROR.test(f.text))
    .map((f) => f.name);
}

/**
 * Files of src/ allowed to build a UsageError themselves besides src/messages.ts, each with the reason.
 * None: a message built elsewhere (a system's combination check, a worker thread's refusal) is thrown
 * through refusal() too.
 */
const BUILDS_ITS_OWN: Readonly<Record<string, string>> = {};

describe('refusals are built in one place', () => {
  it('in src/, only src/messages.ts constructs a UsageError, and only once (in refusal)', () => {
    expect(sourceFiles().sort()).toEqual(['src/messages.ts', ...Object.keys(BUILDS_ITS_OWN)].sort());
    const own = readFileSync(fileURLToPath(new URL('../src/messages.ts', import.meta.url)), 'utf8');
    expect(own.split(NEW_USAGE_ERROR).length - 1).toBe(1);
  });

  it('every builder gives a UsageError, which the CLI prints as its one line with exit code 2', () => {
    const built = [
      messages.refusal('w', 'p'),
      messages.refusalAt('w: ', 'p'),
      messages.notAllowed('w', 1, 'a'),
      messages.notOneOf('w', 1, 'x', ['a']),
      messages.cannotCombine('w', 1, 'o', 'a'),
    ];
    for (const e of built) expect(e).toBeInstanceOf(UsageError);
  });
});

describe('the builders keep the shape whatever the value', () => {
  it('refusal: WHERE: PROBLEM; REMEDY, the remedy and the where left out when not given', () => {
    expect(messages.refusal('--out', '"x" is a file', 'name a folder').message).toBe('--out: "x" is a file; name a folder');
    expect(messages.refusal('--out', '"x" is a file').message).toBe('--out: "x" is a file');
    expect(messages.refusal('', 'name a report definition').message).toBe('name a report definition');
  });

  it('refusal: a where, problem or remedy holding line breaks, escape sequences and bidi controls stays one line, where first', () => {
    const message = messages.refusal(`--out ${HOSTILE}`, 'line\r\nbreak', 'retitle \u001b]0;pwned\u0007 the window').message;
    expectRefusalLine(message, String.raw`--out a\nb\rc\u001b[2Jd\u202ee`);
    expect(message).toBe(String.raw`--out a\nb\rc\u001b[2Jd\u202ee: line\r\nbreak; retitle \u001b]0;pwned\u0007 the window`);
  });

  it('refusalAt: a prefix `LABEL: ` gives the line refusal(LABEL, ...) gives, and no prefix gives the problem alone', () => {
    expect(messages.refusalAt('scenario file "a.json": ', 'not valid JSON (x)', 'r').message).toBe(messages.refusal('scenario file "a.json"', 'not valid JSON (x)', 'r').message);
    expect(messages.refusalAt('', 'a scenario must be a JSON object').message).toBe('a scenario must be a JSON object');
    expectRefusalLine(messages.refusalAt(`roster file ${JSON.stringify(HOSTILE)}: `, 'not a roster').message, 'roster file "a\\nb\\rc\\u001b[2Jd\\u202ee"');
  });

  it('notAllowed: WHERE: VALUE is not allowed; allowed: ALLOWED, the value shown escaped', () => {
    const message = messages.notAllowed('armour', HOSTILE, 'none, standard').message;
    expectRefusalLine(message, 'armour');
    expect(message).toBe(`armour: ${HOSTILE_SHOWN} is not allowed; allowed: none, standard`);
    expect(messages.notAllowed('system', null, 'trench-crusade').message).toBe('system: null is not allowed; allowed: trench-crusade');
  });

  it('notOneOf: a list of 10,000 names is shortened to its first five and a count, and its names are escaped', () => {
    const weapons = Array.from({ length: 10_000 }, (_, i) => `w${i}`);
    const message = messages.notOneOf('weapon', HOSTILE, 'a weapon of profiles file "p.json"', weapons).message;
    expectRefusalLine(message, 'weapon');
    expect(message).toBe(`weapon: ${HOSTILE_SHOWN} is not a weapon of profiles file "p.json"; allowed: w0, w1, w2, w3, w4 and 9,995 more`);
    expect(messages.notOneOf('kind', 'shoot', 'a kind', ['ok', '\u001b[31mred', 'two\nlines']).message).toBe(String.raw`kind: "shoot" is not a kind; allowed: ok, \u001b[31mred, two\nlines`);
  });

  it('cannotCombine: WHERE: VALUE cannot be combined with OTHER; allowed: ALLOWED', () => {
    expect(messages.cannotCombine('shield', true, 'armour "machine"', 'none, standard or reinforced armour').message).toBe(
      'shield: true cannot be combined with armour "machine"; allowed: none, standard or reinforced armour',
    );
    const message = messages.cannotCombine('shield', HOSTILE, `armour ${HOSTILE}`, 'none').message;
    expectRefusalLine(message, 'shield');
    expect(message).toBe(String.raw`shield: "a\nb\rc\u001b[2Jd\u202ee" cannot be combined with armour a\nb\rc\u001b[2Jd\u202ee; allowed: none`);
  });
});

describe('one real refusal of each family, through the library', () => {
  const dir = mkdtempSync(join(tmpdir(), 'injury-lab-messages-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** A path as showValue quotes it (the temporary folder's own characters escaped as JSON would). */
  const shownPath = (name: string) => `"${JSON.stringify(dir).slice(1, -1)}/${name}"`;

  it('a field value out of range names the field, shows the value and what is allowed; a file it came from comes first', () => {
    expect(refusal(() => parseScenario({ injuryDice: 11 }))).toBe('injuryDice: 11 is not allowed; allowed: a whole number from -10 to 10');
    expect(refusal(() => parseScenario({ injuryDice: 11 }, 'scenario file "my.json"'))).toBe(
      'scenario file "my.json": injuryDice: 11 is not allowed; allowed: a whole number from -10 to 10',
    );
    const hostile = refusal(() => parseScenario({ armour: HOSTILE }));
    expectRefusalLine(hostile, 'armour');
    expect(hostile).toBe(`armour: ${HOSTILE_SHOWN} is not allowed; allowed: none, standard, reinforced, machine`);
  });

  it('an unknown field names it and lists the fields', () => {
    const message = refusal(() => parseScenario({ kind: 'injury', armor: 'standard' }));
    expectRefusalLine(message, 'armor');
    expect(message).toMatch(/^armor: not a field of trench-crusade; allowed: .*\barmour\b/);
  });

  it('an unknown edition and an unknown kind show the name given and the known ones', () => {
    expect(refusal(() => parseScenario({ edition: 'beta' }))).toBe('edition: "beta" is not an edition of trench-crusade; allowed: playtest, comprehensive, core');
    const kind = refusal(() => parseScenario({ kind: 'shoot' }));
    expectRefusalLine(kind, 'kind');
    // The list grows with the system's kinds: its start is what this checks.
    expect(kind).toMatch(/^kind: "shoot" is not a kind of trench-crusade; allowed: injury, attack, fall\b[^;]*$/);
  });

  it('a combination the rules forbid names the field, the value, the other and what is allowed', () => {
    const message = refusal(() => parseScenario({ kind: 'injury', armour: 'machine', shield: true }));
    expectRefusalLine(message, 'shield');
    expect(message).toMatch(/^shield: true cannot be combined with armour "machine" in the core edition \(.+\); allowed: shield with none, standard or reinforced armour$/);
  });

  it('a missing scenario file is named, escaped when its name holds controls', () => {
    expect(refusal(() => readScenarioFile('test/fixtures/nope.json'))).toBe('scenario file "test/fixtures/nope.json": no such file');
    const message = refusal(() => readScenarioFile(join(dir, 'no\nsuch\u001b[2J.json')));
    expectRefusalLine(message, `scenario file ${shownPath(String.raw`no\nsuch\u001b[2J.json`)}`);
    expect(message.endsWith(': no such file')).toBe(true);
  });

  it("a malformed JSON file is named with the parser's reason and where, never quoting the file's text", () => {
    const malformed = refusal(() => readScenarioFile('test/fixtures/malformed.json'));
    expectRefusalLine(malformed, 'scenario file "test/fixtures/malformed.json"');
    expect(malformed).toMatch(/^scenario file "test\/fixtures\/malformed\.json": not valid JSON \(.+\)$/);
    // JSON.parse quotes the text it stopped at, raw (an ESC, a carriage return, a bidi override): said by place instead.
    const path = join(dir, 'controls.json');
    writeFileSync(path, '{"a": \u001b[2J\r\n\u202e}');
    const controls = refusal(() => readScenarioFile(path));
    expectRefusalLine(controls, `scenario file ${shownPath('controls.json')}`);
    expect(controls.endsWith(': not valid JSON (an unexpected character at line 1, column 7)')).toBe(true);
  });

  it('an unknown profile name names the field and the file, shows the name, a guess and the names the file has', () => {
    expect(refusal(() => parseScenario({ kind: 'attack', profiles: 'examples/profiles.json', weapon: 'Great Hamer' }))).toBe(
      'weapon: "Great Hamer" is not a weapon of profiles file "examples/profiles.json" (did you mean "Great Hammer"?); allowed: "Trench Club", "Great Hammer", "Executioner\'s Axe", "Bolt-action Rifle"',
    );
  });
});

describe('one real refusal of each flag family, through the CLI', () => {
  /** The CLI's refusal: exit code 2, nothing on stdout, one line on stderr; its text after "injury-lab: ". */
  async function refusedBy(...args: string[]): Promise<string> {
    const r = await cliInProcess(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^injury-lab: [^\n]*\n$/);
    return r.stderr.slice('injury-lab: '.length, -1);
  }

  it('a name not among the known ones (--format) and a bad number (--trials) name the flag and show the value', async () => {
    expect(await refusedBy('exact', '--format', 'xml')).toBe('--format: "xml" is not a format; allowed: table, json, csv');
    expect(await refusedBy('simulate', '--trials', 'lots')).toBe('--trials: "lots" is not allowed; allowed: a whole number from 1 to 1e12 (such as 1000000 or 1e6)');
  });

  it('a field flag with a hostile value is one line, the value escaped', async () => {
    const message = await refusedBy('exact', '--armour', HOSTILE);
    expectRefusalLine(message, 'armour');
    expect(message).toBe(`armour: ${HOSTILE_SHOWN} is not allowed; allowed: none, standard, reinforced, machine`);
  });

  it('a bad --out folder (a file, its name holding a newline) names the flag and shows the path escaped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-messages-out-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const definition = join(dir, 'tiny.json');
    writeFileSync(definition, JSON.stringify({ title: 'Tiny', analyses: [{ id: 'armour', title: 'Armour', scenario: { kind: 'injury' }, vary: ['armour=none,standard'] }] }));
    const notAFolder = join(dir, 'not\na folder');
    writeFileSync(notAFolder, 'mine');
    const message = await refusedBy('report', definition, '--out', notAFolder);
    expectRefusalLine(message, '--out');
    expect(message).toBe(
      `--out: "${JSON.stringify(dir).slice(1, -1)}/not\\na folder" is a file, not a folder; a report is a folder of files, and injury-lab never replaces a file`,
    );
    expect(readFileSync(notAFolder, 'utf8')).toBe('mine');
  });
});
