/**
 * The form, made from the field declarations: the system, edition and kind, the pickers of the opened
 * profiles, and each kind's fields in their groups and folds (a duel's once per side). It owns the
 * scenario's edits (the fields and the scenario JSON box), the messages beside the fields, and the folds'
 * part of the link. What it tells the rest of the page goes through the hooks page.ts gives it.
 */
import { describeAllowed, fieldTitle, forbiddenKeyIn, forbiddenKeyProblem, parseDecimal, systems, type FieldSpec } from '../engine.js';
import { profileLabel, profileNames } from './profiles.js';
import { exact, input, kindFields, linkProblem, setExact, setInput, systemOf, writeHash, type Input } from './state.js';

export interface FormHooks {
  /** The scenario changed by an edit. */
  readonly changed: () => void;
  /** The scenario JSON box holds no scenario: the engine's kind of one-line message. */
  readonly badJson: (message: string) => void;
  /** Whether the scenario's profiles offer a matrix (a kind with no sides, profiles in use). */
  readonly matrixOffered: (offered: boolean) => void;
}

let hooks: FormHooks;

export function wireForm(h: FormHooks): void {
  hooks = h;
}

const form = document.getElementById('scenario-form') as HTMLFormElement;
const fieldsBox = document.getElementById('fields')!;
const jsonBox = document.getElementById('scenario-json') as HTMLTextAreaElement;

function option(value: string, text: string, selected: boolean): HTMLOptionElement {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  o.selected = selected;
  return o;
}

function select(id: string, label: string, options: readonly { value: string; text: string }[], current: string, help?: string): HTMLElement {
  const row = fieldRow(id, label, help);
  const s = document.createElement('select');
  s.id = `f-${id}`;
  s.name = id;
  for (const o of options) s.append(option(o.value, o.text, o.value === current));
  row.querySelector('.control')!.append(s);
  return row;
}

/** A field's path in the scenario ("injuryDice", or "a.injuryDice" for a duel's side a) as an id: "a-injuryDice". */
const idOf = (path: string) => path.replace(/\./g, '-');

/** The value at a path of the scenario ("a.injuryDice": side a's injuryDice). */
function valueAt(record: Input, path: string): unknown {
  const [head, rest] = path.split('.', 2) as [string, string | undefined];
  if (rest === undefined) return record[head];
  const inner = record[head];
  return inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Input)[rest] : undefined;
}

function fieldRow(path: string, label: string, help?: string): HTMLElement {
  const name = idOf(path);
  const row = document.createElement('div');
  row.className = 'field';
  row.dataset.field = path;
  const l = document.createElement('label');
  l.htmlFor = `f-${name}`;
  l.textContent = label;
  const control = document.createElement('span');
  control.className = 'control';
  const error = document.createElement('output');
  error.className = 'error';
  error.id = `e-${name}`;
  error.setAttribute('aria-live', 'polite');
  row.append(l, control, error);
  if (help) {
    const h = document.createElement('small');
    h.textContent = help;
    h.id = `h-${name}`;
    row.append(h);
  }
  return row;
}

/** One field's control, its value as the user gave it or else as the last answer filled it in. */
function fieldControl(f: FieldSpec, given: unknown, filled: unknown, path = f.name): HTMLElement {
  const row = fieldRow(path, fieldTitle(f.name), `${f.description} (${describeAllowed(f.schema)})`);
  const value = given !== undefined ? given : filled;
  let control: HTMLInputElement | HTMLSelectElement;
  if (f.schema.type === 'boolean') {
    const c = document.createElement('input');
    c.type = 'checkbox';
    c.checked = value === true;
    control = c;
  } else if (f.schema.type === 'string') {
    const s = document.createElement('select');
    for (const v of f.schema.enum) s.append(option(v, v, v === value));
    control = s;
  } else {
    const c = document.createElement('input');
    // Text, not type=number: a browser's number input hides what was typed when it is not a number,
    // and the engine's message about it ("x" is not allowed) is what the user should see.
    c.type = 'text';
    c.inputMode = f.schema.type === 'number' ? 'decimal' : 'numeric';
    c.value = value === undefined ? '' : String(value);
    c.placeholder = filled === undefined ? '' : String(filled);
    control = c;
  }
  control.id = `f-${idOf(path)}`;
  control.name = path;
  control.setAttribute('aria-describedby', `h-${idOf(path)} e-${idOf(path)}`);
  if (given !== undefined) row.classList.add('given');
  row.querySelector('.control')!.append(control);
  return row;
}

