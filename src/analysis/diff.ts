import { existsSync } from 'node:fs';
import { UsageError, listAllowed, showValue } from '../errors.js';
import { notAllowed, refusal } from '../messages.js';
import { evaluateParsed, type ExactResult } from '../evaluate.js';
import { add, sub, toNumber, type Fraction } from '../exact/fraction.js';
import { readJsonInput } from '../json-input.js';
import { editionTable } from '../model/edition-table.js';
import { parseTargetInjuryDice, parseKeyword, roleFields } from '../model/keywords.js';
import { parseScenario } from '../input/scenario.js';
import { SCENARIO_KEYWORDS, keywordList } from '../input/sides.js';
import { sameRuleValue } from '../model/rule-table.js';
import { readVariantFile } from '../input/read-files.js';
import type { Variant } from '../input/variant.js';
import type { DiffGridPart, FieldValue, RuleTable, SystemSpec } from '../model/types.js';
import { resolveKind, systems, type AnyScenario } from '../rules/registry.js';
import { gridPoints, layeredSide, type VarySpec } from './dimensions.js';
import { ruleChanges, type RuleChange } from './rule-changes.js';
import { sweepDimensions } from './sweep.js';

/**
 * `injury-lab diff BASE OTHER`: what a change of rules does. Each side is an edition or a variant
 * file; both are evaluated exactly over a grid of common situations (the system's standard grid, or
 * --grid FILE), and every outcome of every cell is compared. The cells and outcomes that moved most
 * come first.
 */

/** One side of a diff: an edition, or a variant (rule changes over an edition). */
export interface RuleSide {
  /** As the user wrote it: "core", "variants/late-down.json". */
  readonly given: string;
  /** What outputs call it: the edition, or the variant's name. */
  readonly label: string;
  readonly system: SystemSpec;
  readonly edition: string;
  readonly variant?: Variant;
}

/** An edition name of the system (the other side's, or any), else a variant file. */
export function resolveSide(given: string, system?: SystemSpec): RuleSide {
  const candidates = system ? [system] : systems;
  const owner = candidates.find((s) => s.editions.some((e) => e.id === given));
  if (owner) return { given, label: given, system: owner, edition: given };
  if (!existsSync(given)) {
    const editions = candidates.map((s) => `${s.id}: ${listAllowed(s.editions.map((e) => e.id))}`).join('; ');
    throw refusal('diff', `${showValue(given)} is neither an edition nor a variant file (no such file)`, `allowed: an edition (${editions}) or a variant file`);
  }
  const variant = readVariantFile(given);
  if (system && variant.system !== system) {
    throw refusal('diff', `variant file ${showValue(given)} is a variant of ${variant.system.id}, and the other side is ${system.id}`, 'allowed: two sides of one system');
  }
  return { given, label: variant.name, system: variant.system, edition: variant.edition, variant };
}

/** The fields that put a grid's scenario under one side's rules. */
function sideFields(side: RuleSide): Record<string, unknown> {
  return side.variant ? { edition: side.edition, rules: side.variant.changes, variant: side.variant.name } : { edition: side.edition };
}

export interface DiffOutcome {
  readonly outcome: string;
  readonly base: Fraction;
  readonly other: Fraction;
  /** other - base, as a probability (a percentage point is 0.01). */
  readonly change: number;
}

export interface DiffMean {
  readonly jsonKey: string;
  readonly base: string;
  readonly other: string;
  readonly baseValue: number | null;
  readonly otherValue: number | null;
}

export interface DiffCell {
  readonly kind: string;
  /** The grid's values of this cell, by field. */
  readonly values: Readonly<Record<string, FieldValue>>;
  readonly label: string;
  readonly outcomes: readonly DiffOutcome[];
  readonly means: readonly DiffMean[];
  /** The largest |change| over its outcomes. */
  readonly largest: number;
  /** Set when only two outcomes moved, one by what the other lost: the one fact both changes state. */
  readonly shift?: DiffShift;
}

/**
 * A cell whose change only moves probability from one outcome to another: `down +81.53` and
 * `out-of-action -81.53` say one thing, "81.53 points of out-of-action became down".
 */
export interface DiffShift {
  /** The outcome that lost probability. */
  readonly from: string;
  /** The outcome that gained what `from` lost. */
  readonly to: string;
  /** What moved, as a probability (exact and as a number). */
  readonly amount: Fraction;
  readonly change: number;
}

