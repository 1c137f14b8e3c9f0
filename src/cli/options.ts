import type { Argv } from 'yargs';
import { listAllowed, showValue } from '../errors.js';
import { notOneOf, refusal } from '../messages.js';
import { editionTable } from '../model/edition-table.js';
import { readProfilesFile, readVariantFile } from '../input/read-files.js';
import { rosterSystem } from '../import/roster.js';
import { readCatalogueFilesOnce, readRosterFileOnce } from '../input/read-once.js';
import { resetUnmodelledWarnings } from '../input/scenario.js';
import { ONE_SIDED_SLOTS, PROFILE_KEYS, SCENARIO_KEYWORDS, SIDE_PROFILE_KEY, SIDE_SLOTS, sideFromText, sideKeysOf } from '../input/sides.js';
import { coerceFlagValue, describeAllowed, fieldDefault, kebab, parseScenario, readScenarioFile, scenarioSystemAndKind } from '../input/scenario.js';
import type { Scenario } from '../model/types.js';
import { FORMATS, formatsOf, type Format, type Presenter } from '../present/tables/presenter.js';
import { wordWrap } from '../text.js';
import { systems } from '../rules/registry.js';
import { HELP_FIELDS, type ArgsScan } from './args.js';

type System = (typeof systems)[number];
type Field = System['fields'][number];

/** The --format flag of a command that prints with `presenter`: the formats it offers, table (the default) first. */
export function addFormatOption<T, R, F extends Format>(y: Argv<T>, presenter: Presenter<R, F | 'table'>) {
  return y.option('format', {
    type: 'string',
    describe: `Output format: ${formatsOf(presenter).join(', ')}`,
    default: 'table',
  });
}

/** The --format a command was given, if `presenter` offers it; `command` names it in the message. */
export function parseFormat<R, F extends Format>(value: unknown, presenter: Presenter<R, F>, command: string): F {
  const offered = formatsOf(presenter);
  if (typeof value === 'string' && (offered as readonly string[]).includes(value)) return value as F;
  const known = typeof value === 'string' && (FORMATS as readonly string[]).includes(value);
  throw notOneOf('--format', value, `a format${known ? ` ${command} can print` : ''}`, offered);
}

/** Every field name of every system, once (systems may share a name, each with its own spec). */
function fieldNames(registry: readonly System[]): string[] {
  return [...new Set(registry.flatMap((s) => s.fields.map((f) => f.name)))];
}

const SCENARIO_GROUP = 'Scenario:';

/** The groups --help-fields lists the scenario options --help leaves out under, in this order. */
const PROFILES_GROUP = 'Profiles and rosters:';
const SIDES_GROUP = 'Sides (a duel, a battle):';
const VARIANTS_GROUP = 'Variants:';

/**
 * A scenario option most command lines do without: yargs takes it but its --help leaves it out, to stay
 * short; --help-fields lists it, where its group applies to the scope.
 */
interface ReferenceOption {
  readonly flag: string;
  readonly type: 'string' | 'boolean';
  readonly array?: boolean;
  readonly describe: string;
  readonly group: string;
  /** Keywords come from a system's rule table: listed only where a system in scope has one. */
  readonly keywords?: boolean;
  /** The side of a duel it gives: listed only where a kind in scope has that side. */
  readonly side?: string;
}

const REFERENCE_OPTIONS: readonly ReferenceOption[] = [
  { flag: 'profiles', type: 'string', describe: 'Profiles file: named weapons and models with costs (`injury-lab profiles --schema` the format)', group: PROFILES_GROUP },
  { flag: 'roster', type: 'string', describe: 'A roster exported from NewRecruit (.rosz, .ros or its JSON), read as a profiles file (`injury-lab profiles --roster FILE` shows what it holds); with --catalogue, my warband against theirs: both sets of names', group: PROFILES_GROUP },
  { flag: 'catalogue', type: 'string', array: true, describe: "BattleScribe catalogue files (.gst, .cat) read as profiles of everything they offer, each at its faction's price; with --roster, the roster's names and theirs together: a name both hold is the roster's, the catalogue's is NAME (catalogue) (a warning says which)", group: PROFILES_GROUP },
  { flag: 'allow-unmodelled', type: 'boolean', describe: "Use a roster's profile even when it holds what nothing models (a weapon's unknown keyword): leave it out, with a warning", group: PROFILES_GROUP },
  ...ONE_SIDED_SLOTS.map((slot) => ({ flag: slot.key, type: 'string' as const, describe: slot.help, group: PROFILES_GROUP })),
  ...ONE_SIDED_SLOTS.map((slot) => ({ flag: kebab(slot.keywordsKey), type: 'string' as const, describe: slot.keywordsHelp, group: PROFILES_GROUP, keywords: true })),
  ...sideKeysOf(systems).flatMap((key) => [
    { flag: key, type: 'string' as const, describe: `Side ${key} of a duel or battle: its fields as FIELD=VALUE pairs (over a scenario file's "${key}", field by field; its side fields are listed above, with an example)`, group: SIDES_GROUP, side: key },
    { flag: `${key}-profile`, type: 'string' as const, describe: `Side ${key}'s model and weapon from --profiles, --roster or --catalogue: a "MODEL with WEAPON", or a model (--${key} fields win)`, group: SIDES_GROUP, side: key },
  ]),
  { flag: 'rules', type: 'string', describe: 'Variant file: rule changes over the edition (`injury-lab rules` lists every rule; `injury-lab rules --schema` the file format)', group: VARIANTS_GROUP },
];

