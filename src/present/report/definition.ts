import { basename, extname } from 'node:path';
import { parseQuotedList, quoteListValue } from '../../quoted-list.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { schemaValidator } from '../../model/ajv.js';
import { UsageError, listAllowed, showValue } from '../../errors.js';
import { notAllowed, refusal } from '../../messages.js';
import { readJsonInput } from '../../json-input.js';
import { STANDARD_INPUT, checkJsonDepth } from '../../json-text.js';
import type { ReportLayout } from '../../model/types.js';
import { NO_VARIANT, namedFiles, rulesRelativeTo } from '../../input/scenario.js';
import { resolveKind } from '../../rules/registry.js';
import { CHART_TYPES, type ChartDef } from '../chart/definition.js';
import { defaultCharts, type ChartInput } from '../chart/defaults.js';
import { checkChart } from '../chart/check.js';
import { checkGridSize, type Dimension, type VarySpec } from '../../analysis/dimensions.js';
import { SIMULATED_ONLY_TRIALS } from '../../analysis/cells.js';
import { MAX_BATCHES, DEFAULT_BATCHES, checkSimBudget, planGrid, sweepDimensions, type PlannedCell, type SimPlan } from '../../analysis/sweep.js';
import type { NotAllowedCell } from '../../analysis/not-allowed.js';
import { checkPriceSettings, priceSettingsJsonSchema, priceSourceFiles, priceSourceText, type PriceSettings, type PriceSource } from '../../pricing/price-settings.js';

export { defaultCharts, type ChartInput };

/**
 * Report definitions: a JSON file with a title, a description and a list of analyses, each a base
 * scenario, what to vary, whether to simulate, and which charts to draw. The shape is checked with a
 * JSON Schema (ajv), then each analysis against the rules: its fields, every cell of its grid, its
 * charts. Every problem is one line naming the report file and the analysis.
 */

const ID = '^[a-z0-9][a-z0-9-]*$';

const varyItem = {
  type: ['string', 'object'],
  properties: {
    field: { type: 'string' },
    fields: { type: 'array', items: { type: 'string' }, minItems: 1 },
    values: { type: 'array', minItems: 1 },
    from: { type: 'number' },
    to: { type: 'number' },
    step: { type: 'number', exclusiveMinimum: 0 },
    labels: { type: 'array', items: { type: 'string' } },
    title: { type: 'string', description: 'Axis title, with the unit: "Fall height (inches)"' },
    name: { type: 'string', pattern: ID, description: 'Id charts use for this dimension (default: the field, or fields joined with "+")' },
    models: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'A side varied whole (a duel\'s a or b): every one of these models of the scenario\'s profiles with every weapon of "weapons"' },
    weapons: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'A side varied whole: the weapons each model of "models" takes in turn' },
  },
  additionalProperties: false,
};

const chart = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: [...CHART_TYPES] },
    x: { type: 'string' },
    y: { type: 'string' },
    series: { type: 'string' },
    facet: { type: 'string' },
    outcome: { type: 'string' },
    outcomes: { type: 'array', items: { type: 'string' }, minItems: 1 },
    cumulative: { type: 'boolean', description: 'Show "this outcome or worse" instead of each outcome' },
    differenceFrom: { type: 'string', description: 'Heat map: a value (label) of the facet dimension; the other facets show their change against it, in points' },
    fullScale: { type: 'boolean', description: 'Heat map: colour from 0% to 100% (default: from 0 to the largest value, rounded up to a tenth)' },
    by: { type: 'string', description: "Value chart: the weapon or target dimension, or a duel's side a or b varied whole, whose costs divide the measure" },
    survive: { type: 'boolean', description: 'Value chart: measure the chance of escaping the outcome (for models)' },
    mean: { type: 'string', description: 'Value chart: measure this mean (e.g. expectedAttacks) instead of an outcome' },
    per: { type: 'number', description: 'Value chart: cost unit, default 10 (value per 10 ducats)' },
    interpolate: { enum: ['linear', 'step-after'] },
    title: { type: 'string' },
    file: { type: 'string', pattern: ID, description: 'File name of the chart, without extension' },
  },
  additionalProperties: false,
};

const simulate = {
  type: 'object',
  properties: {
    trials: { type: 'integer', minimum: 1, maximum: 1e10 },
    precision: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 0.5 },
    maxTrials: { type: 'integer', minimum: 1, maximum: 1e10 },
    seed: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    batches: { type: 'integer', minimum: 1, maximum: MAX_BATCHES },
  },
  additionalProperties: false,
};