export interface DiffSkip {
  readonly kind: string;
  readonly values: Readonly<Record<string, FieldValue>>;
  readonly label: string;
  readonly side: string;
  readonly reason: string;
}

export interface DiffResult {
  readonly system: string;
  readonly base: RuleSide;
  readonly other: RuleSide;
  readonly grid: string;
  readonly cells: readonly DiffCell[];
  readonly skipped: readonly DiffSkip[];
  /** The rules the two sides' tables differ in, worded for a designer. */
  readonly changedRules: readonly RuleChange[];
}

function labelOf(values: Readonly<Record<string, FieldValue>>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
}

/** Reads a --grid file: one { "scenario", "vary" } part, or a list of them. */
export function readDiffGrid(path: string): DiffGridPart[] {
  const label = `grid file ${showValue(path)}`;
  const { value } = readJsonInput(path, { label, what: 'a grid file', missing: 'no such file' });
  const parts = Array.isArray(value) ? value : [value];
  if (parts.length === 0) throw refusal(label, 'an empty list', 'allowed: { "scenario": {...}, "vary": [...] } or a list of them');
  return parts.map((p, i) => {
    const at = `${label}${Array.isArray(value) ? ` item ${i + 1}` : ''}`;
    if (typeof p !== 'object' || p === null || Array.isArray(p)) throw notAllowed(at, p, '{ "scenario": {...}, "vary": [...] }');
    const part = p as Record<string, unknown>;
    for (const key of Object.keys(part)) if (key !== 'scenario' && key !== 'vary') throw refusal(`${at}: ${key}`, 'not a key of a grid', 'allowed: scenario, vary');
    const scenario = part.scenario ?? {};
    if (typeof scenario !== 'object' || scenario === null || Array.isArray(scenario)) throw notAllowed(`${at}: scenario`, scenario, 'an object of scenario fields');
    if (!Array.isArray(part.vary)) throw notAllowed(`${at}: vary`, part.vary, `a list like a report's, e.g. ["injuryDice=-1..3"]`);
    for (const key of ['edition', 'rules', 'variant']) {
      if (key in scenario) throw refusal(`${at}: scenario.${key}`, 'a grid cannot set it', 'the two sides of the diff give the rules');
    }
    return { scenario: scenario as Record<string, unknown>, vary: part.vary as VarySpec[] };
  });
}

/** A side's rule table: its variant's, or its edition's. */
function sideTable(side: RuleSide): RuleTable {
  return side.variant?.table ?? editionTable(side.system, side.edition);
}

/** The keywords of a rule table, by name, with the fields each gives. */
function keywordsOf(table: RuleTable): Readonly<Record<string, Readonly<Record<string, unknown>>>> {
  const keywords = table.keywords;
  return typeof keywords === 'object' && keywords !== null ? (keywords as Record<string, Record<string, unknown>>) : {};
}

/**
 * What a changed keyword does, for the standard grid: for every keyword one side gives other effects
 * than the other (or only one side has), one attack and three attacks spending every marker, with the
 * keyword on the weapon (or on the target, for a model's keyword), against every armour and shield,
 * Tough or not. A side without the keyword is evaluated without it, so the cells show what the
 * keyword does there. A keyword that takes a number is tried with 1.
 */
export function keywordGrid(base: RuleSide, other: RuleSide): DiffGridPart[] {
  const a = keywordsOf(sideTable(base));
  const b = keywordsOf(sideTable(other));
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((name) => !sameRuleValue(a[name], b[name]));
  const weaponFields = roleFields(base.system, 'weapon');
  return names.flatMap((name) => {
    const effects = [a[name], b[name]].filter((e): e is Readonly<Record<string, unknown>> => e !== undefined);
    const text = effects.some((e) => Object.values(e).includes('N')) ? `${name} 1` : name;
    const key = effects.every((e) => Object.keys(e).every((f) => weaponFields.has(f))) ? 'weaponKeywords' : 'targetKeywords';
    return keywordParts(key, text);
  });
}

/** The cells that price one keyword (`text`, on the weapon or the target as `key` says): one attack, and three spending every marker. */
export function keywordParts(key: 'weaponKeywords' | 'targetKeywords', text: string): DiffGridPart[] {
  const vary = [KEYWORD_PROTECTION, { field: 'tough', values: [false, true] }];
  return [
    { scenario: { kind: 'attack', [key]: text }, vary },
    { scenario: { kind: 'sequence', attacks: 3, policy: 'all', [key]: text }, vary },
  ];
}

