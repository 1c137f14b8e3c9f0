import { costLabel as labelWithCost, findProfile, findSideProfiles, sideCost, type Profiles } from '../model/profiles.js';
import { SIDE_PROFILE_KEY } from '../input/sides.js';
import { UsageError, showValue } from '../errors.js';
import { refusal } from '../messages.js';
import { parseScenarioWith, resolveInputsWith, type ScenarioFiles as ScenarioReader } from '../input/scenario-core.js';
import type { FieldValue, Scenario } from '../model/types.js';
import { editionTable } from '../model/edition-table.js';
import { rosterSystem } from '../import/roster.js';
import { importedProfilesOnce, type ImportedTrees } from '../input/profiles-once.js';
import { type CostOf, assignField, baseSystemAndKind, checkDisjoint, checkGridSize, gridPoints, isPlainObject, kindSides, layeredSide, parseDimensionWith, sidePath, type Dimension, type DimensionValue, type VarySpec } from './dimension-core.js';
import { describeNotAllowed, type NotAllowedCell } from './not-allowed.js';
import type { GridPlan, PlannedCell } from './cells.js';

/**
 * Planning a grid: its dimensions checked against the base scenario, and every cell's scenario checked
 * before anything runs. Reads no file itself: the files the scenarios name (variants, profiles, rosters,
 * catalogues) come from a reader, the CLI's from disk (src/analysis/sweep.ts's sweepDimensions and
 * planGrid), a page's from the files the user opened. So the web page plans a grid as the CLI does.
 */

/**
 * Where a grid's files come from: a scenario's reader, and optionally the profiles a base scenario names
 * by file (the CLI keeps rosters and catalogues read once; by default they are made from the reader's
 * tree by the system's default edition, as `profiles --roster` lists them).
 */
export interface ScenarioFiles extends ScenarioReader {
  namedProfiles?(raw: Readonly<Record<string, unknown>>): Profiles | undefined;
}

/** The profiles a raw scenario names by file (`profiles`, or `roster` and `catalogue`, one or both), read by `files`; undefined if it names none. */
export function profilesNamedWith(raw: Readonly<Record<string, unknown>>, files: ScenarioReader): Profiles | undefined {
  const imported: ImportedTrees = {
    ...(typeof raw.roster === 'string' ? { roster: files.roster(raw.roster) } : {}),
    ...(raw.catalogue !== undefined ? { catalogue: files.catalogue((Array.isArray(raw.catalogue) ? raw.catalogue : [raw.catalogue]).map(String)) } : {}),
  };
  const tree = imported.roster ?? imported.catalogue;
  if (tree !== undefined) {
    const system = rosterSystem(tree);
    return importedProfilesOnce(imported, editionTable(system, system.defaultEdition));
  }
  return typeof raw.profiles === 'string' ? files.profiles(raw.profiles) : undefined;
}

/**
 * The dimensions of a request, checked against the base scenario's system and kind. A side varied whole
 * that the rules forbid (machine armour with a shield) is left for planGrid to show as not allowed,
 * unless `strict`.
 */
export function sweepDimensionsWith(base: Record<string, unknown>, vary: readonly VarySpec[], files: ScenarioFiles, options: { readonly strict?: boolean } = {}): Dimension[] {
  if (vary.length === 0) throw refusal('vary', 'empty list', 'give at least one field to vary, e.g. "injuryDice=-1..3"');
  checkGridSize(vary);
  const { system, kind } = baseSystemAndKind(base);
  const parsed = vary.map((v) => parseDimensionWith(v, system, kind, files));
  const sideKeys = kindSides(system, kind)?.keys ?? [];
  checkDisjoint(parsed, sideKeys);
  // The profiles file, roster or catalogue is read only for a grid that may run.
  const dims = parsed.map((d) => withProfileLabels(d, base, files));
  // A battle's sides are read against each other (its attacks are one side's weapons on the other's
  // models): a value of one side is checked among the base's other sides, never beside empty ones.
  const together = kindSides(system, kind)?.unprofiled === true;
  const otherSides = (side?: string) => Object.fromEntries(sideKeys.filter((k) => k !== side).map((k) => [k, together && isPlainObject(base[k]) ? base[k] : {}]));
  checkVariedBaseValues(base, dims, sideKeys, together, otherSides, files);
  checkSideValues(base, dims, otherSides, options.strict === true, files);
  return dims;
}

