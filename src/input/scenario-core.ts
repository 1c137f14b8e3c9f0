import type { ValidateFunction } from 'ajv';
import { listAllowed, showValue } from '../errors.js';
import { forbiddenByRules, notAllowed, notOneOf, refusal, refusalAt } from '../messages.js';
import { schemaValidator } from '../model/ajv.js';
import { DEFAULT_SYSTEM, findSystem, resolveKind, systems, type AnyScenario } from '../rules/registry.js';
import { perSystem } from './system-schema.js';
import { editionTable, isCheckedTable } from '../model/edition-table.js';
import { describeAllowed, fieldJsonSchema, inAllowedCase, notAllowedValue } from '../model/field-schema.js';
import { applyRuleChanges, ruleChangesJsonSchema } from '../model/rule-variant.js';
import { parseVariant, type Variant } from './variant.js';
import type { Profile, Profiles } from '../model/profiles.js';
import { warbandNote } from '../model/warband-profiles.js';
import { ONE_SIDED_SLOTS, PROFILE_KEYS, SCENARIO_KEYWORDS, givesKeywords, keywordList, mergeSides, sideJsonSchema, sidesOf, validateSides } from './sides.js';
import type { RosterTree } from '../import/read-roster.js';
import { rosterSystem } from '../import/roster.js';
import { importedProfilesOnce, type ImportedTrees } from './profiles-once.js';
import { leftOutNotice, optionItems, optionNotice, stoppingItems, unmodelledMessage } from '../import/unmodelled.js';
import { BATTLE_KIND } from '../rules/trench-crusade/battle/kind.js';
import { battleOfScenario, type BattleScenario } from '../rules/trench-crusade/battle/resolved.js';
import { readBattleScenario } from './battle-core.js';
import type { FieldSpec, FieldValue, GivenFields, KindSides, KindSpec, RuleTable, Scenario, SystemSpec } from '../model/types.js';

/**
 * Scenario parsing that reads no file itself: the files a scenario names (a variant, profiles, a roster,
 * catalogues) come from a ScenarioFiles reader. src/input/scenario.ts gives the CLI's reader (files on
 * disk, rosters and catalogues read once per process); src/web/engine.ts a page's (files the user
 * opened). One parser for both, so a page shows what the CLI computes.
 */

/** Where the files a scenario names come from: each refuses, in one UsageError line, what it cannot give. */
export interface ScenarioFiles {
  /** The variant file a scenario's `rules` names. */
  variant(path: string): Variant;
  /** The profiles file a scenario's `profiles` names. */
  profiles(path: string): Profiles;
  /** The roster file a scenario's `roster` names, as a roster tree. */
  roster(path: string): RosterTree;
  /** The catalogue files a scenario's `catalogue` names, as one roster tree. */
  catalogue(paths: readonly string[]): RosterTree;
  /** How a user of this host allows what nothing models ("give --allow-unmodelled", the CLI's, by default; a page names its box). */
  readonly allowUnmodelled?: string;
  /**
   * Told, as a line, what the user's allowing left out of a profile a scenario uses: the CLI prints it
   * as a warning, a page may show it. The scenario carries the same as `notModelled` whether told or not.
   */
  notice?(line: string): void;
}

/** What of a host's ScenarioFiles speaks of what nothing models: how to allow it, and who is told. */
export type UnmodelledHost = Pick<ScenarioFiles, 'allowUnmodelled' | 'notice'>;

/** Keys every scenario may carry besides the fields of its system. */
/** `"rules": "none"`: the edition's own rules, no variant. */
export const NO_VARIANT = 'none';

/** The label a scenario carries when --allow-unmodelled left something of its profiles out: "weapon "X": "QUAKE 2"; ...". */
export const NOT_MODELLED = 'notModelled';

const META_KEYS = new Set(['system', 'edition', 'kind', '$schema', 'name', 'description', 'rules', 'variant', 'profiles', 'roster', 'catalogue', 'allowUnmodelled', ...PROFILE_KEYS, ...SCENARIO_KEYWORDS, NOT_MODELLED]);

