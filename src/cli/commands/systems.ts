import type { CommandModule } from 'yargs';
import { describeAllowed, scenarioJsonSchema } from '../../model/scenario.js';
import { systems } from '../../rules/registry.js';
import { UsageError, listAllowed, showValue } from '../../errors.js';
import { kebab } from '../options.js';

/** No CSV: the listing is nested. Checked here, not by yargs `choices`, whose message spans lines. */
const SYSTEMS_FORMATS = ['table', 'json'] as const;

function parseSystemsFormat(value: unknown): (typeof SYSTEMS_FORMATS)[number] {
  if (typeof value === 'string' && (SYSTEMS_FORMATS as readonly string[]).includes(value)) return value as (typeof SYSTEMS_FORMATS)[number];
  throw new UsageError(`--format: ${showValue(value)} is not a format systems can print; allowed: ${listAllowed(SYSTEMS_FORMATS)}`);
}

function describeSystems(): string {
  const lines: string[] = [];
  for (const s of systems) {
    lines.push(`${s.id}: ${s.title}`);
    lines.push('  editions:');
    for (const e of s.editions) lines.push(`    ${e.id}${e.id === s.defaultEdition ? ' (default)' : ''}: ${e.title} [${e.source}]`);
    lines.push('  kinds:');
    for (const k of s.kinds) lines.push(`    ${k.id}: ${k.description}`);
    lines.push('  fields (file name / flag: allowed values; default; kinds):');
    for (const f of s.fields) {
      const def = typeof f.default === 'function' ? s.editions.map((e) => `${e.id} ${String((f.default as (e: string) => unknown)(e.id))}`).join(', ') : String(f.default);
      lines.push(`    ${f.name} / --${kebab(f.name)}: ${describeAllowed(f.schema)}; default ${def}; ${f.kinds.join(', ')}`);
      lines.push(`        ${f.description}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

export const systemsCommand: CommandModule = {
  command: 'systems',
  describe: 'List the rule systems, editions, kinds and fields with their allowed values',
  builder: (y) => y.option('format', { type: 'string', describe: `Output format: ${SYSTEMS_FORMATS.join(', ')}`, default: 'table' }),
  handler: (argv) => {
    if (parseSystemsFormat(argv.format) === 'json') {
      const doc = systems.map((s) => ({
        id: s.id,
        title: s.title,
        defaultEdition: s.defaultEdition,
        editions: s.editions,
        kinds: s.kinds.map((k) => ({ id: k.id, description: k.description })),
        fields: s.fields.map((f) => ({
          name: f.name,
          flag: `--${kebab(f.name)}`,
          description: f.description,
          allowed: describeAllowed(f.schema),
          schema: f.schema,
          default: typeof f.default === 'function' ? Object.fromEntries(s.editions.map((e) => [e.id, (f.default as (e: string) => unknown)(e.id)])) : f.default,
          kinds: f.kinds,
        })),
      }));
      process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
    } else process.stdout.write(describeSystems());
  },
};

export const schemaCommand: CommandModule = {
  command: 'schema',
  describe: 'Print the JSON Schema for scenario files',
  handler: () => {
    process.stdout.write(JSON.stringify(scenarioJsonSchema(), null, 2) + '\n');
  },
};