const KEYWORD_PROTECTION = {
  fields: ['armour', 'shield'],
  name: 'protection',
  values: [['none', false], ['none', true], ['standard', false], ['standard', true], ['reinforced', false], ['reinforced', true], ['machine', false]],
};

/** The raw scenario for one side: a scenario keyword the side's table does not know is left out there. */
function forSide(raw: Record<string, unknown>, side: RuleSide): Record<string, unknown> {
  const known = keywordsOf(sideTable(side));
  const out = { ...raw, ...sideFields(side) };
  for (const key of SCENARIO_KEYWORDS) {
    if (raw[key] === undefined) continue;
    // A model's "-N INJURY DICE UNLESS K" is read by the parser itself, on both sides alike.
    const kept = keywordList(raw[key], key).filter((k) => parseTargetInjuryDice(k) !== undefined || parseKeyword(k).name in known);
    if (kept.length) out[key] = kept.join(', ');
    else delete out[key];
  }
  return out;
}

/** A cell of the grid with its scenario parsed for each side, or why a side's rules refuse it: what diffRules solves. */
export interface DiffGridCell {
  readonly kind: string;
  readonly values: Record<string, FieldValue>;
  readonly label: string;
  /** The base's and the other's scenario; absent where a side's rules refuse the cell (`skipped`). */
  readonly scenarios?: readonly [AnyScenario, AnyScenario];
  readonly skipped: readonly DiffSkip[];
}

/** The grid's cells, each parsed for both sides: cheap next to solving them, so what is asked of them can be checked first. */
export function diffGridCells(base: RuleSide, other: RuleSide, grid: readonly DiffGridPart[]): DiffGridCell[] {
  const cells: DiffGridCell[] = [];
  for (const part of grid) {
    const scenario = { system: base.system.id, ...part.scenario };
    const dims = sweepDimensions(scenario, part.vary as VarySpec[]);
    for (const point of gridPoints(dims)) {
      // A part's scenario keywords name its cells too: "weaponKeywords=FIRE, protection=...".
      const values: Record<string, FieldValue> = {};
      for (const key of SCENARIO_KEYWORDS) if (typeof part.scenario[key] === 'string') values[key] = part.scenario[key] as string;
      point.forEach((vi, di) => dims[di]!.fields.forEach((f, fi) => (values[f] = dims[di]!.values[vi]!.values[fi]!)));
      // A side varied whole is named in the cell's values and laid over the part's side in its scenario.
      const raw: Record<string, unknown> = { ...scenario, ...values };
      point.forEach((vi, di) => {
        const d = dims[di]!;
        if (d.side !== undefined) raw[d.side] = layeredSide(scenario[d.side as keyof typeof scenario], d.values[vi]!.side!);
      });
      const kind = String(parseKind(raw, base));
      const label = labelOf(values);
      const skipped: DiffSkip[] = [];
      const parsed = [base, other].map((side) => {
        try {
          return parseScenario(forSide(raw, side));
        } catch (e) {
          if (!(e instanceof UsageError)) throw e;
          skipped.push({ kind, values, label, side: side.label, reason: e.message });
          return undefined;
        }
      });
      const [b, o] = parsed;
      cells.push({ kind, values, label, ...(b && o ? { scenarios: [b, o] as const } : {}), skipped });
    }
  }
  return cells;
}

/**
 * Every outcome the cells will have, in the order the cells first give them (diffOutcomes of their
 * result), read from their kinds' layouts before any cell is solved: `--outcome` is checked first.
 */
export function diffGridOutcomes(cells: readonly DiffGridCell[]): string[] {
  return [...new Set(cells.flatMap((c) => (c.scenarios ? resolveKind(c.scenarios[0]).kind.layout(c.scenarios[0]).outcomes : [])))];
}