/** Keys the scenario's schema never sees: read here (files, profiles, keywords), or kept as labels after it. */
const LEFT_TO_THE_SCHEMA = new Set(['rules', 'variant', 'profiles', 'roster', 'catalogue', 'allowUnmodelled', ...PROFILE_KEYS, ...SCENARIO_KEYWORDS]);

/** The keys that name where profiles come from: profiles alone, or roster and catalogue, one or both. */
const PROFILE_SOURCES = ['profiles', 'roster', 'catalogue'] as const;

export { describeAllowed };

/** A field's default under a rule table (an edition's or a variant's), given the scenario's other fields. */
export function fieldDefault(field: FieldSpec, rules: RuleTable, given: GivenFields = {}): FieldValue {
  // A field's default function takes its own system's table type; `rules` is that system's table.
  return typeof field.default === 'function' ? field.default(rules as never, given) : field.default;
}

/** The partial table of the rules where `table` differs from `base` (nested like the table), or undefined. */
function ruleDifferences(base: RuleTable, table: RuleTable): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(table)) {
    const under = base[key];
    const diff = typeof value === 'object' && value !== null && typeof under === 'object' && under !== null ? ruleDifferences(under, value) : value === under ? undefined : value;
    if (diff !== undefined) out[key] = diff;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * A scenario as outputs show it: its fields, and `rules` only where they differ from its edition's (the
 * changes, not the whole table). Read back by parseScenario it is the same scenario.
 */
export function scenarioRecord(scenario: Scenario): Record<string, unknown> {
  // A battle's warbands as read (every attack's sequence) are said by its warbands as written.
  const { rules, ...all } = scenario;
  const fields = battleOfScenario(scenario) ? Object.fromEntries(Object.entries(all).filter(([key]) => key !== 'battle')) : all;
  const system = systems.find((s) => s.id === scenario.system);
  const changes = system ? ruleDifferences(editionTable(system, scenario.edition), rules) : undefined;
  return changes ? { ...fields, rules: changes } : fields;
}

/** A field's command-line flag, without its dashes: injuryDice is --injury-dice. */
export const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function systemProperties(system: SystemSpec, kind?: string): Record<string, unknown> {
  const props: Record<string, unknown> = {
    $schema: { type: 'string' },
    name: { type: 'string', description: 'A label for this scenario (reports and comparisons show it)' },
    description: { type: 'string' },
    system: { const: system.id },
    edition: { enum: system.editions.map((e) => e.id), default: system.defaultEdition },
    kind: kind ? { const: kind } : { enum: system.kinds.map((k) => k.id) },
  };
  props.rules = {
    description: "Rule changes over the edition's table (`injury-lab rules` lists them): a variant file's path (relative to this file), a partial table, or a variant inline",
    anyOf: [{ type: 'string' }, ruleChangesJsonSchema(system), { type: 'object', required: ['rules'] }],
  };
  props.variant = { type: 'string', description: 'The name outputs give the rule changes' };
  props.profiles = { type: 'string', description: 'A profiles file (relative to this file): named weapons and models with costs' };
  props.roster = { type: 'string', description: 'A roster exported from NewRecruit (.rosz, .ros or its JSON; relative to this file), read as a profiles file (docs/import.md)' };
  props.catalogue = {
    description: 'BattleScribe catalogue files (.gst, .cat; relative to this file), read as profiles of everything they offer (docs/import.md)',
    anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, minItems: 1 }],
  };
  props.allowUnmodelled = { type: 'boolean', description: "Use a roster's weapon even when its keywords hold a token nothing models (left out, with a warning)" };
  for (const slot of ONE_SIDED_SLOTS) {
    props[slot.key] = { type: 'string', description: slot.help };
    props[slot.keywordsKey] = { description: `${slot.keywordsHelp}, or a list`, anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string', minLength: 1 } }] };
  }
  props[NOT_MODELLED] = { type: 'string', description: "Written by injury-lab in its outputs: what --allow-unmodelled left out of a roster's profiles" };
  for (const f of system.fields) if (!kind || f.kinds.includes(kind)) props[f.name] = fieldJsonSchema(f);
  // A side key two kinds take (a duel's `a`, a battle's) is either kind's side.
  const sideSchemas = new Map<string, Record<string, unknown>[]>();
  for (const k of system.kinds) {
    if (!k.sides || (kind && k.id !== kind)) continue;
    for (const key of k.sides.keys) sideSchemas.set(key, [...(sideSchemas.get(key) ?? []), sideJsonSchema(k.sides)]);
  }
  for (const [key, schemas] of sideSchemas) props[key] = schemas.length === 1 ? schemas[0]! : { anyOf: schemas };
  return props;
}