/** The value a control holds, as the scenario file would have it: numbers as numbers, anything else as typed. */
function controlValue(f: FieldSpec, el: HTMLInputElement | HTMLSelectElement): unknown {
  if (f.schema.type === 'boolean') return (el as HTMLInputElement).checked;
  if (f.schema.type === 'string') return el.value;
  const text = el.value.trim();
  if (text === '') return undefined;
  return parseDecimal(text) ?? text;
}

/**
 * A kind's fields in three groups, by what a profile gives each (its declaration's `profile`): the
 * weapon's, the target model's, and the rest (markers, position, how the roll is read), so that 40
 * fields of an attack are three short lists. Empty groups are left out.
 */
const FIELD_GROUPS: readonly { readonly id: string; readonly title: string; readonly holds: (f: FieldSpec) => boolean }[] = [
  { id: 'weapon', title: 'Weapon: what a weapon profile gives', holds: (f) => f.profile === 'weapon' },
  { id: 'model', title: 'Target: what a model profile gives', holds: (f) => f.profile === 'model' },
  { id: 'situation', title: 'Situation: markers, position and how the rolls are read', holds: (f) => f.profile === undefined },
];

/**
 * The form's folds (a duel's sides, the field groups and each group's "more" fold), by key ("a",
 * "weapon", "a.weapon", "a.weapon.more"), where the user set them otherwise than their default: sides
 * and groups open, "more" folds closed. They stay as set while the form is built again on every change,
 * and travel in the link as &folds=.
 */