/** Evaluates both sides over the grid's cells; a cell either side's rules refuse is skipped and listed. */
export function diffRules(base: RuleSide, other: RuleSide, grid: readonly DiffGridPart[], gridName: string, gridCells = diffGridCells(base, other, grid)): DiffResult {
  const cells: DiffCell[] = [];
  const skipped: DiffSkip[] = [];
  for (const { kind, values, label, scenarios, skipped: refused } of gridCells) {
    skipped.push(...refused);
    if (!scenarios) continue;
    const results: (ExactResult | undefined)[] = scenarios.map((parsed, i) => {
      try {
        return evaluateParsed(parsed);
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        skipped.push({ kind, values, label, side: (i === 0 ? base : other).label, reason: e.message });
        return undefined;
      }
    });
    const [b, o] = results;
    if (!b || !o) continue;
    const outcomes = b.answer.outcomes.map((p, i): DiffOutcome => {
      const q = o.answer.outcomes[i]!;
      return { outcome: b.layout.outcomes[i]!, base: p, other: q, change: toNumber(sub(q, p)) };
    });
    const means = Object.entries(b.means).map(([jsonKey, bv]): DiffMean => {
      const ov = o.means[jsonKey];
      return { jsonKey, base: bv.exact, other: ov?.exact ?? '', baseValue: bv.value, otherValue: ov?.value ?? null };
    });
    const largest = Math.max(0, ...outcomes.map((x) => Math.abs(x.change)));
    const shift = shiftOf(outcomes);
    cells.push({ kind, values, label, outcomes, means, largest, ...(shift ? { shift } : {}) });
  }
  return { system: base.system.id, base, other, grid: gridName, cells, skipped, changedRules: ruleChanges(base.system, sideTable(base), sideTable(other)) };
}

/** The cell's change as one move from an outcome to another, when exactly two outcomes moved and by the same exact amount. */
function shiftOf(outcomes: readonly DiffOutcome[]): DiffShift | undefined {
  const moved = outcomes.map((o) => ({ outcome: o.outcome, delta: sub(o.other, o.base) })).filter((m) => m.delta.num !== 0n);
  if (moved.length !== 2 || add(moved[0]!.delta, moved[1]!.delta).num !== 0n) return undefined;
  const [lost, gained] = moved[0]!.delta.num < 0n ? [moved[0]!, moved[1]!] : [moved[1]!, moved[0]!];
  return { from: lost.outcome, to: gained.outcome, amount: gained.delta, change: toNumber(gained.delta) };
}

function parseKind(raw: Record<string, unknown>, side: RuleSide): unknown {
  return raw.kind ?? side.system.kinds[0]!.id;
}

/** Every (cell, outcome) with its change, largest |change| first (ties: grid order). */
export function rankedMoves(result: DiffResult): { cell: DiffCell; outcome: DiffOutcome }[] {
  const moves = result.cells.flatMap((cell) => cell.outcomes.map((outcome) => ({ cell, outcome })));
  return moves.filter((m) => m.outcome.change !== 0).sort((a, b) => Math.abs(b.outcome.change) - Math.abs(a.outcome.change));
}

/** One reading of a diff: a cell's move of one outcome, or (`shift`) of probability from one outcome to another. */
export interface DiffReading {
  readonly cell: DiffCell;
  readonly outcome: DiffOutcome;
  readonly shift?: DiffShift;
}

/**
 * What the table reads, largest first: rankedMoves with a shifted cell's two moves as one reading (at
 * its place), the outcome that lost first; `shift` marks it.
 */
export function rankedReadings(result: DiffResult): DiffReading[] {
  return rankedMoves(result).flatMap(({ cell, outcome }) => {
    if (!cell.shift) return [{ cell, outcome }];
    if (outcome.outcome !== cell.shift.from) return [];
    return [{ cell, outcome, shift: cell.shift }];
  });
}

/** The readings of a table or chart, largest first: rankedReadings, or with `outcomes` (--outcome) every move of those outcomes, each its own. */
export function diffReadings(result: DiffResult, outcomes: readonly string[] | undefined): DiffReading[] {
  if (outcomes === undefined) return rankedReadings(result);
  return rankedMoves(result).filter((m) => outcomes.includes(m.outcome.outcome));
}

/** Every outcome the diff's cells have, in the order the cells first give them. */
export function diffOutcomes(result: DiffResult): string[] {
  return [...new Set(result.cells.flatMap((c) => c.outcomes.map((o) => o.outcome)))];
}

/** Per kind: cells compared, cells where anything moved, and the largest move. */
export function diffSummary(result: DiffResult): { kind: string; cells: number; moved: number; largest: number }[] {
  const kinds = [...new Set(result.cells.map((c) => c.kind))];
  return kinds.map((kind) => {
    const of = result.cells.filter((c) => c.kind === kind);
    return { kind, cells: of.length, moved: of.filter((c) => c.largest > 0).length, largest: Math.max(0, ...of.map((c) => c.largest)) };
  });
}