/**
 * The published JSON Schema for scenario files (draft-07, which most editors understand). One branch per
 * system; a file without `system` is a Trench Crusade scenario.
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://injury-lab.invalid/scenario.schema.json',
    title: 'injury-lab scenario',
    type: 'object',
    properties: { system: { enum: systems.map((s) => s.id), default: DEFAULT_SYSTEM } },
    allOf: perSystem((system) => ({ properties: systemProperties(system), additionalProperties: false })),
  };
}

const kindValidators = new Map<string, ValidateFunction>();

/** Validator for the fields one kind reads; unknown keys are rejected by additionalProperties. */
function validatorFor(system: SystemSpec, kind: string): ValidateFunction {
  const key = `${system.id}/${kind}`;
  let v = kindValidators.get(key);
  if (!v) {
    // The rule changes are checked on their own (applyRuleChanges), with messages that name the rule.
    const { rules: _rules, profiles: _profiles, roster: _roster, catalogue: _catalogue, ...fields } = systemProperties(system, kind);
    v = schemaValidator().compile({ type: 'object', properties: fields, additionalProperties: false });
    kindValidators.set(key, v);
  }
  return v;
}

function where(origin: string): string {
  return origin ? `${origin}: ` : '';
}

/**
 * The system and kind raw fields name, with the defaults filled in. Only a missing key means the
 * default: an explicit null is refused (a template left unfilled), as it is for every other field.
 */
export function scenarioSystemAndKind(input: Readonly<Record<string, unknown>>, origin = ''): { system: SystemSpec; kind: string } {
  const at = where(origin);
  const systemIds = systems.map((s) => s.id);
  if (input.system === null) throw notAllowed(`${at}system`, null, `${listAllowed(systemIds)} (or leave system out for ${DEFAULT_SYSTEM})`);
  const systemId = input.system ?? DEFAULT_SYSTEM;
  const system = typeof systemId === 'string' ? findSystem(systemId) : undefined;
  if (!system) throw notOneOf(`${at}system`, systemId, 'a known system', systemIds);
  const kindIds = system.kinds.map((k) => k.id);
  if (input.kind === null) throw notAllowed(`${at}kind`, null, `${listAllowed(kindIds)} (or leave kind out for ${kindIds[0]!})`);
  const kind = input.kind ?? kindIds[0]!;
  if (typeof kind !== 'string' || !kindIds.includes(kind)) {
    throw notOneOf(`${at}kind`, kind, `a kind of ${system.id}`, kindIds);
  }
  return { system, kind };
}

/**
 * A scenario's `rules` when it names a variant file ("rules": "FILE") or holds a variant inline
 * ({ "name", "edition", "rules": {...} }): the variant, and the input with the variant's system and
 * edition filled in where the scenario leaves them out. A scenario that gives another edition than its
 * variant's is refused: the changes were written against the variant's edition.
 */