/**
 * A weapon or target dimension names profiles of the base's profiles file, roster or catalogues: each
 * value is checked there (one line with a "did you mean" otherwise) and labelled with its cost, so a
 * matrix shows the prices on its axes. A label the report gave stays. A roster's profiles are made here
 * by its system's default edition, as `profiles --roster` lists them; each cell makes them by its own
 * edition or variant (the files are read once, src/input/read-once.ts), and refuses a name that those
 * rules read differently.
 */
function withProfileLabels(d: Dimension, base: Record<string, unknown>, files: ScenarioFiles): Dimension {
  if (d.side !== undefined) return withSideCosts(d, d.side, base, files);
  const field = d.fields.length === 1 ? d.fields[0]! : undefined;
  // A side's model, weapon or "MODEL with WEAPON" ("a.model"), or the one-sided weapon and target.
  const { system, kind } = baseSystemAndKind(base);
  const sideField = field === undefined ? undefined : sidePath(field, kindSides(system, kind)?.keys ?? [])?.field;
  const named = sideField ?? field;
  const names = sideField === undefined ? ['weapon', 'target'] : ['weapon', 'model', SIDE_PROFILE_KEY];
  if (named === undefined || !names.includes(named)) return d;
  const profiles = namedProfiles(base, files);
  if (!profiles) {
    throw refusal('vary', `${field} needs "profiles", "roster" or "catalogue" in the scenario: the file that names the ${named === 'weapon' ? 'weapons' : 'models'}`);
  }
  /** The value's cost and what it prices: a "MODEL with WEAPON" weapon (its model's own dice with it) the whole model. */
  const priceOf = (name: FieldValue): { cost: number | undefined; costOf: CostOf } => {
    if (named === SIDE_PROFILE_KEY) {
      const side = findSideProfiles(profiles, name, `vary: ${field}`);
      return { cost: sideCost(profiles, side), costOf: side.model !== undefined ? 'loadout' : 'weapon' };
    }
    const profile = findProfile(profiles, named === 'weapon' ? 'weapon' : 'model', name, `vary: ${field}`);
    return { cost: profile.cost, costOf: named !== 'weapon' ? 'model' : profile.attackerDice !== undefined ? 'loadout' : 'weapon' };
  };
  return {
    ...d,
    values: d.values.map((v) => {
      const { cost, costOf } = priceOf(v.values[0]!);
      return { ...v, label: costLabel(v, cost), ...(cost !== undefined ? { cost, costOf } : {}) };
    }),
  };
}

/** A value's label with its cost, "Great Hammer (12)", when it is labelled by its own name; a label the report gave stays. */
const costLabel = (v: DimensionValue, cost: number | undefined) => (v.label === String(v.values[0]) ? labelWithCost(v.label, cost) : v.label);

/**
 * A side varied whole, over a scenario that names a profiles file, roster or catalogues: each value's
 * `profile` ("Shield Bearer with Great Hammer", or a model) is looked up there (one line with a "did
 * you mean" otherwise) and written out as the model and weapon it names, under the value's own, so a
 * value's profile wins over the base side's model and weapon as its other fields do. Each value is
 * priced as the side it makes in its cells (laid over the base's side): its model's cost and its
 * weapon's (sideCost), and labelled with it like a weapon or target. A side that names no profile, or
 * one without a cost, has none. Without a profiles file, named sides are as given (their model and
 * weapon names labels only), and a profile name is refused: nothing could say what it is.
 */
function withSideCosts(d: Dimension, side: string, base: Record<string, unknown>, files: ScenarioFiles): Dimension {
  const profileOf = (fields: Readonly<Record<string, unknown>> | undefined) => (isPlainObject(fields) ? fields[SIDE_PROFILE_KEY] : undefined);
  const profiles = namedProfiles(base, files);
  if (!profiles) {
    const first = d.values.find((v) => profileOf(v.side) !== undefined);
    if (first) throw refusal(`vary: ${d.id}: ${showValue(first.values[0])}`, `a side named by its profile needs "profiles", "roster" or "catalogue" in the scenario: the file that names the models and weapons`);
    return d;
  }
  // A value given as a name alone is named once in a message; a named side's profile by its key.
  const at = (v: DimensionValue) => (profileOf(v.side) === v.values[0] && Object.keys(v.side!).length === 1 ? `vary: ${d.id}` : `vary: ${d.id}: ${showValue(v.values[0])}: ${side}.${SIDE_PROFILE_KEY}`);
  const written = (fields: Readonly<Record<string, unknown>>, where: string) => {
    const named = profileOf(fields);
    return named === undefined ? fields : { ...findSideProfiles(profiles, named, where), ...fields };
  };
  // The base's own side is checked with the values laid over it (checkSideValues); its profile is read here only for the price.
  const baseSide = isPlainObject(base[side]) ? base[side] : {};
  return {
    ...d,
    values: d.values.map((v) => {
      const own = written(v.side!, at(v));
      const cell = layeredSide(written(baseSide, `scenario: ${side}.${SIDE_PROFILE_KEY}`), own);
      const name = (key: 'model' | 'weapon') => (typeof cell[key] === 'string' ? { [key]: cell[key] } : {});
      const cost = sideCost(profiles, { ...name('model'), ...name('weapon') });
      // A side with a model is priced as the model with its weapon; a weapon alone as a weapon.
      const costOf: CostOf = typeof cell.model === 'string' ? 'loadout' : 'weapon';
      return { ...v, side: own, label: costLabel(v, cost), ...(cost !== undefined ? { cost, costOf } : {}) };
    }),
  };
}

