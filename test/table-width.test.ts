import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 38 item 6: tables fit a terminal's 100 columns. A sweep's means are headed by their JSON keys and
 * said in words under the table (their labels ran to 80 characters a column: a sequence's table was 244
 * wide), and split into a table of their own when the whole would still be wider; compare names its
 * scenarios by number in the headers when their names would make it wider.
 */

const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));

describe('tables no wider than 100 columns', () => {
  it("a sequence's sweep: outcomes, then means, each table within 100 columns, every mean said in words and equal to the JSON's", async () => {
    const args = ['sweep', '--kind', 'sequence', '--vary', 'armour=none,machine'];
    const table = await cliInProcess(...args);
    expect(table.code).toBe(0);
    expect(widest(table.stdout)).toBeLessThanOrEqual(100);
    const json = JSON.parse((await cliInProcess(...args, '--format', 'json')).stdout) as { cells: { labels: string[]; means: { jsonKey: string; label: string; value: number }[] }[] };
    const lines = table.stdout.split('\n');
    for (const m of json.cells[0]!.means) expect(lines).toContain(`${m.jsonKey}: ${m.label}`);
    // The means' table: one row per cell, its values the JSON's to four decimals.
    const header = lines.find((l) => l.startsWith('armour') && l.includes('expectedAttacksMade'))!;
    const keys = header.trim().split(/\s{2,}/).slice(1);
    for (const cell of json.cells) {
      const row = lines.filter((l) => l.startsWith(cell.labels[0]!)).find((l) => l.trim().split(/\s{2,}/).length === keys.length + 1)!;
      const values = row.trim().split(/\s{2,}/).slice(1);
      expect(values).toEqual(keys.map((k) => cell.means.find((m) => m.jsonKey === k)!.value.toFixed(4)));
    }
  });

  it('compare names its scenarios by number in the headers when their names would make the table wider, and by name when they fit', async () => {
    const wide = await cliInProcess('compare', 'examples/reinforced.json', 'examples/standard.json');
    const table = wide.stdout.split('\n').slice(0, wide.stdout.split('\n').indexOf('Verdicts:'));
    expect(widest(table.join('\n'))).toBeLessThanOrEqual(100);
    expect(table.slice(0, 2)).toEqual(['#1 reinforced armour: examples/reinforced.json (trench-crusade attack, core edition)', '#2 standard armour: examples/standard.json (trench-crusade attack, core edition)']);
    // The verdicts still name them in full.
    expect(wide.stdout).toMatch(/^ {2}standard armour is out of action 9\.3 points more often than reinforced armour/m);
    const narrow = await cliInProcess('compare', 'armour=none', 'tough=true', '--kind', 'injury');
    expect(narrow.stdout.split('\n').find((l) => l.startsWith('outcome'))!.trim().split(/\s{2,}/).slice(0, 3)).toEqual(['outcome', 'armour=none', 'tough=true']);
  });
});