function withVariant(input: Record<string, unknown>, at: string, files: ScenarioFiles): { input: Record<string, unknown>; variant?: Variant; label?: string } {
  const given = input.rules;
  let variant: Variant;
  let label: string;
  if (given === NO_VARIANT) {
    // "none": the edition's own rules (a report's rules dimension names them so).
    const { rules: _none, ...rest } = input;
    return { input: rest };
  }
  if (typeof given === 'string') {
    variant = files.variant(given);
    label = `variant file ${showValue(given)}`;
  } else if (typeof given === 'object' && given !== null && !Array.isArray(given) && 'rules' in given) {
    label = 'the inline variant';
    variant = parseVariant(given, `${at}rules`, typeof input.variant === 'string' ? input.variant : 'inline');
  } else return { input };
  if (input.system !== undefined && input.system !== variant.system.id) {
    throw refusal(`${at}rules`, `${label} is a variant of ${variant.system.id}, not ${showValue(input.system)}`, "allowed: a variant of the scenario's system");
  }
  if (input.edition !== undefined && input.edition !== variant.edition) {
    throw refusal(
      `${at}edition`,
      `${showValue(input.edition)} is not the edition of ${label} (its changes are to ${variant.system.id} ${variant.edition})`,
      `allowed: ${showValue(variant.edition)}, or leave edition out`,
    );
  }
  return { input: { system: variant.system.id, ...input, edition: variant.edition }, variant, label };
}

/**
 * A scenario's `profiles` file, or its `roster` or `catalogue` files or both (read into profiles once the
 * rule table is known: their keywords are looked up in it), with its system filled in where the scenario
 * leaves it out. A roster with catalogues is my warband against theirs: one set of names, a name both hold
 * kept apart as the catalogue's "NAME (catalogue)" (src/model/warband-profiles.ts).
 */
function withProfilesFile(input: Record<string, unknown>, at: string, files: ScenarioFiles): { input: Record<string, unknown>; profiles?: Profiles; imported?: ImportedTrees } {
  const given = input.profiles;
  const sources = PROFILE_SOURCES.filter((key) => input[key] !== undefined);
  // A profiles file is edited by hand from an export: joined with another source, its names would shadow or be shadowed unseen.
  if (given !== undefined && sources.length > 1) throw refusal(`${at}${sources.join(' and ')}`, `give profiles alone, not with ${sources.filter((s) => s !== 'profiles').join(' or ')}`, 'allowed: profiles, or roster and catalogue (one or both)');
  if (input.roster !== undefined || input.catalogue !== undefined) {
    if (input.roster !== undefined && typeof input.roster !== 'string') throw notAllowed(`${at}roster`, input.roster, 'the path of a roster file (.rosz, .ros or NewRecruit JSON)');
    const cataloguePaths = input.catalogue === undefined ? undefined : Array.isArray(input.catalogue) ? input.catalogue : [input.catalogue];
    if (cataloguePaths !== undefined && (cataloguePaths.length === 0 || cataloguePaths.some((p) => typeof p !== 'string'))) throw notAllowed(`${at}catalogue`, input.catalogue, 'the path of a .gst or .cat file, or a list of them');
    // The CLI's reader reads these once per process while the files stay as they are: a sweep parses this for every cell.
    const imported: ImportedTrees = {
      ...(typeof input.roster === 'string' ? { roster: files.roster(input.roster) } : {}),
      ...(cataloguePaths ? { catalogue: files.catalogue(cataloguePaths as string[]) } : {}),
    };
    for (const source of ['roster', 'catalogue'] as const) {
      const tree = imported[source];
      if (tree === undefined) continue;
      const system = rosterSystem(tree);
      if (input.system !== undefined && input.system !== system.id) {
        throw refusal(`${at}${source}`, `${tree.label} is of ${system.id}, not ${showValue(input.system)}`, `allowed: a ${source} of the scenario's system`);
      }
    }
    return { input: { system: rosterSystem((imported.roster ?? imported.catalogue)!).id, ...input }, imported };
  }
  if (given === undefined) return { input };
  if (typeof given !== 'string') throw notAllowed(`${at}profiles`, given, 'the path of a profiles file');
  const profiles = files.profiles(given);
  if (input.system !== undefined && input.system !== profiles.system.id) {
    throw refusal(`${at}profiles`, `profiles file ${showValue(given)} is of ${profiles.system.id}, not ${showValue(input.system)}`, "allowed: a profiles file of the scenario's system");
  }
  return { input: { system: profiles.system.id, ...input }, profiles };
}

/**
 * An imported profile holding what nothing models stops the command, unless the user allowed it: then
 * one warning, and what was left out is returned for the scenario to carry into its outputs.
 */
