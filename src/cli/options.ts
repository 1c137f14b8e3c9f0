import type { Argv } from 'yargs';
import { UsageError, listAllowed, showValue } from '../errors.js';
import { coerceFlagValue, kebab, parseScenario, readScenarioFile } from '../model/scenario.js';
import type { FieldSpec, Scenario } from '../model/types.js';
import { FORMATS, formatsOf, type Format, type Presenter } from '../present/presenter.js';
import { systems } from '../rules/registry.js';

/** Every scenario field of every system, once per flag name (systems may share a field name). */
function allFields(): Map<string, FieldSpec[]> {
  const byName = new Map<string, FieldSpec[]>();
  for (const system of systems)
    for (const f of system.fields) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  return byName;
}

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
  throw new UsageError(`--format: ${showValue(value)} is not a format${known ? ` ${command} can print` : ''}; allowed: ${listAllowed(offered)}`);
}

/**
 * Adds the scenario flags: --system, --edition, --kind and one kebab-case flag per field. They are
 * strings to yargs; each is converted and checked against its field's schema by parseScenario, so flags
 * and files get the same messages.
 */
export function addScenarioOptions<T>(y: Argv<T>): Argv<T> {
  let out: Argv<T> = y
    .option('system', { type: 'string', describe: `Rule system: ${systems.map((s) => s.id).join(', ')}`, group: 'Scenario:' })
    .option('edition', { type: 'string', describe: 'Rule edition (default: the newest of the system)', group: 'Scenario:' })
    .option('kind', { type: 'string', describe: 'Scenario kind (see `injury-lab systems`)', group: 'Scenario:' }) as Argv<T>;
  for (const [name, specs] of allFields()) {
    out = out.option(kebab(name), {
      type: 'string',
      describe: specs[0]!.description,
      group: 'Scenario fields:',
      // Bare boolean flags (--tough) mean true.
      ...(specs[0]!.schema.type === 'boolean' ? { coerce: (v: unknown) => (v === '' ? 'true' : v) } : {}),
    }) as Argv<T>;
  }
  return out;
}

/**
 * The scenario a command was asked about: the fields of the optional scenario file, overridden by any
 * field flags, then validated as a whole.
 */
export function scenarioFromArgv(argv: Record<string, unknown>, fileArg = 'scenario'): Scenario {
  const path = argv[fileArg];
  const raw: Record<string, unknown> = typeof path === 'string' ? readScenarioFile(path) : {};
  for (const key of ['system', 'edition', 'kind']) if (argv[key] !== undefined) raw[key] = argv[key];
  for (const [name, specs] of allFields()) {
    const given = argv[name];
    if (given === undefined) continue;
    if (Array.isArray(given)) throw new UsageError(`--${kebab(name)}: given more than once (${given.map(showValue).join(', ')}); give it once`);
    raw[name] = coerceFlagValue(specs[0]!, given);
  }
  return parseScenario(raw, typeof path === 'string' ? path : '');
}
