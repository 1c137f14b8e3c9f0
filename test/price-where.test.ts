import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWhere } from '../src/pricing/where.js';
import { duelSideFields } from '../src/rules/trench-crusade/duel/sides.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * `price --where` (issue 40): the field narrowed by what its entries are, read as their duels read them.
 * The field below is written so that each condition picks a set known by construction.
 *
 * The runs are in this process (`cliInProcess`: the same src/cli/main.ts, the same output and exit code);
 * one refusal runs end to end in a CLI process of its own.
 */
const dir = mkdtempSync(join(tmpdir(), 'price-where-'));
const file = join(dir, 'field.json');
writeFileSync(
  file,
  JSON.stringify({
    system: 'trench-crusade',
    models: {
      Militia: { armour: 'none', cost: 20 },
      Veteran: { armour: 'standard', cost: 40, characteristicDice: { melee: 1 } },
      Brute: { armour: 'machine', tough: true, cost: 100 },
      Zealot: { armour: 'none', keywords: ['FEAR'], cost: 30 },
    },
    weapons: { Club: { attackType: 'melee', cost: 1 }, Pick: { attackType: 'melee', keywords: ['IGNORE ARMOUR'], cost: 4 } },
  }),
);

async function names(...where: string[]): Promise<string[]> {
  const r = await cliInProcess('price', '--profiles', file, ...where.flatMap((w) => ['--where', w]), '--format', 'json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { entries: { name: string }[] }).entries.map((e) => e.name).sort();
}

describe('price --where', () => {
  it('narrows by price, by a resolved side field, and by keyword; every condition must hold', async () => {
    // Prices are model + weapon: Militia 21/24, Zealot 31/34, Veteran 41/44, Brute 101/104.
    expect(await names('price<35')).toEqual(['Militia with Club', 'Militia with Pick', 'Zealot with Club', 'Zealot with Pick']);
    // tough comes from the Brute's profile; armour none from the Militia's and the Zealot's.
    expect(await names('armour!=none', 'price<=101')).toEqual(['Brute with Club', 'Veteran with Club', 'Veteran with Pick']);
    // The Veteran's +1 melee dice are its own, not its weapon's: the side reads them (docs/rules.md D6).
    expect(await names('attackDice>=1')).toEqual(['Veteran with Club', 'Veteran with Pick']);
    // A keyword of the weapon, or of the model (the Zealot's FEAR keeps it out).
    expect(await names('keyword=IGNORE ARMOUR', 'price<40')).toEqual(['Militia with Pick', 'Zealot with Pick']);
    expect(await names('keyword!=FEAR,armour!=machine')).toEqual(['Militia with Club', 'Militia with Pick', 'Veteran with Club', 'Veteran with Pick']);
  });

  it('the field says what narrowed it', async () => {
    const r = await cliInProcess('price', '--profiles', file, '--where', 'price<35');
    expect(r.stdout).toContain('(where price<35)');
  });

  it('refuses in one line, before any duel: a malformed condition, an unknown key, a value the field does not allow, an order on a choice, no entry left', async () => {
    const cases: [string, RegExp][] = [
      ['price', /--where: "price" is not a condition; allowed: KEY OP VALUE/],
      ['price<=cheap', /--where: "price<=cheap": "cheap" is not a price/],
      ['colour=red', /--where: "colour" is not a key of a condition; allowed: price, keyword, .*armour/],
      ['armour=steel', /--where: "armour=steel": "steel" is not allowed for armour; allowed: none, standard, reinforced, machine/],
      ['armour>standard', /--where: "armour>standard": armour is a choice, compared with =, != only/],
      ['keyword<FEAR', /--where: "keyword<FEAR": keyword is a name, compared with =, != only/],
      ['price>1000', /--where: no entry of the field's 8 meets "price>1000"/],
    ];
    for (const [where, message] of cases) {
      // End to end in a CLI process once; the others differ only in the words.
      const args = ['price', '--profiles', file, '--where', where];
      const r = where === cases[0]![0] ? cli(...args) : await cliInProcess(...args);
      expect(r.code, where).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n'), where).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
  });

  it('an unpriced entry meets no price comparison but !=', () => {
    const at = '--where';
    const entry = { keywords: [], side: {} };
    expect(parseWhere('price<100', duelSideFields, at).meets(entry)).toBe(false);
    expect(parseWhere('price>=0', duelSideFields, at).meets(entry)).toBe(false);
    expect(parseWhere('price!=10', duelSideFields, at).meets(entry)).toBe(true);
  });
});