function checkUnmodelled(profile: Profile, allowed: boolean, key: string, host: UnmodelledHost, fightsOn: boolean): string[] {
  // A choice or situation the question does not take (a spell, an option before the game): said, and
  // carried with what was left out, never stopping.
  const options = optionItems(profile);
  if (options.length) host.notice?.(optionNotice(profile, options));
  const taken = options.map((u) => `${profile.role} ${showValue(profile.name)}: ${showValue(u.text)} (not taken)`);
  const stops = stoppingItems(profile, fightsOn);
  if (stops.length === 0) return taken;
  if (!allowed) throw refusal('', unmodelledMessage(profile, key, stops[0]!, host.allowUnmodelled));
  host.notice?.(leftOutNotice(profile, stops));
  return [...taken, ...stops.map((u) => `${profile.role} ${showValue(profile.name)}: ${showValue(u.text)}`)];
}

/**
 * A field the kind takes but does not model (FieldSpec.notModelledIn: INFECTION MARKERS in a duel), given
 * or read from a keyword, on the scenario or on a side: it stops the question in one line, unless the user
 * allowed what is not modelled; then the field is left at its default, said once, and carried with what
 * was left out. The input is never changed: a copy is returned.
 */
function withoutWhatIsNotModelled(
  input: Record<string, unknown>,
  fields: readonly FieldSpec[],
  kind: string,
  kindSpec: KindSpec,
  allowed: boolean,
  at: string,
  host: UnmodelledHost,
  leftOut: string[],
  /** Where a field a profile or keyword gave came from, by its label (`b.infectionMarkers`): the notice names it. */
  sources: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const kept = (of: readonly FieldSpec[], values: Record<string, unknown>, path: string): Record<string, unknown> => {
    let out = values;
    for (const f of of) {
      const why = f.notModelledIn?.kinds.includes(kind) ? f.notModelledIn.why : undefined;
      const value = values[f.name];
      if (why === undefined || value === undefined || value === f.default) continue;
      const label = `${path}${f.name}`;
      if (!allowed) throw refusal(`${at}${label}`, `${showValue(value)} is not modelled in a ${kind}: ${why}`, 'give --allow-unmodelled to answer without it (said), or leave it out');
      // Said once per profile that gave it (a price fights it in many duels), else once per field.
      const from = sources.get(label)?.replace(/^\w+\./, '');
      host.notice?.(`${from ? `${from}: ` : ''}${f.name}: ${showValue(value)} left out, not modelled in a ${kind}: ${why}`);
      leftOut.push(`${label}: ${showValue(value)}`);
      out = { ...out };
      delete out[f.name];
    }
    return out;
  };
  const out = kept(fields.filter((f) => f.kinds.includes(kind)), input, '');
  if (!kindSpec.sides) return out;
  const sides: Record<string, unknown> = {};
  for (const key of kindSpec.sides.keys) {
    const side = out[key];
    if (typeof side === 'object' && side !== null && !Array.isArray(side)) sides[key] = kept(kindSpec.sides.fields, side as Record<string, unknown>, `${key}.`);
  }
  return { ...out, ...sides };
}

/**
 * A scenario's raw fields with the files it names read: its variant file (or inline variant), and its
 * profiles file, roster or catalogue files. The only step of parsing a scenario that reads files: a page
 * in a browser, or a worker given the files' contents, makes one of these itself.
 */
export interface ResolvedInputs {
  /** The raw fields, with the system and edition the variant or the profiles' source gives filled in. */
  readonly input: Record<string, unknown>;
  readonly variant?: Variant;
  /** A profiles file's profiles. */
  readonly profiles?: Profiles;
  /** A roster's tree, catalogues' tree, or both: read into profiles by the scenario's rule table once that is known. */
  readonly imported?: ImportedTrees;
}

