import { injuryDiceUnlessText, parseKeyword } from '../../model/keywords.js';
import { profileFields, unmodelledText, type EffectSource, type Profile, type Profiles, type Unmodelled } from '../../model/profiles.js';
import type { FieldValue } from '../../model/types.js';
import type { Presenter } from './presenter.js';
import { TABLE_COLUMNS, jsonText, renderTable, terminalSafe, terminalSafeLines, wordWrap } from '../../text.js';

/**
 * A profile's fields as a profiles file writes them: the role's own fields, with a "MODEL with WEAPON"'s
 * model dice added to its attack dice for its own attack type; and, for the description, what a profiles
 * file cannot hold (the other attack type's dice, or a scenario field a roster gave).
 */
function fileFields(p: Profile, system: Profiles['system']): { fields: Record<string, FieldValue>; notes: string[] } {
  const own = profileFields(system, p.role);
  const fields: Record<string, FieldValue> = {};
  const notes: string[] = [];
  for (const [k, v] of Object.entries(p.fields)) {
    if (own.some((f) => f.name === k)) fields[k] = v;
    else notes.push(`the attacker's ${k} ${String(v)} (a scenario field: give it with the scenario)`);
  }
  if (p.attackerDice) {
    const typeField = own.find((f) => f.name === 'attackType');
    const type = String(fields.attackType ?? (typeField && typeof typeField.default !== 'function' ? typeField.default : ''));
    const dice = ((fields.attackDice as number | undefined) ?? 0) + (p.attackerDice[type] ?? 0);
    if (dice !== 0 || fields.attackDice !== undefined) fields.attackDice = dice;
    const other = Object.entries(p.attackerDice).filter(([t]) => t !== type);
    if (other.some(([, n]) => n !== (p.attackerDice![type] ?? 0))) notes.push(`attackDice counts the model's ${type} dice; its ${other.map(([t, n]) => `${t} dice are ${n}`).join(', ')}`);
  }
  return { fields, notes };
}

const itemText = unmodelledText;

function fieldsText(p: Profile, system: Profiles['system']): string {
  // Fields outside the role's own (a scenario field a roster gave) are shown too: they act when it is used.
  const shown = { ...p.fields, ...fileFields(p, system).fields };
  const fields = Object.entries(shown).map(([k, v]) => `${k} ${String(v)}`);
  // A model's own dice go with the weapon it carries in a duel: "melee +2 DICE".
  const dice = Object.entries(p.characteristicDice ?? {}).map(([type, n]) => `${type} ${n > 0 ? '+' : ''}${n} DICE`);
  return [...fields, ...dice, ...p.keywords, ...(p.injuryDiceUnless ?? []).map(injuryDiceUnlessText)].join(', ');
}

/**
 * Everything of an imported roster that maps to no effect, one line per item with the profiles that
 * hold it ("MODEL with WEAPON" repeats its weapon's), so nothing is dropped silently.
 */
function notModelledLines(p: Profiles): string[] {
  const holders = new Map<string, string[]>();
  for (const x of [...p.models.values(), ...p.weapons.values()]) {
    for (const u of x.unmodelled ?? []) {
      const line = `${itemText(u)}${u.stops ? '; stops a command that uses it unless --allow-unmodelled' : ''}`;
      holders.set(line, [...(holders.get(line) ?? []), `${x.role} ${JSON.stringify(x.name)}`]);
    }
  }
  return [...[...holders].map(([line, names]) => `  ${terminalSafe(`${names.join(', ')}: ${line}`)}`), ...(p.unmodelled ?? []).map((u) => `  ${terminalSafe(itemText(u))}`)];
}

/** Each keyword of no effect the profiles hold, with the profiles that hold it. */
function noEffectLines(p: Profiles): string[] {
  const holders = new Map<string, string[]>();
  for (const x of [...p.models.values(), ...p.weapons.values()]) {
    for (const k of x.keywords) {
      const name = parseKeyword(k).name;
      if (p.noEffect?.has(name)) holders.set(name, [...(holders.get(name) ?? []), `${x.role} ${JSON.stringify(x.name)}`]);
    }
  }
  return [...holders].map(([k, names]) => `  ${terminalSafe(`${k}: ${names.join(', ')}`)}`);
}

/** "110", "4 Glory Points", "20 + 2 Glory Points", or "-" for a profile with no price. */
function costText(x: Profile): string {
  const parts = [...(x.cost === undefined ? [] : [String(x.cost)]), ...Object.entries(x.otherCosts ?? {}).map(([name, value]) => `${value} ${name}`)];
  return parts.length ? parts.join(' + ') : '-';
}

function profilesTable(p: Profiles): string {
  const lines = [terminalSafe(`${p.file}: ${p.system.id} profiles${p.source ? ` read from ${p.source === 'roster' ? 'a roster' : 'catalogue files'}` : ''}`), ''];
  for (const [title, table] of [['Models (targets)', p.models], ['Weapons', p.weapons]] as const) {
    lines.push(`${title}:`);
    if (table.size === 0) lines.push('  (none)');
    else lines.push(renderTable(['name', 'cost', 'fields'], [...table.values()].map((x) => [x.name, costText(x), fieldsText(x, p.system) || '(defaults)']), [false, true, false]));
    lines.push('');
  }
  // What each model may carry, where the file says (a catalogue's loadouts): the weapons price pairs it with.
  const loadouts = [...p.models.values()].filter((x) => x.loadout !== undefined);
  if (loadouts.length) {
    lines.push('Loadouts (the weapons each model may carry; price pairs a model with these alone):');
    for (const x of loadouts) lines.push(...wordWrap(`${x.name} (${x.loadout!.length}): ${x.loadout!.length ? x.loadout!.join(', ') : 'none'}`, TABLE_COLUMNS - 4).map((l, i) => terminalSafe(`${i === 0 ? '  ' : '    '}${l}`)));
    lines.push('');
  }
  if (p.source) {
    const inert = noEffectLines(p);
    if (inert.length) lines.push('Known keywords of no effect here (they change no odds of one attack; docs/keywords.md):', ...inert, '');
    const notModelled = notModelledLines(p);
    lines.push('Not modelled (maps to no effect; categories, rules and abilities never stop a command):', ...(notModelled.length ? notModelled : ['  (nothing)']), '');
  }
  return lines.join('\n');
}