/**
 * Adds the scenario flags: --system, --edition, --kind, --help-fields, the options of REFERENCE_OPTIONS
 * and one kebab-case flag per field of every system. yargs takes them all as strings; which system's
 * spec converts a field flag is known only once the system and kind are (rawScenarioFromArgv). yargs
 * lists only --system, --edition, --kind and --help-fields, so that --help shows first what most
 * command lines need: the field flags differ per system (--height-inches is a different rule in each),
 * so fieldReference lists them per system and kind, with the options of REFERENCE_OPTIONS.
 */
export function addScenarioOptions<T>(y: Argv<T>): Argv<T> {
  const texts = scenarioOptionTexts(ALL);
  let out: Argv<T> = y
    .option('system', { type: 'string', describe: texts.system, group: SCENARIO_GROUP })
    .option('edition', { type: 'string', describe: texts.edition, group: SCENARIO_GROUP })
    .option('kind', { type: 'string', describe: texts.kind, group: SCENARIO_GROUP })
    .option(HELP_FIELDS, {
      type: 'boolean',
      describe: 'Show every field of the scenario in scope, with allowed values and defaults, and the options for profiles, duel sides and variants',
      group: SCENARIO_GROUP,
    }) as Argv<T>;
  for (const o of REFERENCE_OPTIONS) out = out.option(o.flag, { type: o.type, ...(o.array ? { array: true } : {}), describe: o.describe, hidden: true }) as Argv<T>;
  for (const name of fieldNames(systems)) out = out.option(kebab(name), { type: 'string', hidden: true }) as Argv<T>;
  return out;
}

/** The systems and kinds a command line is about: one system and kind, or all that it leaves open. */
export interface FieldScope {
  readonly systems: readonly System[];
  /** Undefined: every kind of each system. */
  readonly kind?: string;
}

const ALL: FieldScope = { systems };

/**
 * The scope of a command line, for its help and its suggestions: the system and kind of the scenario
 * file with --system/--kind applied when a readable file is given (as the command will read them), else
 * --system and --kind, each of them left out meaning all. Never throws: a bad file or system is
 * reported when the command runs.
 */
export function scenarioScope(scan: ArgsScan): FieldScope {
  const file = scan.positionals[1];
  if (file !== undefined) {
    try {
      const raw = { ...readScenarioFile(file), ...(scan.system ? { system: scan.system } : {}), ...(scan.kind ? { kind: scan.kind } : {}) };
      const { system, kind } = scenarioSystemAndKind(raw);
      return { systems: [system], kind };
    } catch {
      // Not a readable scenario file: the scope of the flags alone.
    }
  }
  const named = systems.find((s) => s.id === scan.system);
  return { systems: named ? [named] : systems, ...(scan.kind ? { kind: scan.kind } : {}) };
}

/** Each system of a scope with its kinds in the scope and the fields they read. */
function scopeGroups(scope: FieldScope): { system: System; kinds: string[]; fields: Field[] }[] {
  return scope.systems
    .map((system) => {
      const kinds = system.kinds.map((k) => k.id).filter((k) => scope.kind === undefined || k === scope.kind);
      return { system, kinds, fields: system.fields.filter((f) => f.kinds.some((k) => kinds.includes(k))) };
    })
    .filter((g) => g.kinds.length > 0);
}

/** The field flags (kebab-case, no dashes) of a scope. */
export function scopeFlags(scope: FieldScope): string[] {
  return [...new Set(scopeGroups(scope).flatMap((g) => g.fields.map((f) => kebab(f.name))))];
}