const folds = new Map<string, boolean>();
/** A fold's key as the link writes it: letters, digits and dots. */
const FOLD_ENTRY = /^([A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*):(open|closed)$/;

/** The folds' part of the link: "folds=model:closed,weapon.more:open", the folds set otherwise than their default. */
export function foldsInLink(): readonly string[] {
  return folds.size ? [`folds=${[...folds].map(([key, open]) => `${key}:${open ? 'open' : 'closed'}`).join(',')}`] : [];
}

/** Reads &folds=; an entry it cannot read is left out, and said. */
export function readFolds(text: string): void {
  folds.clear();
  const bad: string[] = [];
  for (const entry of text.split(',').filter(Boolean)) {
    const m = FOLD_ENTRY.exec(entry);
    if (m) folds.set(m[1]!, m[2] === 'open');
    else bad.push(entry);
  }
  if (bad.length) linkProblem(`This link's folds could not all be read (${bad.join(', ')}; allowed: key:open or key:closed); those start as usual.`);
}

/** A fold that keeps the state the user gives it, and puts it in the link. Its summary has an id, so it keeps the focus as the form is built again. */
function fold(className: string, key: string, byDefault: boolean, title: string): HTMLDetailsElement {
  const box = document.createElement('details');
  box.className = className;
  box.dataset.fold = key;
  box.open = folds.get(key) ?? byDefault;
  box.addEventListener('toggle', () => {
    if (box.open === (folds.get(key) ?? byDefault)) return;
    if (box.open === byDefault) folds.delete(key);
    else folds.set(key, box.open);
    writeHash();
  });
  const summary = document.createElement('summary');
  summary.id = `fold-${idOf(key)}`;
  summary.textContent = title;
  box.append(summary);
  return box;
}

/**
 * A kind's fields in their groups. Each group shows first the fields its declaration marks common, any
 * the user gave, and the one with the focus (it must keep it); the rest wait in a closed "more" fold,
 * so the fields a designer changes stay near the answer.
 */
function fieldGroups(fields: readonly FieldSpec[], given: Input, filled: Input, focusedPath: string | undefined, prefix = ''): HTMLElement[] {
  return FIELD_GROUPS.flatMap((g) => {
    const mine = fields.filter(g.holds);
    if (mine.length === 0) return [];
    const key = `${prefix}${g.id}`;
    const box = fold('group', key, true, `${g.title} (${mine.length})`);
    box.dataset.group = key;
    const shown = (f: FieldSpec) => f.common === true || given[f.name] !== undefined || `${prefix}${f.name}` === focusedPath;
    const row = (f: FieldSpec) => fieldControl(f, given[f.name], filled[f.name], `${prefix}${f.name}`);
    box.append(...mine.filter(shown).map(row));
    const rest = mine.filter((f) => !shown(f));
    if (rest.length) {
      const more = fold('more', `${key}.more`, false, `${rest.length} more field${rest.length === 1 ? '' : 's'}`);
      more.append(...rest.map(row));
      box.append(more);
    }
    return [box];
  });
}

export function renderForm(): void {
  // Rebuilding the controls must not lose the keyboard's place: the focused control keeps the focus.
  const focused = document.activeElement?.id;
  const focusedPath = fieldsBox.contains(document.activeElement) ? (document.activeElement as HTMLInputElement).name || undefined : undefined;
  const system = systemOf(input.system);
  // A kind that reads warbands from profiles (a battle) needs a builder this page does not have.
  const offered = system.kinds.filter((k) => k.needsProfiles === undefined);
  const kindId = typeof input.kind === 'string' && offered.some((k) => k.id === input.kind) ? input.kind : offered[0]!.id;
  const edition = typeof input.edition === 'string' ? input.edition : system.defaultEdition;
  const filled = (exact?.scenario ?? {}) as Input;
  fieldsBox.replaceChildren(
    select('system', 'System', systems.map((s) => ({ value: s.id, text: s.title })), system.id),
    select('edition', 'Edition', system.editions.map((e) => ({ value: e.id, text: `${e.title}${e.id === system.defaultEdition ? ' (default)' : ''}` })), edition),
    select('kind', 'What to answer', offered.map((k) => ({ value: k.id, text: `${k.id}: ${k.description}` })), kindId),
  );
  const kind = system.kinds.find((k) => k.id === kindId)!;
  if (kind.sides) {
    // Each side is a model with its weapon: the side fields once per side, under its own heading; the
    // sides sit side by side where the window is wide enough (page.css).
    const sides = document.createElement('div');
    sides.className = 'sides';
    for (const side of kind.sides.keys) {
      const box = fold('side', side, true, `Side ${side}`);
      const given = (input[side] ?? {}) as Input;
      const filledSide = (filled[side] ?? {}) as Input;
      box.append(...fieldGroups(kind.sides.fields, given, filledSide, focusedPath, `${side}.`));
      sides.append(box);
    }
    fieldsBox.append(sides);
  }
  const names = kind.sides ? undefined : profileNames();
  hooks.matrixOffered(names !== undefined);
  if (names) {
    const choices = (list: readonly string[]) => [{ value: '', text: '(none: the fields below)' }, ...list.map((n) => ({ value: n, text: profileLabel(n, names.about) }))];
    // What the chosen profiles say that nothing models, said where they are chosen.
    const leftOut = [input.weapon, input.target].flatMap((n) => (typeof n === 'string' ? (names.about?.[n]?.unmodelled ?? []).map((u) => `${n}: ${u}`) : []));
    fieldsBox.append(
      select('weapon', 'Weapon', choices(names.weapons), typeof input.weapon === 'string' ? input.weapon : '', 'A weapon of the opened profiles: its fields and keywords, under any you set below'),
      select('target', 'Target model', choices(names.models), typeof input.target === 'string' ? input.target : '', 'A model of the opened profiles'),
    );
    if (names.imported) {
      const row = fieldRow('allowUnmodelled', 'Allow unmodelled', "Use a roster's weapon even when its keywords hold a token nothing models (left out, with a warning)");
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.id = 'f-allowUnmodelled';
      box.name = 'allowUnmodelled';
      box.checked = input.allowUnmodelled === true;
      row.querySelector('.control')!.append(box);
      fieldsBox.append(row);
    }
    if (leftOut.length) {
      const note = document.createElement('p');
      note.className = 'note';
      note.id = 'not-modelled';
      note.textContent = `Not modelled: ${leftOut.join('; ')}`;
      fieldsBox.append(note);
    }
  }
  fieldsBox.append(...fieldGroups(kindFields(system, kindId), input, filled, focusedPath));
  jsonBox.value = JSON.stringify(input, null, 2);
  if (focused) document.getElementById(focused)?.focus();
}

form.addEventListener('change', onFormEdit);
form.addEventListener('input', (e) => {
  // Text fields answer as the user types; selects and boxes on change.
  if ((e.target as HTMLElement).tagName === 'INPUT' && (e.target as HTMLInputElement).type === 'text') onFormEdit(e);
});

function onFormEdit(e: Event): void {
  const el = e.target as HTMLInputElement | HTMLSelectElement;
  const name = el.name;
  if (!name) return;
  if (name === 'system') {
    setInput({ system: el.value });
    setExact(undefined);
    renderForm();
  } else if (name === 'weapon' || name === 'target') {
    if (el.value === '') delete input[name];
    else input[name] = el.value;
    renderForm();
  } else if (name === 'allowUnmodelled') {
    if ((el as HTMLInputElement).checked) input.allowUnmodelled = true;
    else delete input.allowUnmodelled;
  } else if (name === 'edition' || name === 'kind') {
    input[name] = el.value;
    if (name === 'kind') {
      // Fields the new kind does not read would be refused: keep only those it reads.
      const kind = systemOf(input.system).kinds.find((k) => k.id === el.value);
      const keep = new Set([...kindFields(systemOf(input.system), el.value).map((f) => f.name), ...(kind?.sides?.keys ?? [])]);
      for (const k of Object.keys(input)) if (!['system', 'edition', 'kind'].includes(k) && !keep.has(k)) delete input[k];
      // A duel's sides start as plain models with no weapon keywords, written out so they can be edited.
      for (const side of kind?.sides?.keys ?? []) if (input[side] === undefined) input[side] = {};
      renderForm();
    }
  } else if (name.includes('.')) {
    const [side, fieldName] = name.split('.', 2) as [string, string];
    const kind = systemOf(input.system).kinds.find((k) => k.id === (input.kind ?? systemOf(input.system).kinds[0]!.id));
    const f = kind?.sides?.fields.find((x) => x.name === fieldName);
    if (!f) return;
    const v = controlValue(f, el);
    const record = { ...((input[side] ?? {}) as Input) };
    if (v === undefined) delete record[fieldName];
    else record[fieldName] = v;
    input[side] = record;
    el.closest('.field')?.classList.toggle('given', v !== undefined);
  } else {
    const f = kindFields(systemOf(input.system), String(input.kind ?? systemOf(input.system).kinds[0]!.id)).find((x) => x.name === name);
    if (!f) return;
    const v = controlValue(f, el);
    if (v === undefined) delete input[name];
    else input[name] = v;
    el.closest('.field')?.classList.toggle('given', v !== undefined);
  }
  if (input.system === undefined) setInput({ system: systemOf(undefined).id, ...input });
  jsonBox.value = JSON.stringify(input, null, 2);
  hooks.changed();
}

jsonBox.addEventListener('change', () => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonBox.value);
  } catch (err) {
    hooks.badJson(`scenario JSON: not valid JSON (${(err as Error).message})`);
    return;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    hooks.badJson('scenario JSON: not an object; allowed: a scenario, e.g. {"kind": "attack", "armour": "machine"}');
    return;
  }
  const forbidden = forbiddenKeyIn(parsed);
  if (forbidden !== undefined) {
    const { problem, remedy } = forbiddenKeyProblem(forbidden);
    hooks.badJson(`scenario JSON: ${problem}; ${remedy}`);
    return;
  }
  setInput(parsed as Input);
  renderForm();
  hooks.changed();
});