/** The published schema of report definitions (`injury-lab report --schema`). */
export const reportJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://injury-lab.invalid/report.schema.json',
  title: 'injury-lab report definition',
  type: 'object',
  required: ['title', 'analyses'],
  properties: {
    $schema: { type: 'string' },
    title: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    seed: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Seed of every simulated analysis that names none' },
    analyses: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', pattern: ID, description: 'Names its charts\' files and its place on the page (default: analysis-N, N its place in the list)' },
          title: { type: 'string', minLength: 1, description: 'Its heading (default: the kind and what it varies, "attack by armour and injury dice")' },
          description: { type: 'string' },
          scenario: { type: 'object', description: 'The base scenario: the fields of a scenario file' },
          vary: { type: 'array', minItems: 1, items: varyItem },
          exact: { type: 'boolean', description: 'Compute exact answers (default true)' },
          simulate: { ...simulate, description: 'Simulate too; omit for exact only' },
          strict: { type: 'boolean', description: 'Refuse the report if a cell of this grid is a combination the rules forbid (default false: such a cell is shown as "not allowed")' },
          charts: { type: 'array', items: chart },
          price: { ...priceSettingsJsonSchema(), description: 'Fair prices instead of a grid (injury-lab price): every model of a profiles file with every weapon of an attack type, priced from exact duels or (by: battles) from battles at equal ducats; the settings of `injury-lab price`' },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;


export interface AnalysisDef {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly base: Record<string, unknown>;
  readonly vary: readonly VarySpec[];
  readonly dimensions: readonly Dimension[];
  readonly exact: boolean;
  readonly sim?: SimPlan;
  readonly charts: readonly ChartDef[];
  readonly cells: number;
  /** Every cell as checked here, so that running the analysis does not plan them again. */
  readonly planned: readonly PlannedCell[];
  /** The cells the rules forbid (none under strict): shown as "not allowed", never computed. */
  readonly notAllowed: readonly NotAllowedCell[];
  readonly layout: ReportLayout;
}

/** An analysis of fair prices (a `price` in the list): the settings of `injury-lab price`, checked. */
export interface PriceAnalysisDef {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** Its place in the definition's list of analyses: where the page shows it among the grids. */
  readonly at: number;
  /** Its chart's file name under charts/, without the ending. */
  readonly chartFile: string;
  /** `profiles` relative to the working folder, as the report file named it relative to itself. */
  readonly settings: PriceSettings;
}

export interface ReportDef {
  /** File name without .json: the output folder's name under --all. */
  readonly id: string;
  readonly file: string;
  readonly title: string;
  readonly description: string;
  /** The grids of the definition's analyses, in its order. */
  readonly analyses: readonly AnalysisDef[];
  /** Its price analyses, in its order (each knows its place among the grids). */
  readonly prices: readonly PriceAnalysisDef[];
  /** The variant, profiles, roster and catalogue files its analyses read: inputs of the run, like the definition itself. */
  readonly inputs: readonly string[];
  /** The definition file's text, hashed into the manifest. */
  readonly source: string;
}

/** The keys of a grid analysis, which a price analysis does not take. */
const GRID_KEYS = ['scenario', 'vary', 'exact', 'simulate', 'strict', 'charts'] as const;

let compiled: ValidateFunction | undefined;
/** The report schema's validator, compiled on first use (see schemaValidator). */
const reportValidator = (): ValidateFunction => (compiled ??= schemaValidator().compile(reportJsonSchema));

