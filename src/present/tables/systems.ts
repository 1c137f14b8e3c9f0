import { editionTable } from '../../model/edition-table.js';
import { describeAllowed, fieldDefault, kebab } from '../../input/scenario.js';
import type { SystemSpec } from '../../model/types.js';
import type { Presenter } from './presenter.js';
import { jsonText, terminalSafeLines } from '../../text.js';

function systemsTable(systems: readonly SystemSpec[]): string {
  const lines: string[] = [];
  for (const s of systems) {
    lines.push(`${s.id}: ${s.title}`);
    lines.push('  editions:');
    for (const e of s.editions) lines.push(`    ${e.id}${e.id === s.defaultEdition ? ' (default)' : ''}: ${e.title} [${e.source}]`);
    lines.push('  kinds:');
    for (const k of s.kinds) lines.push(`    ${k.id}: ${k.description}`);
    lines.push('  fields (file name / flag: allowed values; default; kinds; which profiles may give it):');
    for (const f of s.fields) {
      const def = typeof f.default === 'function' ? s.editions.map((e) => `${e.id} ${String(fieldDefault(f, editionTable(s, e.id)))}`).join(', ') : String(f.default);
      const profile = f.profile ? `; in ${f.profile} profiles` : '';
      lines.push(`    ${f.name} / --${kebab(f.name)}: ${describeAllowed(f.schema)}; default ${def}; ${f.kinds.join(', ')}${profile}`);
      lines.push(`        ${f.description}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

function systemsJson(systems: readonly SystemSpec[]) {
  return systems.map((s) => ({
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
      default: typeof f.default === 'function' ? Object.fromEntries(s.editions.map((e) => [e.id, fieldDefault(f, editionTable(s, e.id))])) : f.default,
      kinds: f.kinds,
      ...(f.profile ? { profile: f.profile } : {}),
    })),
  }));
}

/** The listing of systems, editions, kinds and fields. No CSV: the listing is nested. */
export const systemsPresenter: Presenter<readonly SystemSpec[], 'table' | 'json'> = {
  table: (systems) => terminalSafeLines(systemsTable(systems)),
  json: (systems) => jsonText(systemsJson(systems)),
};
