import { editionRules } from './rule-table.js';
import type { RuleTable, SystemSpec } from './types.js';

const tablesByEdition = new Map<string, RuleTable>();

/** An edition's rule table (built once per edition: scenarios share it and never change it). */
export function editionTable(system: SystemSpec, edition: string): RuleTable {
  const key = `${system.id}/${edition}`;
  let table = tablesByEdition.get(key);
  if (!table) {
    table = editionRules(system.rules.spec, edition) as RuleTable;
    tablesByEdition.set(key, table);
  }
  return table;
}