/** Descriptions of --system, --edition and --kind: allowed values and defaults of the systems in scope. */
function scenarioOptionTexts(scope: FieldScope): { system: string; edition: string; kind: string } {
  const per = (s: System, list: string) => (scope.systems.length > 1 ? `${s.id}: ${list}` : list);
  return {
    system: `Rule system: ${systems.map((s) => s.id).join(', ')} (default: the scenario file's, else ${systems[0]!.id})`,
    edition: `Rule edition: ${scope.systems
      .map((s) => per(s, `${s.editions.map((e) => e.id).join(', ')} (default: ${s.defaultEdition})`))
      .join('; ')}`,
    kind: `Scenario kind: ${scope.systems.map((s) => per(s, `${s.kinds.map((k, i) => (i === 0 ? `${k.id} (default)` : k.id)).join(', ')}`)).join('; ')}`,
  };
}

/** A field's default, per edition where it differs between editions. */
function defaultText(system: System, field: Field): string {
  const at = (edition: string) => String(fieldDefault(field, editionTable(system, edition)));
  const values = system.editions.map((e) => ({ edition: e.id, value: at(e.id) }));
  return values.every((v) => v.value === values[0]!.value) ? values[0]!.value : values.map((v) => `${v.edition} ${v.value}`).join(', ');
}

/** One entry of a help section: a flag (or a side's field), what it means, and its allowed values and default. */
interface HelpEntry {
  readonly name: string;
  readonly description: string;
  readonly facts?: string;
}

/** Help sections under their headings, every entry's text in one column, laid out like yargs' own groups. */
function renderSections(sections: readonly { heading: string; entries: readonly HelpEntry[] }[], width: number): string {
  const nameWidth = Math.max(0, ...sections.flatMap((s) => s.entries.map((e) => e.name.length)));
  const column = Math.min(2 + nameWidth + 2, Math.floor(width * 0.4));
  const textWidth = Math.max(30, width - column);
  const out: string[] = [];
  for (const { heading, entries } of sections) {
    out.push(...wordWrap(heading, width));
    for (const { name, description, facts } of entries) {
      const lines = [...wordWrap(description, textWidth), ...wordWrap(facts ?? '', textWidth)];
      const first = `  ${name}`;
      if (first.length + 2 > column) out.push(first, ...lines.map((l) => ' '.repeat(column) + l));
      else out.push(first.padEnd(column) + lines[0]!, ...lines.slice(1).map((l) => ' '.repeat(column) + l));
    }
    out.push('');
  }
  return out.join('\n').trimEnd();
}

/**
 * The field flags of a scope, one section per system ("d20-warband fields (fall):"), each flag with its
 * system's description, allowed values and default; a kind with sides (a duel) adds the fields each side
 * takes; then the options of REFERENCE_OPTIONS that apply to the scope. What --help-fields prints.
 */
export function fieldReference(scope: FieldScope, width: number): string {
  const groups = scopeGroups(scope);
  const sections: { heading: string; entries: HelpEntry[] }[] = [];
  for (const { system, kinds, fields } of groups) {
    sections.push({
      heading: `${system.id} fields (${kinds.join(', ')}):`,
      entries: fields.map((f) => {
        const flag = `--${kebab(f.name)}`;
        const readBy = f.kinds.filter((k) => kinds.includes(k));
        const facts = [
          `Allowed: ${describeAllowed(f.schema)}${f.schema.type === 'boolean' ? ` (${flag} alone: true)` : ''}.`,
          `Default: ${defaultText(system, f)}.`,
          ...(readBy.length < kinds.length ? [`Kinds: ${readBy.join(', ')}.`] : []),
        ].join(' ');
        return { name: flag, description: f.description, facts };
      }),
    });
    // A kind with sides (a duel): the fields each side takes, written FIELD=VALUE in its flag.
    for (const kind of system.kinds.filter((k) => kinds.includes(k.id) && k.sides)) {
      const sides = kind.sides!;
      // A system without keywords in its rule table takes none on a side (keywordFields refuses them).
      const keywords = 'keywords' in system.rules.spec;
      sections.push({
        heading: `${system.id} side fields (${kind.id}: ${sides.keys.map((k) => `--${k} FIELD=VALUE,...`).join(', ')} (--${sides.keys[0]} "${sides.example}"); "${sides.keys.join('", "')}" objects in a file):`,
        entries: [
          ...SIDE_SLOTS.flatMap((slot) => [
            { name: slot.key, description: slot.help, facts: 'Allowed: a name the profiles list.' },
            ...(keywords ? [{ name: slot.keywordsKey, description: slot.keywordsHelp, facts: 'Allowed: keywords separated by commas.' }] : []),
          ]),
          ...sides.fields.map((f) => ({ name: f.name, description: f.description, facts: `Allowed: ${describeAllowed(f.schema)}. Default: ${defaultText(system, f)}.` })),
        ],
      });
    }
  }
  const hasKeywords = groups.some((g) => 'keywords' in g.system.rules.spec);
  const sideKeys = new Set(groups.flatMap((g) => g.system.kinds.filter((k) => g.kinds.includes(k.id)).flatMap((k) => k.sides?.keys ?? [])));
  const options = REFERENCE_OPTIONS.filter((o) => (!o.keywords || hasKeywords) && (o.side === undefined || sideKeys.has(o.side)));
  for (const heading of [...new Set(options.map((o) => o.group))]) {
    sections.push({ heading, entries: options.filter((o) => o.group === heading).map((o) => ({ name: `--${o.flag}`, description: o.describe })) });
  }
  // A file takes the fields under the names yargs turns into these flags.
  const names = 'Field flags; a scenario file takes the same fields in camelCase (--height-inches: "heightInches").';
  return `${wordWrap(names, width).join('\n')}\n\n${renderSections(sections, width)}`;
}