/** Reads, by `files`, the files a scenario's raw fields name (see ResolvedInputs); refuses a raw value that is no object. */
export function resolveInputsWith(raw: unknown, files: ScenarioFiles, origin = ''): ResolvedInputs {
  const at = where(origin);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw refusalAt(at, `a scenario must be a JSON object of fields, got ${showValue(raw)}`);
  }
  const named = withVariant(raw as Record<string, unknown>, at, files);
  const profiled = withProfilesFile(named.input, at, files);
  return { input: profiled.input, ...(named.variant ? { variant: named.variant } : {}), ...(profiled.profiles ? { profiles: profiled.profiles } : {}), ...(profiled.imported ? { imported: profiled.imported } : {}) };
}

/**
 * Turns raw fields (from a JSON file, flags, a report or a page) into a validated scenario with every
 * field of its kind filled, the files they name read by `files`. Throws UsageError with one line naming
 * the field, the value and what is allowed.
 */
export function parseScenarioWith(raw: unknown, files: ScenarioFiles, origin = ''): AnyScenario {
  const resolved = resolveInputsWith(raw, files, origin);
  const scenario = validateScenario(resolved, origin, files);
  return scenario.kind === BATTLE_KIND ? withBattle(scenario as unknown as BattleScenario, resolved, files, origin) : scenario;
}

/** The keys of a scenario's raw fields that say where its profiles come from and under which rules: what each of a battle's attacks is read with. */
const BATTLE_BASE_KEYS = ['system', 'rules', 'variant', ...PROFILE_SOURCES, 'allowUnmodelled'] as const;

/**
 * A battle scenario with its battle read (src/input/battle-core.ts): its warbands are entries of the
 * profiles, roster or catalogue it names, each attack between them read as a duel of the same files and
 * rules; what the reading assumed is told to the host, as what --allow-unmodelled left out is.
 */
function withBattle(scenario: BattleScenario, resolved: ResolvedInputs, files: ScenarioFiles, origin: string): AnyScenario {
  const at = where(origin);
  const kind = resolveKind(scenario).kind;
  const profiles = resolved.profiles ?? (resolved.imported ? importedProfilesOnce(resolved.imported, scenario.rules, at) : undefined);
  if (!profiles) throw refusal(`${at}kind`, `"${scenario.kind}" reads ${kind.needsProfiles ?? 'profiles'}, and the scenario names none`, 'give profiles FILE, or roster FILE and catalogue FILES (one or both)');
  const base = Object.fromEntries(BATTLE_BASE_KEYS.filter((k) => resolved.input[k] !== undefined).map((k) => [k, resolved.input[k]]));
  const validate = (raw: Record<string, unknown>, from: string) => validateFields(resolveInputsWith(raw, files, from), from, files);
  const { battle, notes } = readBattleScenario(scenario, { profiles, base }, validate, at);
  for (const note of notes) files.notice?.(note);
  return { ...scenario, battle } as unknown as AnyScenario;
}

/** The scenario's choices and its sides' in the capitals their fields allow ("Machine" is machine; inAllowedCase). */
function inAllowedCases(input: Readonly<Record<string, unknown>>, fields: readonly FieldSpec[], sides: KindSides | undefined): Record<string, unknown> {
  const fold = (object: Readonly<Record<string, unknown>>, specs: readonly FieldSpec[]): Record<string, unknown> => {
    const folded: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      const spec = specs.find((f) => f.name === key);
      folded[key] = spec ? inAllowedCase(spec, value) : value;
    }
    return folded;
  };
  const out = fold(input, fields);
  for (const key of sides?.keys ?? []) {
    const side = input[key];
    if (typeof side === 'object' && side !== null && !Array.isArray(side)) out[key] = fold(side as Record<string, unknown>, sides!.fields);
  }
  return out;
}

/**
 * A validated scenario from resolved inputs, reading no file: the fields checked against the system's
 * kind, the rule table built, the named weapon's and target's profiles laid under the scenario's fields,
 * every field filled. Throws UsageError with one line naming the field, the value and what is allowed.
 */
