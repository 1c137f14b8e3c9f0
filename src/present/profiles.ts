import type { Profile, Profiles } from '../model/profiles.js';
import type { Presenter } from './presenter.js';
import { jsonText, renderTable } from './text.js';

function fieldsText(p: Profile): string {
  const fields = Object.entries(p.fields).map(([k, v]) => `${k} ${String(v)}`);
  return [...fields, ...p.keywords].join(', ');
}

function profilesTable(p: Profiles): string {
  const lines = [`${p.file}: ${p.system.id} profiles`, ''];
  for (const [title, table] of [['Models (targets)', p.models], ['Weapons', p.weapons]] as const) {
    lines.push(`${title}:`);
    if (table.size === 0) lines.push('  (none)');
    else lines.push(renderTable(['name', 'cost', 'fields'], [...table.values()].map((x) => [x.name, x.cost === undefined ? '-' : String(x.cost), fieldsText(x) || '(defaults)']), [false, true, false]));
    lines.push('');
  }
  return lines.join('\n');
}

/** A profiles file as JSON: the same shape it is written in, so it can be edited and passed back. */
function profilesJson(p: Profiles) {
  const section = (table: ReadonlyMap<string, Profile>) =>
    Object.fromEntries([...table.values()].map((x) => [x.name, { ...x.fields, ...(x.keywords.length ? { keywords: x.keywords } : {}), ...(x.cost === undefined ? {} : { cost: x.cost }), ...(x.description ? { description: x.description } : {}) }]));
  return { system: p.system.id, models: section(p.models), weapons: section(p.weapons) };
}

/** `profiles FILE`: what a profiles file names, with costs and fields. */
export const profilesPresenter: Presenter<Profiles, 'table' | 'json'> = {
  table: profilesTable,
  json: (p) => jsonText(profilesJson(p)),
};