/**
 * The keys that say which rules a base scenario's values are read by, and where its profile names come
 * from: the context in which each of its values is checked.
 */
const SCENARIO_CONTEXT = ['system', 'kind', 'edition', 'rules', 'profiles', 'roster', 'catalogue', 'allowUnmodelled'] as const;

function scenarioContext(base: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(SCENARIO_CONTEXT.filter((key) => base[key] !== undefined).map((key) => [key, base[key]]));
}

/**
 * The profiles the base scenario names by file, or undefined. The scenario's own checks come first, so
 * two sources, a path that is no string or a roster of another game get the same one line as in a
 * single scenario.
 */
function namedProfiles(base: Record<string, unknown>, files: ScenarioFiles) {
  // A kind with sides needs each side to be a scenario: empty ones, whose own checks come later (checkSideValues).
  const { system, kind } = baseSystemAndKind(base);
  const sides = Object.fromEntries((kindSides(system, kind)?.keys ?? []).map((key) => [key, {}]));
  parseScenarioWith({ ...scenarioContext(base), ...sides }, files);
  return files.namedProfiles ? files.namedProfiles(base) : profilesNamedWith(base, files);
}

/**
 * A base value that the grid replaces is never computed, but it is still what the user wrote: a typo
 * there ("injuryDice": "lots") is refused as it would be in a single scenario, not silently dropped.
 * Each such value is checked on its own, in a scenario of the base's system, kind and edition.
 */
function checkVariedBaseValues(
  base: Record<string, unknown>,
  dims: readonly Dimension[],
  sideKeys: readonly string[],
  together: boolean,
  otherSides: (side?: string) => Record<string, unknown>,
  files: ScenarioFiles,
): void {
  const context = scenarioContext(base);
  for (const d of dims) {
    // A side varied whole is checked with the sides it is laid over (checkSideValues).
    if (d.side !== undefined) continue;
    for (const f of d.fields) {
      // A side's field ("a.policy", "sides.armour"): each side's own value, in a side of its own.
      const path = sidePath(f, sideKeys);
      const given = path
        ? path.sides.flatMap((side) => (isPlainObject(base[side]) && base[side][path.field] !== undefined ? [{ ...otherSides(side), [side]: together ? base[side] : { [path.field]: base[side][path.field] } }] : []))
        : base[f] === undefined ? [] : [f === 'edition' ? {} : { ...otherSides(), [f]: base[f] }];
      for (const own of given) try {
        parseScenarioWith({ ...context, ...own }, files);
      } catch (e) {
        if (e instanceof UsageError) throw refusal('scenario', `${e.message} (the grid varies ${f}, but the value given must still be allowed)`);
        throw e;
      }
    }
  }
}

/**
 * Each named side of a side dimension (a duel's `a` varied whole), checked on its own before any cell
 * is planned, so a mistake in one is refused in one line naming the dimension, the side's name and the
 * field ('vary: a: "machine + Tough": a.armour: "mythril" is not allowed; ...'). A side is checked laid
 * over the base's side, in a scenario of the base's system, kind, edition, rules and profiles, the
 * other sides empty: what one side gives is that side's alone. The base's own side is checked first.
 */