export function validateScenario(resolved: ResolvedInputs, origin = '', host: UnmodelledHost = {}): AnyScenario {
  const at = where(origin);
  const scenario = validateFields(resolved, origin, host);
  const system = systems.find((s) => s.id === scenario.system)!;
  const problem = system.checkCombination(scenario);
  if (problem) throw forbiddenByRules(at, problem);
  const tooBig = system.checkSize?.(scenario);
  if (tooBig) throw refusalAt(at, tooBig);
  // The schema of its system and kind has passed: it is that system's scenario of that kind.
  return scenario as unknown as AnyScenario;
}

/**
 * validateScenario without the system's checks of combinations and size: every field checked against
 * its schema and filled, profiles and keywords merged, the sides validated. For a caller that checks
 * what it takes of the scenario itself: a battle reads a duel's two sides as one direction of attack,
 * of any attack type, and checks that attack as the sequence it is (src/input/battle.ts).
 */
export function validateFields(resolved: ResolvedInputs, origin = '', host: UnmodelledHost = {}): Scenario {
  const at = where(origin);
  const { variant } = resolved;
  const { system, kind } = scenarioSystemAndKind(resolved.input, origin);
  const editionIds = system.editions.map((e) => e.id);
  if (resolved.input.edition === null) {
    throw notAllowed(`${at}edition`, null, `${listAllowed(editionIds)} (or leave edition out for ${system.defaultEdition})`);
  }
  const edition = resolved.input.edition ?? system.defaultEdition;
  if (!system.editions.some((e) => e.id === edition)) {
    throw notOneOf(`${at}edition`, edition, `an edition of ${system.id}`, editionIds);
  }
  // The rule table comes before the profiles: their keywords are looked up in it.
  const ruleChanges = resolved.input.rules;
  const rules =
    variant?.table ??
    (ruleChanges === undefined
      ? editionTable(system, edition as string)
      : isCheckedTable(system, ruleChanges)
        ? ruleChanges
        : applyRuleChanges(system, systems, editionTable(system, edition as string), ruleChanges, `${at}rules`));
  if (resolved.input.allowUnmodelled !== undefined && typeof resolved.input.allowUnmodelled !== 'boolean') {
    throw notAllowed(`${at}allowUnmodelled`, resolved.input.allowUnmodelled, 'true, false');
  }
  const profiles = resolved.profiles ?? (resolved.imported ? importedProfilesOnce(resolved.imported, rules, at) : undefined);
  // A name both a roster and its catalogues hold: said, never silently taken as one of them.
  const renamedNote = profiles ? warbandNote(profiles) : undefined;
  if (renamedNote !== undefined) host.notice?.(renamedNote);
  // What --allow-unmodelled left out of the profiles used: outputs list it with the scenario.
  const leftOut: string[] = [];
  const kindSpec = system.kinds.find((k) => k.id === kind)!;
  const sides = sidesOf(kindSpec);
  const sideKeys: ReadonlySet<string> = new Set(kindSpec.sides?.keys ?? []);
  const keyworded = profiles || givesKeywords(resolved.input, sides);
  // Where a field a profile or keyword gave came from: a value out of range names it.
  const sources = new Map<string, string>();
  const merged = keyworded
    ? mergeSides(resolved.input, sides, {
        profiles,
        system,
        rules,
        at,
        reads: (side, name) =>
          side.path === undefined ? system.fields.some((f) => f.name === name && f.kinds.includes(kind)) : (kindSpec.sides?.fields ?? []).some((f) => f.name === name),
        use: (profile, key) => leftOut.push(...checkUnmodelled(profile, resolved.input.allowUnmodelled === true, `${at}${key}`, host, kindSpec.fightsOn === true)),
        fieldDefault,
        sources,
        assumed: (line) => host.notice?.(line),
      })
    : resolved.input;
  const input = withoutWhatIsNotModelled(inAllowedCases(merged, system.fields, kindSpec.sides), system.fields, kind, kindSpec, resolved.input.allowUnmodelled === true, at, host, leftOut, sources);

  for (const key of Object.keys(input)) {
    if (META_KEYS.has(key) || sideKeys.has(key)) continue;
    const field = system.fields.find((f) => f.name === key);
    if (!field) {
      // The key is the user's and may be "": as a prefix it keeps its ": " even then.
      throw refusalAt(`${at}${key}: `, `not a field of ${system.id}`, `allowed: ${listAllowed(system.fields.filter((f) => f.kinds.includes(kind)).map((f) => f.name))}`);
    }
    if (!field.kinds.includes(kind)) {
      throw refusal(`${at}${key}`, `${showValue(input[key])} is not read by kind "${kind}"`, `it is a field of kind ${listAllowed(field.kinds)}`);
    }
  }

  // Sides are checked on their own (validateSides), with messages that name the side.
  const fields = Object.fromEntries(Object.entries(input).filter(([key]) => !LEFT_TO_THE_SCHEMA.has(key) && !sideKeys.has(key)));
  const candidate: Record<string, unknown> = { ...fields, system: system.id, edition, kind };
  const validate = validatorFor(system, kind);
  if (!validate(candidate)) {
    const err = validate.errors?.[0];
    const fieldName = err?.instancePath.split('/')[1] ?? '';
    const field = system.fields.find((f) => f.name === fieldName);
    if (field) {
      const from = sources.get(field.name);
      throw notAllowedValue(`${at}${from ? `${from}: ` : ''}${field.name}`, candidate[field.name], field.schema);
    }
    throw refusal(`${at}${fieldName || 'scenario'}`, `${showValue(fieldName ? candidate[fieldName] : resolved.input)} ${err?.message ?? 'is not valid'}`);
  }

  const scenario: Record<string, FieldValue | RuleTable> = { system: system.id, edition: edition as string, kind, rules };
  const variantName = variant?.name ?? (typeof input.variant === 'string' ? input.variant : undefined);
  if (variantName !== undefined) scenario.variant = variantName;
  // The profile names stay as labels: outputs say which weapon against which model.
  for (const key of PROFILE_KEYS) if (typeof input[key] === 'string') scenario[key] = input[key];
  // The scenario's own keywords stay as labels, as written: outputs say which were tried.
  for (const key of SCENARIO_KEYWORDS) {
    const given = input[key];
    if (given !== undefined) scenario[key] = keywordList(given, `${at}${key}`).join(', ');
  }
  // A scenario read back from an output (a worker's copy, a report's record) keeps the label it had.
  const notModelled = leftOut.length > 0 ? leftOut.join('; ') : input[NOT_MODELLED];
  if (typeof notModelled === 'string') scenario[NOT_MODELLED] = notModelled;
  for (const f of system.fields) {
    if (!f.kinds.includes(kind)) continue;
    const given = input[f.name];
    scenario[f.name] = given !== undefined ? (given as FieldValue) : fieldDefault(f, rules, input);
  }
  // A side's object holds field values and labels; the kind reads it as its sides' declaration says.
  if (kindSpec.sides) Object.assign(scenario, validateSides(input, kindSpec.sides, rules, at, sources, fieldDefault) as unknown as Record<string, FieldValue>);
  return scenario as unknown as Scenario;
}

/**
 * The files a raw scenario reads besides itself (its variant, profiles, roster and catalogue files): inputs of the run,
 * which no --out may replace.
 */
export function namedFiles(raw: Readonly<Record<string, unknown>>): string[] {
  const catalogues = Array.isArray(raw.catalogue) ? raw.catalogue : [raw.catalogue];
  return [raw.rules, raw.profiles, raw.roster, ...catalogues].filter((p): p is string => typeof p === 'string' && p !== NO_VARIANT);
}

/** Converts a flag's text to the type its field wants; anything unconvertible is left for the schema to reject. */
export function coerceFlagValue(field: FieldSpec, text: unknown): unknown {
  if (typeof text !== 'string') return text;
  const t = text.trim();
  switch (field.schema.type) {
    case 'boolean':
      return t === 'true' || t === '' ? true : t === 'false' ? false : text;
    case 'integer':
    case 'number':
      return t !== '' && Number.isFinite(Number(t)) ? Number(t) : text;
    case 'integer-or':
      return field.schema.words.includes(t) ? t : t !== '' && Number.isFinite(Number(t)) ? Number(t) : text;
    case 'string':
      return t;
    case 'text':
      return t;
  }
}
