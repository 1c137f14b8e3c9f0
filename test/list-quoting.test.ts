import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/cli-in-process.js';
import { parseQuotedList, quoteListValue } from '../src/quoted-list.js';

/**
 * Issue 48: names hold commas ("Al-Qahhar, the Crippled"; "Great Hammer/Maul/Club, Mace"), so a list
 * given on the command line takes a value quoted as a spreadsheet quotes a cell, "" for a quote inside
 * it. One reader (src/quoted-list.ts) for --vary's values and price's --models, --weapons and --where.
 * The roster is invented: our names, in the shape NewRecruit writes a .ros.
 */

const weapon = (name: string, range: string) =>
  `<selection name="${name}" number="1" type="upgrade"><profiles><profile name="${name}" typeName="Weapon" hidden="false"><characteristics><characteristic name="Range">${range}</characteristic><characteristic name="Keywords">-</characteristic></characteristics></profile></profiles><costs><cost name="Ducats" value="5"/></costs></selection>`;

const model = (name: string, armour: number, cost: number) =>
  `<selection name="${name}" number="1" type="model"><profiles><profile name="${name}" typeName="Unit" hidden="false"><characteristics><characteristic name="Ranged">+0 Dice</characteristic><characteristic name="Melee">+0 Dice</characteristic><characteristic name="Armour">${armour === 0 ? '0' : `-${armour}`}</characteristic></characteristics></profile></profiles><selections>${weapon('Great Hammer/Maul/Club, Mace', 'Melee')}${weapon('Knife', 'Melee')}</selections><costs><cost name="Ducats" value="${cost}"/></costs></selection>`;

const ROSTER = (() => {
  const path = join(mkdtempSync(join(tmpdir(), 'injury-lab-quoting-')), 'quoting.ros');
  writeFileSync(
    path,
    `<?xml version="1.0" encoding="UTF-8"?><roster name="Invented" gameSystemName="Trench Crusade" xmlns="http://www.battlescribe.net/schema/rosterSchema"><costs><cost name="Ducats" value="0"/></costs><forces><force name="Warband"><selections>${
      model('Al-Qahhar, the Crippled', 1, 60) + model('Yeoman', 0, 30) + model('Old &quot;Iron&quot; Jack', 2, 45)
    }</selections></force></forces></roster>`,
  );
  return path;
})();

interface SweepJson {
  cells: { labels: string[] }[];
}

async function sweepLabels(...vary: string[]): Promise<string[][]> {
  const r = await cliInProcess('sweep', '--kind', 'attack', '--roster', ROSTER, '--weapon', 'Yeoman with Knife', ...vary.flatMap((v) => ['--vary', v]), '--format', 'json');
  expect([r.code, r.stderr]).toEqual([0, '']);
  return (JSON.parse(r.stdout) as SweepJson).cells.map((c) => c.labels);
}

async function refusedInOneLine(args: readonly string[], ...parts: string[]): Promise<void> {
  const r = await cliInProcess(...args);
  expect([r.code, r.stdout]).toEqual([2, '']);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  for (const part of parts) expect(r.stderr).toContain(part);
}

describe('the one reader of a list', () => {
  it('splits at the separator, trims, and keeps a quoted value whole', () => {
    expect(parseQuotedList('a, "Al-Qahhar, the Crippled" ,b', '--x')).toEqual(['a', 'Al-Qahhar, the Crippled', 'b']);
    expect(parseQuotedList('"Old ""Iron"" Jack",Yeoman', '--x')).toEqual(['Old "Iron" Jack', 'Yeoman']);
    expect(parseQuotedList('IGNORE ARMOUR;"A; B"', '--x', ';')).toEqual(['IGNORE ARMOUR', 'A; B']);
  });

  it('reads a list that never quotes as it always read: a quote inside a value is kept, empty values are returned', () => {
    expect(parseQuotedList('5" barrel,x', '--x')).toEqual(['5" barrel', 'x']);
    expect(parseQuotedList('a,,b', '--x')).toEqual(['a', '', 'b']);
    expect(parseQuotedList('a,', '--x')).toEqual(['a', '']);
    expect(parseQuotedList('', '--x')).toEqual([]);
  });

  it('refuses a quote never closed, and text after a closing quote, naming the flag, the value and what is allowed', () => {
    expect(() => parseQuotedList('"Al-Qahhar, the Crippled,Yeoman', '--models')).toThrow(
      '--models: "\\"Al-Qahhar, the Crippled,Yeoman" has a quote that is never closed; allowed: values separated by ","; a value holding "," goes in double quotes',
    );
    expect(() => parseQuotedList('"Al"x,y', '--models')).toThrow('--models: "\\"Al\\"x,y" has text after a closing quote');
  });

  it('writes back a value so that it reads back the same', () => {
    for (const value of ['plain', 'Al-Qahhar, the Crippled', 'Old "Iron" Jack', '"quoted"', ' spaced ']) {
      expect(parseQuotedList(['x', quoteListValue(value)].join(','), '--x')[1]).toBe(value);
    }
  });
});