/**
 * The scope --help-fields lists: scenarioScope's, but a system or kind that is not one is refused as a
 * run of the same command line refuses it, rather than listing nothing.
 */
export function fieldReferenceScope(scan: ArgsScan): FieldScope {
  const scope = scenarioScope(scan);
  const unknownSystem = scan.system !== undefined && !systems.some((s) => s.id === scan.system);
  // The scope is empty only for a system or kind that is not one, which scenarioSystemAndKind refuses.
  if (unknownSystem || scopeGroups(scope).length === 0) scenarioSystemAndKind({ system: scan.system, kind: scan.kind });
  return scope;
}

/**
 * Fits a command's --help to the scope of its command line: --system, --edition and --kind name that
 * scope's values, and the epilogue says where the rest is: the field reference of --help-fields.
 */
export function scenarioHelp<T>(y: Argv<T>, command: string, scope: FieldScope, width: number): Argv<T> {
  const texts = scenarioOptionTexts(scope);
  const groups = [...new Set(REFERENCE_OPTIONS.map((o) => o.group))].map(
    (group) => `${group.replace(/:$/, '').toLowerCase()} (${REFERENCE_OPTIONS.filter((o) => o.group === group).map((o) => `--${o.flag}`).join(', ')})`,
  );
  const pointer = [
    `Every field of the scenario, with its allowed values and default: \`injury-lab ${command} --kind attack --${HELP_FIELDS}\` `,
    '(of the system and kind that --system, --kind or a scenario file name, as here). ',
    `It also lists the options this help leaves out: ${groups.slice(0, -1).join(', ')} and ${groups.at(-1)}.`,
  ].join('');
  return y
    .describe('system', texts.system)
    .describe('edition', texts.edition)
    .describe('kind', texts.kind)
    .epilogue(wordWrap(pointer, width).join('\n')) as Argv<T>;
}

/** Where a field name belongs in systems other than `system`: "d20-warband (attack, turns)". */
function owners(name: string, system: System, registry: readonly System[]): string {
  return registry
    .filter((s) => s !== system)
    .flatMap((s) => s.fields.filter((f) => f.name === name).map((f) => `${s.id} (${f.kinds.join(', ')})`))
    .join(', ');
}

/**
 * The field flags given, converted with the spec of `system` (the system and kind the scenario is of).
 * A flag of another system, or of another kind, is refused in one line naming the flag; the field's
 * value itself is checked by parseScenario, as a file's is.
 */
export function coerceFieldFlags(
  argv: Readonly<Record<string, unknown>>,
  system: System,
  kind: string,
  registry: readonly System[] = systems,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of fieldNames(registry)) {
    const given = argv[name];
    if (given === undefined) continue;
    const flag = `--${kebab(name)}`;
    if (Array.isArray(given)) throw refusal(flag, `given more than once (${given.map(showValue).join(', ')})`, 'give it once');
    const field = system.fields.find((f) => f.name === name);
    if (!field) {
      const allowed = system.fields.filter((f) => f.kinds.includes(kind)).map((f) => `--${kebab(f.name)}`);
      throw refusal(flag, `not a field of ${system.id} kind "${kind}"; it belongs to ${owners(name, system, registry)}`, `allowed: ${listAllowed(allowed)}`);
    }
    const value = coerceFlagValue(field, given);
    // The words of parseScenario's message for a file's field of another kind, naming the flag.
    if (!field.kinds.includes(kind)) throw refusal(flag, `${showValue(value)} is not read by kind "${kind}"`, `it is a field of kind ${listAllowed(field.kinds)}`);
    out[name] = value;
  }
  return out;
}

