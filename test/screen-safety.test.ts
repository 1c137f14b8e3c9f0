import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedNames } from '../src/suggest.js';
import { listAllowed, showValue } from '../src/errors.js';
import { renderTable, terminalSafe } from '../src/text.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/** Issue 21, screen safety: nothing the user wrote reaches the terminal as a control character. */

/** What a terminal would act on: C0 but the line feed between lines, DEL, C1, bidi controls, U+2028/9. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** ESC [2J clears the screen, U+202E reverses what follows, U+009B is ESC [ in one character, U+2028 breaks a line. */
const EVIL = 'Hammer\u001b[2J\u202eenil\u009b\u007f\u2028\ttab\nline';
const EVIL_SHOWN = 'Hammer\\u001b[2J\\u202eenil\\u009b\\u007f\\u2028\\ttab\\nline';

function tempFile(name: string, content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'injury-lab-screen-')), name);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('terminalSafe', () => {
  it('writes every control, bidi and separator character as its visible escape', () => {
    expect(terminalSafe(EVIL)).toBe(EVIL_SHOWN);
    const all = [0x00, 0x1f, 0x7f, 0x80, 0x9f, 0x61c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202e, 0x2066, 0x2069].map((c) => String.fromCharCode(c));
    for (const c of all) expect(terminalSafe(`a${c}b`), c.charCodeAt(0).toString(16)).toMatch(/^a\\(u[0-9a-f]{4}|[ntr])b$/);
  });

  it('leaves printable text alone, accents, other scripts and emoji included', () => {
    const text = 'Exécuteur’s Axe – 大槌 🔨 \\u001b (typed as text)';
    expect(terminalSafe(text)).toBe(text);
  });
});

describe('messages', () => {
  it('showValue quotes a string as JSON, escaping what JSON leaves raw, and it still reads back as the value', () => {
    const shown = showValue(EVIL);
    expect(shown).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(shown)).toBe(EVIL);
    expect(showValue({ [EVIL]: 1 })).not.toMatch(RAW_CONTROL);
  });

  it('listAllowed escapes each value, and cuts a list only a file could make so long', () => {
    expect(listAllowed(['a\u202eb', 'c'])).toBe('a\\u202eb, c');
    const many = Array.from({ length: 40_000 }, (_, i) => `w${i}`);
    expect(listAllowed(many)).toBe('w0, w1, w2, w3, w4 and 39,995 more');
    // A system's fields (52) are listed whole.
    expect(listAllowed(many.slice(0, 52)).split(', ')).toHaveLength(52);
  });
});

describe('renderTable', () => {
  it('escapes cells and headers, and aligns columns on the escaped text', () => {
    const table = renderTable(['name', 'cost'], [[EVIL, '12'], ['Club', '2']], [false, true]);
    expect(table).not.toMatch(RAW_CONTROL);
    const lines = table.split('\n');
    expect(lines).toHaveLength(4);
    // Every line ends at the right edge of the cost column.
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[2]).toBe(`${EVIL_SHOWN}    12`);
  });
});

describe('the did-you-mean over a file of many names', () => {
  const names = Array.from({ length: 40_000 }, (_, i) => `Weapon ${String(i).padStart(5, '0')}`);

  it('offers the nearest five, the "did you mean" first, then how many more and the command that lists them', () => {
    // Only "Weapon 12345" is one edit (a swap) away; two edits away are the 45 that differ from it in one
    // digit, of which these four come first in the file.
    expect(allowedNames('Waepon 12345', names, 'injury-lab profiles "big.json"')).toBe(
      '"Weapon 12345", "Weapon 02345", "Weapon 10345", "Weapon 11345", "Weapon 12045" and 39,995 more (`injury-lab profiles "big.json"` lists all 40,000)',
    );
  });

  it('lists every name of a short file', () => {
    expect(allowedNames('Clb', ['Club', 'Axe'], 'injury-lab profiles "p.json"')).toBe('"Club", "Axe"');
  });
});

describe('from the command line', () => {
  const profiles = tempFile('evil.json', {
    system: 'trench-crusade',
    models: { 'Shield Bearer': { armour: 'standard', shield: true, cost: 50 } },
    weapons: { [EVIL]: { attackType: 'melee', injuryDice: 1, cost: 12, keywords: [] }, Club: { attackType: 'melee', cost: 2 } },
  });

  it('exact prints a weapon named with controls escaped, in its heading', async () => {
    const r = await cliInProcess('exact', '--kind', 'attack', '--profiles', profiles, '--weapon', EVIL, '--target', 'Shield Bearer');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout.split('\n')[0]).toBe(`trench-crusade (core edition), attack: ${EVIL_SHOWN} against Shield Bearer`);
  });

  it('profiles lists it escaped, its table still aligned', async () => {
    const r = await cliInProcess('profiles', profiles);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    const rows = r.stdout.split('\n').filter((l) => l.startsWith(EVIL_SHOWN) || l.startsWith('Club '));
    expect(rows).toHaveLength(2);
    // The cost column is right-aligned: both costs end at the same column.
    expect(rows[0]!.indexOf('12') + 2).toBe(rows[1]!.indexOf(' 2 ') + 2);
  });

  it('a misspelt name with controls is refused in one escaped line, nothing on stdout', async () => {
    const r = await cliInProcess('exact', '--kind', 'attack', '--profiles', profiles, '--weapon', `${EVIL}!`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stderr.endsWith('\n')).toBe(true);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`weapon: "${EVIL_SHOWN}!" is not a weapon`);
    expect(r.stderr).toContain(`did you mean "${EVIL_SHOWN}"?`);
  });

  it('an unknown flag with controls in its name is refused in one escaped line', async () => {
    // yargs names it as typed (up to a newline, where it stops reading).
    const r = await cliInProcess('exact', '--kind', 'attack', '--we\u001b[2Japon\u202ex', '1');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('we\\u001b[2Japon\\u202ex');
  });

  it('a misspelt name among 40,000 is refused in one short line offering at most five', async () => {
    const weapons = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`w${String(i).padStart(5, '0')}`, {}]));
    const big = tempFile('big.json', { system: 'trench-crusade', weapons });
    const r = await cliInProcess('exact', '--kind', 'attack', '--profiles', big, '--weapon', 'w1234x');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBeLessThan(500);
    // The refusal names the misspelt name, then offers names: in its "did you mean" and its "allowed".
    const [, guess = '', allowed = ''] = /\(did you mean (.*?)\?\); allowed: (.*)$/.exec(lines[0]!) ?? [];
    const quoted = (text: string) => text.match(/"w\d{5}"/g) ?? [];
    expect(quoted(guess).length).toBeGreaterThan(0);
    expect(quoted(guess).length).toBeLessThanOrEqual(5);
    expect(quoted(allowed).length).toBeLessThanOrEqual(5);
    expect(allowed).toMatch(/39,99\d more/);
  });
});