export function clearFieldErrors(): void {
  for (const o of fieldsBox.querySelectorAll('output.error')) o.textContent = '';
}

/**
 * Says `text` beside the field at `path` ("injuryDice", "a.injuryDice"), else beside the first part's
 * ("a"); false when there is no such field in sight. A field folded away would hide its message: the
 * answer says it above the form instead (it names the field).
 */
export function errorBesideField(path: string, text: string): boolean {
  const named = document.getElementById(`e-${idOf(path)}`) ?? document.getElementById(`e-${idOf(path.split('.')[0]!)}`);
  if (!named || named.closest('details:not([open])')) return false;
  named.textContent = text;
  return true;
}

/** The values an answer filled in for the fields the user left out, as placeholders and unset controls: a field's default may depend on the others. */
export function showFilled(filled: Input): void {
  for (const el of fieldsBox.querySelectorAll<HTMLInputElement>('input[type=text]')) {
    const v = valueAt(filled, el.name);
    el.placeholder = v === undefined ? '' : String(v);
  }
  for (const el of fieldsBox.querySelectorAll<HTMLInputElement>('input[type=checkbox]')) if (valueAt(input, el.name) === undefined) el.checked = valueAt(filled, el.name) === true;
  for (const el of fieldsBox.querySelectorAll<HTMLSelectElement>('.field select')) {
    const v = valueAt(filled, el.name);
    if (valueAt(input, el.name) === undefined && typeof v === 'string') el.value = v;
  }
}