/** A profiles file as JSON: the same shape it is written in, so it can be edited and passed back. */
function profilesJson(p: Profiles) {
  const section = (table: ReadonlyMap<string, Profile>) =>
    Object.fromEntries(
      [...table.values()].map((x) => {
        const { fields, notes } = fileFields(x, p.system);
        const unmodelled = (x.unmodelled ?? []).map(itemText);
        const description = [x.description, ...notes, ...(unmodelled.length ? [`not modelled: ${unmodelled.join('; ')}`] : [])].filter(Boolean).join('. ');
        return [x.name, { ...fields, ...(x.keywords.length ? { keywords: x.keywords } : {}), ...(x.injuryDiceUnless?.length ? { injuryDiceUnless: x.injuryDiceUnless } : {}), ...(x.loadout ? { loadout: x.loadout } : {}), ...(x.characteristicDice ? { characteristicDice: x.characteristicDice } : {}), ...(x.cost === undefined ? {} : { cost: x.cost }), ...(x.otherCosts ? { otherCosts: x.otherCosts } : {}), ...(description ? { description } : {}) }];
      }),
    );
  const warband = (p.unmodelled ?? []).map(itemText);
  const description = p.source ? `Read from ${p.source} ${p.file} by injury-lab${warband.length ? `; not modelled: ${warband.join('; ')}` : ''}` : undefined;
  return { ...(description ? { description } : {}), system: p.system.id, models: section(p.models), weapons: section(p.weapons) };
}

/** A profile written by hand: its effects as the file gives them. */
function fileEffects(x: Profile): EffectSource[] {
  const given = [...Object.entries(x.fields).map(([k, v]) => `${k} ${String(v)}`), ...x.keywords, ...(x.injuryDiceUnless ?? []).map(injuryDiceUnlessText)];
  return given.map((effect) => ({ effect, from: 'the profiles file' }));
}

/**
 * `profiles --explain`: each profile's effects, each with what it was read from (an item, a keyword, a
 * sentence), then what was not read and why; so a designer checks a reading in one look. A profiles
 * file written by hand has its fields as written.
 */
function explainTable(p: Profiles): string {
  const lines = [terminalSafe(`${p.file}: what each ${p.source ? `profile was read from (${p.source === 'roster' ? 'a roster' : 'catalogue files'})` : 'profile gives'}`), ''];
  for (const x of [...p.models.values(), ...p.weapons.values()]) {
    lines.push(terminalSafe(`${x.role} ${JSON.stringify(x.name)}${x.cost === undefined ? '' : `, cost ${costText(x)}`}`));
    const effects = x.sources ?? fileEffects(x);
    if (effects.length === 0) lines.push('  (no effect: the defaults)');
    else lines.push(...renderTable(['effect', 'read from'], effects.map((e) => [e.effect, e.from]), [false, false]).split('\n').map((l) => `  ${terminalSafe(l)}`));
    // A text some of whose sentences were read is listed with what they were read as: "read", not "not read".
    for (const u of x.unmodelled ?? []) lines.push(terminalSafe(`  ${u.stops ? 'stops' : u.why.startsWith('read as ') ? 'read' : 'not read'}: ${itemText(u)}`));
    lines.push('');
  }
  if (p.unmodelled?.length) lines.push('Not part of any profile:', ...p.unmodelled.map((u) => `  ${terminalSafe(itemText(u))}`), '');
  return lines.join('\n');
}

/** `profiles --explain --format json`'s document (the CLI adds its summary to it). */
export function explainJson(p: Profiles) {
  const entry = (x: Profile) => ({
    name: x.name,
    role: x.role,
    ...(x.cost === undefined ? {} : { cost: x.cost }),
    effects: x.sources ?? fileEffects(x),
    notRead: (x.unmodelled ?? []).map((u) => ({ text: u.text, from: u.from, why: u.why, stops: u.stops, ...(u.touches ? { touches: u.touches } : {}) })),
  });
  return { file: p.file, system: p.system.id, profiles: [...p.models.values(), ...p.weapons.values()].map(entry), ...(p.unmodelled?.length ? { notRead: p.unmodelled } : {}) };
}

/** `profiles --explain`: what each profile's effects were read from. */
export const explainPresenter: Presenter<Profiles, 'table' | 'json'> = {
  table: (p) => terminalSafeLines(explainTable(p)),
  json: (p) => jsonText(explainJson(p)),
};

/** `profiles FILE`: what a profiles file names, with costs and fields. */
export const profilesPresenter: Presenter<Profiles, 'table' | 'json'> = {
  table: (p) => terminalSafeLines(profilesTable(p)),
  json: (p) => jsonText(profilesJson(p)),
};
