import { describe, expect, it } from 'vitest';
import { priceField } from '../src/pricing/price.js';
import { pricePresenter } from '../src/present/tables/price.js';

/**
 * The price table within 100 columns whatever the names: the real Trench Pilgrims catalogue names an
 * entry "Homunculus with Flail/Scourge (when this Weapon is used as an Off- Hand Weapon)", and the
 * table was 107 columns wide. A name is wrapped onto rows of its own, never cut.
 */
describe('the price table with long names', () => {
  const long = (body: string) => `${body} with a weapon whose name the catalogue spells out at great length, as real ones do`;
  const field = [
    { name: long('Plain'), side: {}, price: 20 },
    { name: long('Dicey'), side: { injuryDice: 2 }, price: 40 },
    { name: long('Armoured'), side: { armour: 'reinforced' }, price: 35 },
  ];

  it('keeps every line within 100 columns, and every name whole across its rows', async () => {
    const result = await priceField(field, { rounds: 2 });
    const table = pricePresenter({ field: 'three long names', system: 'trench-crusade', edition: 'core', leftOut: [] }).table(result);
    for (const line of table.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    const rows = table.split('\n');
    const start = rows.findIndex((l) => l.startsWith('-----')) + 1;
    // An entry's first row carries its numbers; its continuation rows are indented and carry none.
    const names: string[] = [];
    for (const row of rows.slice(start, start + 12)) {
      if (row.trim() === '') break;
      if (row.startsWith('  ')) names[names.length - 1] += ` ${row.trim()}`;
      else names.push(row.replace(/\s{2,}.*$/, ''));
    }
    expect(names.sort()).toEqual(field.map((e) => e.name).sort());
  });
});
