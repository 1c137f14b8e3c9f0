import { editionRules } from './rule-table.js';
import type { RuleTable, SystemSpec } from './types.js';

const tablesByEdition = new Map<string, RuleTable>();

/**
 * Tables already checked (an edition's, or one a variant's changes were laid over and checked), by the
 * system they belong to. A scenario read again (evaluateExact takes parsed scenarios too) passes its
 * table back as its `rules`; checking it again against the rule-change schema would cost a compile of
 * that schema per process and a validation per cell, and find nothing.
 */
const checkedTables = new WeakMap<object, string>();

/** Marks a table as checked for a system. */
export function markChecked(system: SystemSpec, table: RuleTable): RuleTable {
  checkedTables.set(table, system.id);
  return table;
}

/** Is `value` a table already checked for this system (then it is used as it is)? */
export function isCheckedTable(system: SystemSpec, value: unknown): value is RuleTable {
  return typeof value === 'object' && value !== null && checkedTables.get(value) === system.id;
}

/** An edition's rule table (built once per edition: scenarios share it and never change it). */
export function editionTable(system: SystemSpec, edition: string): RuleTable {
  const key = `${system.id}/${edition}`;
  let table = tablesByEdition.get(key);
  if (!table) {
    table = markChecked(system, editionRules(system.rules.spec, edition) as RuleTable);
    tablesByEdition.set(key, table);
  }
  return table;
}