function checkSideValues(base: Record<string, unknown>, dims: readonly Dimension[], others: (side: string) => Record<string, unknown>, strict: boolean, files: ScenarioFiles): void {
  const context = scenarioContext(base);
  const check = (side: string, given: unknown, where: (message: string) => UsageError, forbiddenIsACell = false) => {
    try {
      parseScenarioWith({ ...context, ...others(side), [side]: given }, files);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      // Its fields passed their checks: what the rules forbid is its cells' to show, not a mistake.
      if (forbiddenIsACell && !strict && e.ruleForbidden !== undefined) return;
      throw where(e.message);
    }
  };
  for (const d of dims) {
    if (d.side === undefined) continue;
    const side = d.side;
    if (base[side] !== undefined) check(side, base[side], (m) => refusal('scenario', `${m} (the grid varies ${side} whole, laying each value over this one, which must still be allowed)`));
    for (const v of d.values) check(side, layeredSide(base[side], v.side!), (m) => refusal(`vary: ${d.id}: ${showValue(v.values[0])}`, m), true);
  }
}

function describeAssignment(assignment: Readonly<Record<string, FieldValue>>): string {
  return Object.entries(assignment)
    .map(([k, v]) => `${k}=${showValue(v)}`)
    .join(', ');
}

/** The scenarios of every cell, validated up front so a bad grid fails before anything runs; a cell the rules forbid is refused too. */
export function planCellsWith(base: Record<string, unknown>, dims: readonly Dimension[], files: ScenarioFiles, onCell?: (done: number, total: number) => void): PlannedCell[] {
  return [...planGridWith(base, dims, files, { ...(onCell ? { onCell } : {}), strict: true }).cells];
}

export interface GridPlanOptions {
  /** Called after each cell is checked. */
  readonly onCell?: (done: number, total: number) => void;
  /** Refuse a cell the rules forbid, as a one-off run does, instead of leaving it out as not allowed. */
  readonly strict?: boolean;
}

/**
 * The scenarios of every cell, validated up front so a bad grid fails before anything runs. A cell the
 * rules forbid (a refusal forbiddenByRules marked) is kept as not allowed with its reason, unless
 * `strict`: a grid over editions survives the one edition without falls. Every other refusal is the
 * user's mistake and ends the plan, as does a grid the rules forbid whole (nothing to show).
 */
export function planGridWith(base: Record<string, unknown>, dims: readonly Dimension[], files: ScenarioFiles, options: GridPlanOptions = {}): GridPlan {
  const points = gridPoints(dims);
  const { system, kind } = baseSystemAndKind(base);
  const sideKeys = kindSides(system, kind)?.keys ?? [];
  const cells: PlannedCell[] = [];
  const notAllowed: NotAllowedCell[] = [];
  points.forEach((point, index) => {
    // What the cell's values are (a side varied whole by its name), and the scenario they make (the
    // side's fields laid over the base's side).
    const assignment: Record<string, FieldValue> = {};
    const input: Record<string, unknown> = { ...base };
    point.forEach((vi, di) => {
      const d = dims[di]!;
      const v = d.values[vi]!;
      d.fields.forEach((f, fi) => (assignment[f] = v.values[fi]!));
      if (d.side !== undefined) input[d.side] = layeredSide(base[d.side], v.side!);
      else d.fields.forEach((f, fi) => assignField(input, f, v.values[fi]!, sideKeys));
    });
    const labels = point.map((vi, di) => dims[di]!.values[vi]!.label);
    let scenario: Scenario;
    try {
      scenario = parseScenarioWith(input, files);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      if (e.ruleForbidden === undefined || options.strict) throw refusal(`cell ${describeAssignment(assignment)}`, e.message);
      notAllowed.push({ index, point, labels, assignment, ...scenarioNames(input, files), reason: e.ruleForbidden });
      options.onCell?.(index + 1, points.length);
      return;
    }
    // Two variant files of one name: the cell carries the name with its file (see DimensionValue.variant).
    for (const [di, vi] of point.entries()) {
      const variant = dims[di]!.values[vi]!.variant;
      if (variant !== undefined) scenario = { ...scenario, variant };
    }
    options.onCell?.(index + 1, points.length);
    cells.push({ index, point, labels, assignment, scenario });
  });
  if (cells.length === 0) {
    const first = notAllowed[0]!;
    throw refusal(
      'vary',
      `the rules forbid every cell of the grid (${points.length} of ${points.length}), e.g. ${describeNotAllowed(dims, first)}: ${first.reason}`,
      'nothing to show; vary values the rules allow together',
    );
  }
  return { cells, notAllowed };
}

/** The system, kind and edition a cell's raw fields name (a variant file's edition where it gives one), as its scenario would have them. */
function scenarioNames(input: Record<string, unknown>, files: ScenarioFiles): { system: string; kind: string; edition: string } {
  const { system, kind } = baseSystemAndKind(input);
  const edition = resolveInputsWith(input, files).input.edition;
  return { system: system.id, kind, edition: typeof edition === 'string' ? edition : system.defaultEdition };
}

