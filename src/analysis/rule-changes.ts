import { OPEN_GROUP, isRuleLeaf, resultRanges, ruleLeaves, sameRuleValue, showRuleValue, valueAt, type RuleSchema } from '../model/rule-table.js';
import type { RuleTable, SystemSpec } from '../model/types.js';

/**
 * The rules two tables differ in, each worded for a designer: a rule of a result table as the table
 * prints it ("Out of Action: 9+ -> 10+", with the neighbouring result it moves: "Down: 7-8 -> 7-9"),
 * any other by its values (outputs name its path and say what it means beside them).
 */

/** A result whose totals changed because a neighbouring result's rule did ("Down: 7-8 -> 7-9"). */
export interface ResultMove {
  readonly result: string;
  readonly base: string;
  readonly other: string;
}

export interface RuleChange {
  /** Dotted path: "injuryTable.outOfAction", "keywords.FIRE". */
  readonly rule: string;
  readonly description: string;
  /** The values as the two tables hold them; null for a keyword one side does not have. */
  readonly base: unknown;
  readonly other: unknown;
  /** The change in the rule's own words: "Out of Action: 9+ -> 10+"; for a rule of no table, its values: "null (no cap) -> 6". */
  readonly reading: string;
  /** The results of its table that moved with it without a rule of their own changing. */
  readonly alsoMoves: readonly ResultMove[];
}

const NOT_A_KEYWORD = '(not a keyword)';

/** Every rule `other` holds differently from `base`, in the spec's order, then keywords only one side or the other adds. */
export function ruleChanges(system: SystemSpec, base: RuleTable, other: RuleTable): RuleChange[] {
  const changes: RuleChange[] = [];
  for (const { path, leaf } of ruleLeaves(system.rules.spec)) {
    const [b, o] = [valueAt(base, path), valueAt(other, path)];
    if (!sameRuleValue(b, o)) changes.push(resultTableChange(system, path, leaf.description, base, other) ?? plainChange(path, leaf.description, leaf.schema, b, o));
  }
  // Entries a variant added to an open group (its own keywords), on either side.
  for (const [group, node] of Object.entries(system.rules.spec)) {
    if (isRuleLeaf(node) || node[OPEN_GROUP] === undefined) continue;
    const [b, o] = [(valueAt(base, group) ?? {}) as Record<string, unknown>, (valueAt(other, group) ?? {}) as Record<string, unknown>];
    const added = [...new Set([...Object.keys(b), ...Object.keys(o)])].filter((key) => !Object.hasOwn(node, key) && !sameRuleValue(b[key], o[key]));
    for (const key of added) changes.push(plainChange(`${group}.${key}`, 'A keyword a variant adds', node[OPEN_GROUP], b[key] ?? null, o[key] ?? null));
  }
  return changes;
}

function plainChange(rule: string, description: string, schema: RuleSchema, base: unknown, other: unknown): RuleChange {
  const shown = (value: unknown) => (value === null && schema.type === 'effects' ? NOT_A_KEYWORD : showRuleValue(value, schema));
  return { rule, description, base, other, reading: `${shown(base)} -> ${shown(other)}`, alsoMoves: [] };
}

/**
 * A rule that opens a result of a table, worded as the table: its result's totals before and after, and
 * the results below it whose totals it moved (the one just below, and what is below the table when the
 * first result moves) unless their own rule changed too (then they are read under their own rule).
 */
function resultTableChange(system: SystemSpec, path: string, description: string, base: RuleTable, other: RuleTable): RuleChange | undefined {
  for (const table of system.rules.resultTables) {
    const index = table.results.findIndex((r) => r.rule === path);
    if (index < 0) continue;
    const [before, after] = [resultRanges(table, base), resultRanges(table, other)];
    // resultRanges lists `below` first: result i of the table is entry i + 1, and the one below it entry i.
    const own = index + 1;
    const below = index;
    const belowRuleChanged = below > 0 && !sameRuleValue(valueAt(base, table.results[below - 1]!.rule), valueAt(other, table.results[below - 1]!.rule));
    const alsoMoves =
      !belowRuleChanged && before[below]!.range !== after[below]!.range ? [{ result: before[below]!.result, base: before[below]!.range, other: after[below]!.range }] : [];
    return {
      rule: path,
      description,
      base: valueAt(base, path),
      other: valueAt(other, path),
      reading: `${before[own]!.result}: ${before[own]!.range} -> ${after[own]!.range}`,
      alsoMoves,
    };
  }
  return undefined;
}

/** "Out of Action: 9+ -> 10+ (so Down: 7-8 -> 7-9)": a change and what it moved, on one line. */
export function ruleChangeText(change: RuleChange): string {
  const moved = change.alsoMoves.map((m) => `${m.result}: ${m.base} -> ${m.other}`).join(', ');
  return moved ? `${change.reading} (so ${moved})` : change.reading;
}