/**
 * The raw fields of a scenario file overridden by --system, --edition, --kind and the field flags, not
 * yet validated: a sweep validates each cell, with the varied fields filled in, and fills defaults per
 * cell (an edition's own defaults). The field flags are converted with the spec of the scenario's
 * system (coerceFieldFlags).
 */
export function rawScenarioFromArgv(argv: Readonly<Record<string, unknown>>, path: unknown): Record<string, unknown> {
  const origin = typeof path === 'string' ? path : '';
  const raw: Record<string, unknown> = typeof path === 'string' ? readScenarioFile(path) : {};
  resetUnmodelledWarnings();
  for (const key of ['system', 'edition', 'kind', 'rules', 'profiles', 'roster', 'catalogue', ...PROFILE_KEYS, ...SCENARIO_KEYWORDS]) if (argv[key] !== undefined) raw[key] = argv[key];
  // Only a flag that is given says so: a scenario file's "allowUnmodelled": true stands otherwise.
  if (argv.allowUnmodelled === true) raw.allowUnmodelled = true;
  const sideFlags = sideKeysOf(systems).filter((key) => argv[key] !== undefined || argv[profileFlag(key)] !== undefined);
  if (!fieldNames(systems).some((name) => argv[name] !== undefined) && sideFlags.length === 0) return raw;
  // The field flags are read with the spec of the system a variant or profiles file names, when only it does.
  if (typeof raw.rules === 'string' && raw.system === undefined) raw.system = readVariantFile(raw.rules).system.id;
  if (typeof raw.profiles === 'string' && raw.system === undefined) raw.system = readProfilesFile(raw.profiles).system.id;
  // Read once: parseScenario takes the same tree when it reads the scenario whole.
  if (typeof raw.roster === 'string' && raw.system === undefined) raw.system = rosterSystem(readRosterFileOnce(raw.roster)).id;
  if (Array.isArray(raw.catalogue) && raw.system === undefined) raw.system = rosterSystem(readCatalogueFilesOnce(raw.catalogue.map(String))).id;
  const { system, kind } = scenarioSystemAndKind(raw, origin);
  return { ...raw, ...coerceFieldFlags(argv, system, kind), ...coerceSideFlags(argv, sideFlags, raw, system, kind) };
}

/** yargs' name of --a-profile. */
const profileFlag = (key: string) => `${key}Profile`;

/** The side flags given (--a, --b, --a-profile, --b-profile), each laid over the scenario file's side field by field. */
function coerceSideFlags(argv: Readonly<Record<string, unknown>>, keys: readonly string[], raw: Readonly<Record<string, unknown>>, system: System, kind: string): Record<string, unknown> {
  const sides = system.kinds.find((k) => k.id === kind)?.sides;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const given = argv[key];
    const flag = given !== undefined ? `--${key}` : `--${key}-profile`;
    if (Array.isArray(given)) throw refusal(flag, `given more than once (${given.map(showValue).join(', ')})`, 'give it once, with all the side\'s fields');
    if (!sides || !sides.keys.includes(key)) {
      const withSides = system.kinds.filter((k) => k.sides?.keys.includes(key)).map((k) => k.id);
      throw refusal(flag, `not a side of ${system.id} kind "${kind}"`, `sides are given to kind ${listAllowed(withSides)}`);
    }
    const file = raw[key];
    const base = typeof file === 'object' && file !== null && !Array.isArray(file) ? file : {};
    const profile = argv[profileFlag(key)];
    if (Array.isArray(profile)) throw refusal(`--${key}-profile`, `given more than once (${profile.map(showValue).join(', ')})`, 'give it once');
    out[key] = { ...base, ...(profile !== undefined ? { [SIDE_PROFILE_KEY]: profile } : {}), ...(given !== undefined ? sideFromText(String(given), sides.fields, flag, coerceFlagValue) : {}) };
  }
  return out;
}

/**
 * The scenario a command was asked about: the fields of the optional scenario file, overridden by any
 * field flags, then validated as a whole.
 */
export function scenarioFromArgv(argv: Readonly<Record<string, unknown>>, fileArg = 'scenario'): Scenario {
  const path = argv[fileArg];
  return parseScenario(rawScenarioFromArgv(argv, path), typeof path === 'string' ? path : '');
}