/** "analyses/0/charts/1/type" -> "charts[1].type", for messages that already name the analysis. */
function pathText(parts: readonly string[]): string {
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function allowedKeys(schemaPath: string): string {
  const parts = schemaPath.replace(/^#\//, '').split('/').slice(0, -1);
  let node: unknown = reportJsonSchema;
  for (const p of parts) node = (node as Record<string, unknown>)[p];
  const props = (node as { properties?: Record<string, unknown> }).properties;
  return props ? listAllowed(Object.keys(props)) : '';
}

/** One line for the first schema violation: where, what was given, what is allowed. */
function schemaMessage(err: ErrorObject, doc: unknown): { analysis?: number; text: string } {
  const parts = err.instancePath.split('/').slice(1);
  let analysis: number | undefined;
  let rest = parts;
  if (parts[0] === 'analyses' && parts[1] !== undefined) {
    analysis = Number(parts[1]);
    rest = parts.slice(2);
  }
  const where = pathText(rest);
  const at = where ? `${where}: ` : '';
  let value: unknown = doc;
  for (const p of parts) value = (value as Record<string, unknown> | undefined)?.[p];
  const p = err.params as Record<string, unknown>;
  let text: string;
  switch (err.keyword) {
    case 'additionalProperties':
      text = `${at}unknown key ${showValue(p.additionalProperty)}; allowed: ${allowedKeys(err.schemaPath)}`;
      break;
    case 'required':
      text = `${at}missing ${showValue(p.missingProperty)}`;
      break;
    case 'minItems':
      text =
        rest[rest.length - 1] === 'vary'
          ? `${at}empty list; give at least one field to vary, e.g. "injuryDice=-1..3"`
          : `${at}empty list; give at least ${String(p.limit)}`;
      break;
    case 'enum':
      text = `${at}${showValue(value)} is not allowed; allowed: ${listAllowed((p.allowedValues as unknown[]) ?? [])}`;
      break;
    case 'pattern':
      text = `${at}${showValue(value)} is not allowed; allowed: lower-case letters, digits and "-", starting with a letter or digit`;
      break;
    default:
      text = `${at}${showValue(value)} ${err.message ?? 'is not valid'}`;
  }
  return { ...(analysis !== undefined ? { analysis } : {}), text };
}

function analysisName(doc: unknown, i: number): string {
  const id = (doc as { analyses?: { id?: unknown }[] })?.analyses?.[i]?.id;
  return typeof id === 'string' ? `analysis ${showValue(id)} (analyses[${i}])` : `analyses[${i}]`;
}

/** The variant files a `rules` dimension lists are read from the report file's folder, like a scenario's. */
function varyRulesRelativeTo(v: VarySpec, file: string): VarySpec {
  const relative = (value: unknown) => (typeof value === 'string' && value !== NO_VARIANT ? rulesRelativeTo({ rules: value }, file).rules : value);
  if (typeof v === 'string') {
    const m = /^\s*rules\s*=(.*)$/.exec(v);
    // Read and written back as --vary's values are: a path holding a comma stays one quoted value.
    return m ? `rules=${parseQuotedList(m[1]!.trim(), 'vary rules').map((x) => quoteListValue(String(relative(x)))).join(',')}` : v;
  }
  return v.field === 'rules' && v.values ? { ...v, values: v.values.map(relative) } : v;
}

/** Reads, checks and fills in a report definition. Throws a UsageError naming the file and the analysis. */
export function loadReportDef(file: string, opts: LoadOptions = {}): ReportDef {
  reportIdOf(file); // a bad name is refused before the file is opened
  const { text, value } = readJsonInput(file, { label: file, what: 'a report definition', missing: 'no such report file' });
  return parseReportDef(value, file, text, opts);
}

export interface LoadOptions {
  /** Called after each cell of an analysis is checked: a catalogue's thousands of cells take a while. */
  readonly onPlan?: (analysis: string, done: number, total: number) => void;
  /** Refuse a cell the rules forbid in any analysis (`report --strict`), as an analysis's own "strict" does. */
  readonly strict?: boolean;
  /** The report's id where no file name gives one (a definition piped in: `report -`). */
  readonly id?: string;
}

/**
 * A definition piped in (`report -`): named "standard input" in messages, its variant and profiles files
 * read relative to the working folder, its id `id` (the output folder's name where that is a safe one).
 */
export function parseReportText(input: { text: string; value: unknown }, id: string, opts: LoadOptions = {}): ReportDef {
  return parseReportDef(input.value, STANDARD_INPUT, input.text, { ...opts, id });
}

/** A report id for a definition with no file name: the output folder's name if it would make one, else "report". */
export function reportIdFor(out: string | undefined): string {
  const name = out === undefined ? '' : basename(out);
  return REPORT_ID.test(name) && !DEVICE_NAME.test(name) ? name : 'report';
}

/** maxTrials of an analysis simulated to a precision that names none. */
const REPORT_MAX_TRIALS = 1e8;

/** Report ids name output folders (OUT/ID/ under --all): no dots, slashes or spaces, so never "..". */
const REPORT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** Names Windows keeps for devices: a folder OUT/nul cannot be made there. */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** The id of a report: its file name without .json. Throws a UsageError naming the file if it is not a safe folder name. */
export function reportIdOf(file: string): string {
  const id = basename(file, extname(file));
  if (!REPORT_ID.test(id)) {
    throw refusal(showValue(file), 'a report file name must be at most 64 letters, digits, - and _ (starting with a letter or digit), then .json');
  }
  if (DEVICE_NAME.test(id)) throw refusal(showValue(file), `${showValue(id)} is a device name on Windows`, 'rename the report file');
  return id;
}

export function parseReportDef(doc: unknown, file: string, source = JSON.stringify(doc), opts: LoadOptions = {}): ReportDef {
  const id = opts.id ?? reportIdOf(file);
  // Documents not read by loadReportDef: ajv and messages recurse, so deep nesting is refused first.
  checkJsonDepth(doc, file);
  const validate = reportValidator();
  if (!validate(doc)) {
    const m = schemaMessage(validate.errors![0]!, doc);
    throw refusal(m.analysis !== undefined ? `${file}: ${analysisName(doc, m.analysis)}` : file, m.text);
  }
  const d = doc as {
    title: string;
    description?: string;
    seed?: number;
    analyses: {
      id?: string;
      title?: string;
      description?: string;
      scenario: Record<string, unknown>;
      vary: VarySpec[];
      price?: Record<string, unknown>;
      exact?: boolean;
      simulate?: { trials?: number; precision?: number; maxTrials?: number; seed?: number; batches?: number };
      strict?: boolean;
      charts?: ChartInput[];
    }[];
  };
  // An analysis is a grid (scenario and vary) or a price, never both: the schema takes either's keys.
  d.analyses.forEach((a, i) => {
    const at = `${file}: ${analysisName(doc, i)}`;
    if (a.price !== undefined) {
      const gridKeys = GRID_KEYS.filter((k) => (a as Record<string, unknown>)[k] !== undefined);
      if (gridKeys.length > 0) throw refusal(at, `"price" does not go with ${gridKeys.map((k) => showValue(k)).join(', ')}`, 'an analysis is a grid (scenario, vary) or fair prices (price)');
    } else {
      for (const k of ['scenario', 'vary'] as const) if (a[k] === undefined) throw refusal(at, `missing ${showValue(k)}`, 'an analysis is a grid (scenario, vary) or fair prices (price)');
    }
  });
  const grids = d.analyses.flatMap((a, i) => (a.price === undefined ? [{ a, i }] : []));
  // Every analysis's size is checked before any is planned: a grid over the cap in the last analysis is
  // refused at once, not after the analyses before it have been planned.
  grids.forEach(({ a, i }) => {
    try {
      const s = a.simulate;
      checkSimBudget(checkGridSize(a.vary) ?? 0, s && { ...s, maxTrials: s.maxTrials ?? REPORT_MAX_TRIALS });
    } catch (e) {
      if (e instanceof UsageError) throw refusal(`${file}: ${analysisName(doc, i)}`, e.message);
      throw e;
    }
  });
  const seen = new Set<string>();
  const files = new Set<string>();
  const prices = d.analyses.flatMap((given, i): PriceAnalysisDef[] => {
    if (given.price === undefined) return [];
    const id = given.id ?? `analysis-${i + 1}`;
    try {
      if (seen.has(id)) throw refusal('id', `${showValue(id)} is used by an earlier analysis`, 'give each analysis its own id');
      seen.add(id);
      const price = given.price;
      // Its files are read from the report's folder, as a grid's scenario's are; its title names them as written.
      const settings = checkPriceSettings(rulesRelativeTo(price, file), (name) => `price.${name}`);
      // Its chart's file, among the grids' chart files: a grid's chart named the same is refused there.
      const chartFile = `${id}-prices`;
      files.add(chartFile);
      return [{ id, chartFile, title: given.title ?? `Fair prices${settings.by === 'battles' ? ` from battles at ${settings.ducats} ducats` : ''} of every model with ${settings.attackType === 'any' ? 'each weapon' : `every ${settings.attackType} weapon`} of ${priceSourceText(price as Pick<PriceSettings, PriceSource>)}`, description: given.description ?? '', at: i, settings }];
    } catch (e) {
      if (e instanceof UsageError) throw refusal(`${file}: ${analysisName(doc, i)}`, e.message);
      throw e;
    }
  });
  const analyses = grids.map(({ a: given, i }): AnalysisDef => {
    // An analysis written in a hurry needs no id or title: its place and what it varies give them.
    const a = { ...given, id: given.id ?? `analysis-${i + 1}`, scenario: rulesRelativeTo(given.scenario, file), vary: given.vary.map((v) => varyRulesRelativeTo(v, file)) };
    const name = analysisName(doc, i);
    try {
      if (seen.has(a.id)) throw refusal('id', `${showValue(a.id)} is used by an earlier analysis`, 'give each analysis its own id');
      seen.add(a.id);
      const strict = opts.strict === true || a.strict === true;
      const dims = sweepDimensions(a.scenario, a.vary, { strict });
      const { cells, notAllowed } = planGrid(a.scenario, dims, {
        ...(opts.onPlan ? { onCell: (done: number, total: number) => opts.onPlan!(a.id, done, total) } : {}),
        strict,
      });
      const first = cells[0]!.scenario;
      const layout = resolveKind(first).kind.layout(first);
      const s = a.simulate;
      if (s && (s.trials === undefined) === (s.precision === undefined)) {
        throw refusal('simulate', `give either "trials" or "precision"${s.trials !== undefined ? ', not both' : ''}`);
      }
      if (a.exact === false && !s) throw refusal('exact', 'false needs "simulate": an analysis must compute something');
      // A kind with no exact answer (a battle) is simulated: SIMULATED_ONLY_TRIALS a cell unless "simulate" says.
      const exactKind = resolveKind(first).kind.exact !== undefined;
      if (!exactKind && a.exact === true) throw refusal('exact', `true: a ${first.kind} has no exact answer (it is simulated only)`, 'leave "exact" out, or false');
      const batches = s?.batches ?? DEFAULT_BATCHES;
      if (s?.trials !== undefined && s.trials < batches) throw refusal('simulate.trials', `${s.trials} is fewer than the ${batches} batches`, 'allowed: at least one trial per batch');
      const charts = (a.charts && a.charts.length > 0 ? a.charts : defaultCharts(dims, layout)).map((c, k) => {
        const checked = checkChart(c, dims, layout, `charts[${k}] (${c.type})`);
        let fileName = c.file ?? `${a.id}-${c.type}`;
        for (let n = 2; files.has(fileName) && c.file === undefined; n++) fileName = `${a.id}-${c.type}-${n}`;
        if (files.has(fileName)) throw refusal(`charts[${k}]`, `file ${showValue(fileName)} is used by another chart`, 'give each chart its own file');
        files.add(fileName);
        return { ...checked, file: fileName } as unknown as ChartDef;
      });
      return {
        id: a.id,
        title: a.title ?? `${first.kind} by ${dims.map((dim) => dim.title.toLowerCase()).join(' and ')}`,
        description: a.description ?? '',
        base: a.scenario,
        vary: a.vary,
        dimensions: dims,
        exact: exactKind && (a.exact ?? true),
        ...(s || !exactKind
          ? {
              sim: {
                ...(s?.precision !== undefined ? { precision: s.precision, maxTrials: s.maxTrials ?? REPORT_MAX_TRIALS } : { trials: s?.trials ?? SIMULATED_ONLY_TRIALS }),
                seed: s?.seed ?? d.seed ?? 1,
                batches: s?.precision !== undefined ? 1 : batches,
              },
            }
          : {}),
        charts,
        cells: cells.length + notAllowed.length,
        planned: cells,
        notAllowed,
        layout,
      };
    } catch (e) {
      if (e instanceof UsageError) throw refusal(`${file}: ${name}`, e.message);
      throw e;
    }
  });
  const inputs = d.analyses.flatMap((given) => {
    if (given.price !== undefined) return [];
    const scenario = rulesRelativeTo(given.scenario, file);
    const varied = given.vary.map((v) => varyRulesRelativeTo(v, file)).flatMap((v) => (typeof v === 'object' && v.field === 'rules' ? (v.values ?? []) : []));
    return [...namedFiles(scenario), ...varied.filter((x): x is string => typeof x === 'string' && x !== NO_VARIANT)];
  });
  return {
    id,
    file,
    title: d.title,
    description: d.description ?? '',
    analyses,
    prices,
    inputs: [...new Set([...inputs, ...prices.flatMap((p) => priceSourceFiles(p.settings))])],
    source,
  };
}