describe('--vary takes quoted names', () => {
  it('a target whose name holds a comma, and one holding quotes', async () => {
    expect(await sweepLabels('target="Al-Qahhar, the Crippled",Yeoman,"Old ""Iron"" Jack"')).toEqual([['Al-Qahhar, the Crippled (70)'], ['Yeoman (40)'], ['Old "Iron" Jack (55)']]);
  });

  it('a weapon whose name holds a comma and slashes', async () => {
    const r = await cliInProcess('sweep', '--kind', 'attack', '--roster', ROSTER, '--target', 'Yeoman', '--vary', 'weapon="Yeoman with Great Hammer/Maul/Club, Mace",Yeoman with Knife', '--format', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect((JSON.parse(r.stdout) as SweepJson).cells.map((c) => c.labels)).toEqual([['Yeoman with Great Hammer/Maul/Club, Mace (40)'], ['Yeoman with Knife (40)']]);
  });

  it('fields varied together: a part is quoted within its value', async () => {
    expect(await sweepLabels('target,armour="""Al-Qahhar, the Crippled""/none",Yeoman/standard')).toEqual([['Al-Qahhar, the Crippled + none'], ['Yeoman + standard']]);
  });

  it('an unclosed quote is refused in one line, exit 2', async () => {
    await refusedInOneLine(['sweep', '--kind', 'attack', '--roster', ROSTER, '--vary', 'target="Al-Qahhar, the Crippled,Yeoman'], '--vary target: ', 'has a quote that is never closed', 'double quotes');
    await refusedInOneLine(['solve', '--kind', 'attack', '--roster', ROSTER, '--vary', 'target="Al-Qahhar', '--where', 'down<=0.5'], '--vary target: ', 'never closed');
  });

  it('--help says how to quote', async () => {
    for (const command of ['sweep', 'solve']) {
      const r = await cliInProcess(command, '--help');
      expect(r.stdout.replace(/\s+/g, ' ')).toContain('a value holding a comma goes in double quotes, as a spreadsheet writes it');
    }
  });
});

describe("price's lists take quoted names", () => {
  it('--models and --weapons (a roster\'s weapons are its models\' "MODEL with WEAPON")', async () => {
    const hammers = '"Al-Qahhar, the Crippled with Great Hammer/Maul/Club, Mace","Yeoman with Great Hammer/Maul/Club, Mace","Old ""Iron"" Jack with Great Hammer/Maul/Club, Mace"';
    const r = await cliInProcess('price', '--roster', ROSTER, '--models', '"Al-Qahhar, the Crippled",Yeoman', '--weapons', hammers, '--prior', '1', '--format', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const names = (JSON.parse(r.stdout) as { entries: { name: string }[] }).entries.map((e) => e.name).sort();
    expect(names).toEqual(['Al-Qahhar, the Crippled with Great Hammer/Maul/Club, Mace', 'Yeoman with Great Hammer/Maul/Club, Mace']);
  });

  it('a list flag given twice is two lists', async () => {
    const r = await cliInProcess('price', '--roster', ROSTER, '--models', '"Al-Qahhar, the Crippled"', '--models', 'Yeoman', '--weapons', '"Al-Qahhar, the Crippled with Knife"', '--weapons', 'Yeoman with Knife', '--prior', '1', '--format', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect((JSON.parse(r.stdout) as { entries: unknown[] }).entries).toHaveLength(2);
  });

  it('an unclosed quote is refused in one line, exit 2', async () => {
    await refusedInOneLine(['price', '--roster', ROSTER, '--models', '"Al-Qahhar, the Crippled'], '--models: ', 'never closed');
    await refusedInOneLine(['price', '--roster', ROSTER, '--weapons', 'Knife', '--weapons', '"Knife'], '--weapons: ', 'never closed');
  });

  it('--help says how to quote', async () => {
    const r = await cliInProcess('price', '--help');
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('separated by commas (a value holding a comma goes in double quotes');
  });
});
