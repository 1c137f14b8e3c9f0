/**
 * The web page: a form made from the systems' field declarations (the ones the CLI's flags, --help and
 * the JSON Schema come from), exact answers computed in a Web Worker as the user types, simulations
 * over one Web Worker per core with the CLI's chunks and seeds, and the whole state in the URL hash.
 *
 * Contract (test/browser/web-page.test.ts relies on it):
 *   #s=<URL-encoded scenario JSON>[&seed=S&trials=T]   loads a scenario; seed and trials start a simulation
 *   &folds=key:open|closed,...                          folds set otherwise than their default ("model:closed,a.weapon.more:open")
 *   tr[data-outcome][data-exact="n/d"]                  each outcome row once the exact answer is in
 *   tr[data-count]                                      each row's count once the simulation is done
 *   #app[data-state]                                    "computing", "ready", "simulating", "done" or "error"
 */
import { CHUNK_SIZE, DEFAULT_SEED, esc, longFractionDigits, parseDecimal, percent, DEFAULT_TRIALS, describeAllowed, fieldTitle, orWorseLabel, outcomeLabel, parseSeed, parseTrials, systems, toolVersion, type FieldSpec, type OpenedFile, type SystemSpec } from '../engine.js';
import type { GridSim, WorkerReply, WorkerRequest } from './protocol.js';

type Input = Record<string, unknown>;

interface ExactOutcomeJson {
  readonly outcome: string;
  readonly probability: number;
  readonly exact: string;
  readonly orWorse?: number;
  readonly orWorseExact?: string;
}

interface CheckedJson {
  readonly summary: { readonly outcomes: readonly { outcome: string; count: number; probability: number; ciLow: number; ciHigh: number }[] };
  readonly check?: { readonly passed: boolean; readonly failures: readonly string[] };
  readonly chart: Record<string, unknown>;
  readonly csv: string;
}

const app = document.getElementById('app')!;
const form = document.getElementById('scenario-form') as HTMLFormElement;
const fieldsBox = document.getElementById('fields')!;
const topError = document.getElementById('scenario-error')!;
const linkError = document.getElementById('link-error')!;
const resultBox = document.getElementById('result')!;
const jsonBox = document.getElementById('scenario-json') as HTMLTextAreaElement;
const simForm = document.getElementById('simulate-form') as HTMLFormElement;
const seedInput = document.getElementById('seed') as HTMLInputElement;
const trialsInput = document.getElementById('trials') as HTMLInputElement;
const simButton = document.getElementById('simulate') as HTMLButtonElement;
const cancelButton = document.getElementById('cancel') as HTMLButtonElement;
const progress = document.getElementById('progress') as HTMLProgressElement;
const simStatus = document.getElementById('sim-status')!;
const fileInput = document.getElementById('open-files') as HTMLInputElement;
/** What the hidden native box would not say: how many files are open. */
const filesCount = document.getElementById('files-count')!;
const openedList = document.getElementById('opened')!;

/** What the user gave: system, edition, kind and every field they set. Fields left out take their defaults. */
let input: Input = {};
/** The last exact answer, as `injury-lab exact --format json` prints it. */
let exact: Record<string, unknown> | undefined;

function setState(state: 'computing' | 'ready' | 'simulating' | 'done' | 'error'): void {
  app.dataset.state = state;
}

// ---------------------------------------------------------------------------------------------------
// Workers

const workerUrl = new URL('./worker.js', import.meta.url);

/** The files the user opened, by name; every worker gets them before its first request. */
const shelf = new Map<string, Uint8Array>();
/** What each opened file is to a scenario, as the exact worker read it. */
let opened: readonly OpenedFile[] = [];

function newWorker(): Worker {
  const w = new Worker(workerUrl, { type: 'module' });
  if (shelf.size) post(w, { type: 'files', id: 0, files: [...shelf], describe: false });
  return w;
}

/**
 * The exact answer's worker. A newer request replaces an older one still running (a duel's chain can
 * take a second): the busy worker is ended and a fresh one started, so typing never queues work.
 */
let exactWorker = exactWorkerStarted();
let exactBusy = false;
let requestId = 0;

function exactWorkerStarted(): Worker {
  const w = newWorker();
  w.onmessage = (e: MessageEvent<WorkerReply>) => {
    const reply = e.data;
    if (reply.type === 'opened') {
      showOpened(reply.files);
      // A sweep, comparison or matrix naming the files now open is answered now.
      if (grid) askGrid();
      return;
    }
    if (reply.id !== requestId) return;
    exactBusy = false;
    if (reply.type === 'error') showError(reply.message, reply.bug);
    else if (reply.type === 'exact') {
      showExact(reply.result);
      csv = reply.csv;
      void drawChart(reply.chart, requestId);
    }
  };
  return w;
}

function askExact(): void {
  const id = ++requestId;
  if (exactBusy) {
    exactWorker.terminate();
    exactWorker = exactWorkerStarted();
  }
  exactBusy = true;
  setState('computing');
  post(exactWorker, { type: 'exact', id, input });
}

// ---------------------------------------------------------------------------------------------------
// The user's files: opened from disk, read in the page's workers by the CLI's own readers; nothing leaves the page

/** Bigger than any file the readers take (catalogue files are at most 64 MiB together): refused unread. */
const MAX_OPENED_BYTES = 64 * 1024 * 1024;
const PROFILE_SOURCES = ['profiles', 'roster', 'catalogue'] as const;

fileInput.addEventListener('change', async () => {
  const refused: string[] = [];
  for (const file of fileInput.files ?? []) {
    if (file.size > MAX_OPENED_BYTES) refused.push(`${file.name}: ${(file.size / 1024 / 1024).toFixed(1)} MiB is more than any file injury-lab reads (64 MiB)`);
    else shelf.set(file.name, new Uint8Array(await file.arrayBuffer()));
  }
  fileInput.value = '';
  openedList.dataset.refused = refused.join('\n');
  post(exactWorker, { type: 'files', id: 0, files: [...shelf], describe: true });
  for (const w of simPool) post(w, { type: 'files', id: 0, files: [...shelf], describe: false });
  // A scenario naming a file that was not open yet may be answered now.
  askExact();
});

function showOpened(files: readonly OpenedFile[]): void {
  opened = files;
  const items = files.map((f) => {
    const li = document.createElement('li');
    li.dataset.file = f.name;
    const what = f.problem
      ? f.problem
      : f.field === 'rules'
        ? `a variant of ${f.system}`
        : `${f.field === 'catalogue' ? 'catalogue' : f.field === 'roster' ? 'roster' : 'profiles'} of ${f.system}: ${f.weapons?.length ?? 0} weapons, ${f.models?.length ?? 0} models`;
    li.append(`${f.name} (${what}) `);
    if (f.field && !f.problem) {
      const inUse = f.field === 'catalogue' ? Array.isArray(input.catalogue) && input.catalogue.includes(f.name) : input[f.field] === f.name;
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = inUse ? 'in use' : f.field === 'rules' ? 'use these rules' : 'use its profiles';
      b.disabled = inUse;
      b.addEventListener('click', () => useFile(f));
      li.append(b);
    }
    if (f.problem) li.className = 'error';
    return li;
  });
  for (const line of (openedList.dataset.refused ?? '').split('\n').filter(Boolean)) {
    const li = document.createElement('li');
    li.className = 'error';
    li.textContent = line;
    items.push(li);
  }
  openedList.replaceChildren(...items);
  const readable = files.filter((f) => !f.problem).length;
  filesCount.textContent = files.length === 0 ? 'none open yet' : `${files.length} open in this page${readable < files.length ? ` (${files.length - readable} not readable)` : ''}`;
  renderForm();
}

function useFile(f: OpenedFile): void {
  if (f.field === 'rules') input.rules = f.name;
  else if (f.field) {
    for (const k of PROFILE_SOURCES) delete input[k];
    delete input.weapon;
    delete input.target;
    input[f.field] = f.field === 'catalogue' ? opened.filter((o) => o.field === 'catalogue').map((o) => o.name) : f.name;
  }
  if (f.system) input.system = f.system;
  showOpened(opened);
  changed();
}

/** The weapons and models the scenario's profiles source offers, as the opened files listed them. */
function profileNames(): { weapons: readonly string[]; models: readonly string[]; about: OpenedFile['profiles']; imported: boolean } | undefined {
  const source = PROFILE_SOURCES.find((k) => input[k] !== undefined);
  if (!source) return undefined;
  const name = source === 'catalogue' ? (Array.isArray(input.catalogue) ? input.catalogue[0] : input.catalogue) : input[source];
  const f = opened.find((o) => o.name === name && !o.problem);
  return f ? { weapons: f.weapons ?? [], models: f.models ?? [], about: f.profiles, imported: source !== 'profiles' } : undefined;
}

/** The scenario without its picked weapon and target: a matrix varies both. */
function withoutPicks(raw: Input): Input {
  const { weapon: _w, target: _t, ...rest } = raw;
  return rest;
}

/** A profile as a picker lists it: its name, cost and keywords ("Great Hammer (12): IGNORE ARMOUR"). */
function profileLabel(name: string, about: OpenedFile['profiles']): string {
  const p = about?.[name];
  if (!p) return name;
  return `${name}${p.cost !== undefined ? ` (${p.cost})` : ''}${p.keywords.length ? `: ${p.keywords.join(', ')}` : ''}`;
}

function post(w: Worker, req: WorkerRequest): void {
  w.postMessage(req);
}

// ---------------------------------------------------------------------------------------------------
// The form, from the field declarations

function systemOf(id: unknown): SystemSpec {
  return systems.find((s) => s.id === id) ?? systems[0]!;
}

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

/** "model:closed,weapon.more:open": the folds set otherwise than their default, as &folds= gives them. */
function foldsText(): string {
  return [...folds].map(([key, open]) => `${key}:${open ? 'open' : 'closed'}`).join(',');
}

/** Reads &folds=; an entry it cannot read is left out, and said. */
function readFolds(text: string): void {
  folds.clear();
  const bad: string[] = [];
  for (const entry of text.split(',').filter(Boolean)) {
    const m = FOLD_ENTRY.exec(entry);
    if (m) folds.set(m[1]!, m[2] === 'open');
    else bad.push(entry);
  }
  if (bad.length) linkError.textContent = `This link's folds could not all be read (${bad.join(', ')}; allowed: key:open or key:closed); those start as usual.`;
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

function kindFields(system: SystemSpec, kind: string): readonly FieldSpec[] {
  return system.fields.filter((f) => (f.kinds as readonly string[]).includes(kind));
}

function renderForm(): void {
  // Rebuilding the controls must not lose the keyboard's place: the focused control keeps the focus.
  const focused = document.activeElement?.id;
  const focusedPath = fieldsBox.contains(document.activeElement) ? (document.activeElement as HTMLInputElement).name || undefined : undefined;
  const system = systemOf(input.system);
  const kindId = typeof input.kind === 'string' && system.kinds.some((k) => k.id === input.kind) ? input.kind : system.kinds[0]!.id;
  const edition = typeof input.edition === 'string' ? input.edition : system.defaultEdition;
  const filled = (exact?.scenario ?? {}) as Input;
  fieldsBox.replaceChildren(
    select('system', 'System', systems.map((s) => ({ value: s.id, text: s.title })), system.id),
    select('edition', 'Edition', system.editions.map((e) => ({ value: e.id, text: `${e.title}${e.id === system.defaultEdition ? ' (default)' : ''}` })), edition),
    select('kind', 'What to answer', system.kinds.map((k) => ({ value: k.id, text: `${k.id}: ${k.description}` })), kindId),
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
  matrixRow.hidden = !names;
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
    input = { system: el.value };
    exact = undefined;
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
  if (input.system === undefined) input = { system: systemOf(undefined).id, ...input };
  jsonBox.value = JSON.stringify(input, null, 2);
  changed();
}

jsonBox.addEventListener('change', () => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonBox.value);
  } catch (err) {
    showError(`scenario JSON: not valid JSON (${(err as Error).message})`, false);
    return;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    showError('scenario JSON: not an object; allowed: a scenario, e.g. {"kind": "attack", "armour": "machine"}', false);
    return;
  }
  input = parsed as Input;
  renderForm();
  changed();
});

// ---------------------------------------------------------------------------------------------------
// Results

function clearErrors(): void {
  topError.textContent = '';
  for (const o of fieldsBox.querySelectorAll('output.error')) o.textContent = '';
}

/** The engine's one line, beside the field it names (it starts "field: ..."), or above the form. */
function showError(message: string, bug: boolean): void {
  clearErrors();
  exact = undefined;
  resultBox.replaceChildren();
  // The last answer's chart is no answer to what is on the form now.
  chartView?.finalize();
  chartView = undefined;
  chartBox.replaceChildren();
  delete chartBox.dataset.state;
  setState('error');
  // "injuryDice: ..." or "a.injuryDice: ...": beside that control, else beside the first part's.
  const path = /^([A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)?)[^:\s]*: /.exec(message)?.[1];
  const named = path ? (document.getElementById(`e-${idOf(path)}`) ?? document.getElementById(`e-${idOf(path.split('.')[0]!)}`)) : null;
  // A field folded away would hide its message: it is said above the form instead (it names the field).
  const beside = named?.closest('details:not([open])') ? null : named;
  const text = bug ? `Something went wrong inside injury-lab (please report it): ${message}` : message;
  if (beside) beside.textContent = text;
  else topError.textContent = text;
}

const pct = (p: number) => percent(p, 2);

/**
 * An exact fraction as the page shows it: whole when short; a duel's of 100+ digits as the CLI's tables
 * say it ("exact over N digits"), the whole fraction one click away and selectable to copy, so it never
 * pushes the answer off the screen.
 */
function fractionHtml(exact: string): string {
  const digits = longFractionDigits(exact);
  if (digits === undefined) return `<span class="fraction">${esc(exact)}</span>`;
  return `<details class="fraction long"><summary>exact over ${digits} digits</summary><code>${esc(exact)}</code></details>`;
}
/** Fractions as n/d always ("0" is "0/1"), as data-exact promises. */
const ratio = (f: string) => (f.includes('/') ? f : `${f}/1`);

function showExact(result: Record<string, unknown>): void {
  clearErrors();
  exact = result;
  const outcomes = result.outcomes as readonly ExactOutcomeJson[];
  const ranked = outcomes.some((o) => o.orWorseExact !== undefined);
  const table = document.createElement('table');
  table.id = 'outcomes';
  table.innerHTML = `<caption>${esc(heading(result))}</caption><thead><tr><th scope="col">Outcome</th><th scope="col">Probability</th><th scope="col">Exact</th>${
    ranked ? '<th scope="col">This or worse</th>' : ''
  }<th scope="col" class="sim">Simulated (95% interval)</th><th scope="col" class="sim">Count</th></tr></thead>`;
  const body = document.createElement('tbody');
  for (const o of outcomes) {
    const tr = document.createElement('tr');
    tr.dataset.outcome = o.outcome;
    tr.dataset.exact = ratio(o.exact);
    tr.innerHTML = `<th scope="row">${esc(outcomeLabel(o.outcome))}</th><td>${pct(o.probability)}</td><td>${fractionHtml(o.exact)}</td>${
      ranked ? `<td title="${esc(orWorseLabel(o.outcome))}">${o.orWorse === undefined ? '' : `${pct(o.orWorse)} ${fractionHtml(o.orWorseExact!)}`}</td>` : ''
    }<td class="sim"></td><td class="sim"></td>`;
    body.append(tr);
  }
  table.append(body);
  const means = document.createElement('dl');
  means.id = 'means';
  for (const [key, v] of Object.entries(result)) {
    if (v && typeof v === 'object' && 'exact' in v && 'value' in v) {
      const dt = document.createElement('dt');
      dt.textContent = fieldTitle(key);
      const dd = document.createElement('dd');
      dd.dataset.mean = key;
      dd.dataset.exact = ratio(String((v as { exact: string }).exact));
      dd.innerHTML = `${Number((v as { value: number }).value).toFixed(4)} ${fractionHtml(String((v as { exact: string }).exact))}`;
      means.append(dt, dd);
    }
  }
  const notes = document.createElement('ul');
  notes.className = 'notes';
  for (const n of (result.notes as string[] | undefined) ?? []) {
    const li = document.createElement('li');
    li.textContent = n;
    notes.append(li);
  }
  // What "Allow unmodelled" let through, said with the answer it changes (the CLI's warning line).
  const leftOut = (result.scenario as Record<string, unknown> | undefined)?.notModelled;
  const warning = document.createElement('p');
  warning.id = 'left-out';
  warning.className = 'note warning';
  if (typeof leftOut === 'string') warning.textContent = `Left out, not modelled: ${leftOut}`;
  resultBox.replaceChildren(...(typeof leftOut === 'string' ? [warning] : []), table, ...(means.children.length ? [means] : []), notes);
  // Refresh the placeholders: a field's default may depend on the others.
  const filled = result.scenario as Input;
  for (const el of fieldsBox.querySelectorAll<HTMLInputElement>('input[type=text]')) {
    const v = valueAt(filled, el.name);
    el.placeholder = v === undefined ? '' : String(v);
  }
  for (const el of fieldsBox.querySelectorAll<HTMLInputElement>('input[type=checkbox]')) if (valueAt(input, el.name) === undefined) el.checked = valueAt(filled, el.name) === true;
  for (const el of fieldsBox.querySelectorAll<HTMLSelectElement>('.field select')) {
    const v = valueAt(filled, el.name);
    if (valueAt(input, el.name) === undefined && typeof v === 'string') el.value = v;
  }
  setState('ready');
  if (pendingSim) {
    const s = pendingSim;
    pendingSim = undefined;
    simInLink = s;
    void simulate(s.seed, s.trials);
  }
}

function heading(result: Record<string, unknown>): string {
  const system = systemOf(result.system);
  const edition = system.editions.find((e) => e.id === result.edition)?.title ?? String(result.edition);
  return `${system.title} (${edition}), ${String(result.kind)}`;
}

// ---------------------------------------------------------------------------------------------------
// Simulation

let running: { workers: Worker[]; cancelled: boolean } | undefined;
let pendingSim: { seed: number; trials: number } | undefined;

/** A run's seed and trials as the CLI reads --seed and --trials (its one-line message if not); an empty text takes the CLI's default. */
function seedAndTrials(seed: string, trials: string): { seed: number; trials: number } {
  return {
    seed: parseSeed(seed.trim() === '' ? String(DEFAULT_SEED) : seed, 'seed'),
    trials: parseTrials(trials.trim() === '' ? String(DEFAULT_TRIALS) : trials, 'trials'),
  };
}

simForm.addEventListener('submit', (e) => {
  e.preventDefault();
  let run: { seed: number; trials: number };
  try {
    run = seedAndTrials(seedInput.value, trialsInput.value);
  } catch (err) {
    simStatus.textContent = (err as Error).message;
    return;
  }
  simInLink = run;
  writeHash();
  void simulate(run.seed, run.trials);
});

/**
 * The simulation workers, started on the first run and kept: starting a worker loads the engine (a few
 * hundred milliseconds), which would cost more than a million trials. Cancel ends them mid-chunk.
 */
let simPool: Worker[] = [];

function simWorkers(n: number): Worker[] {
  while (simPool.length < n) simPool.push(newWorker());
  return simPool.slice(0, n);
}

function endSimWorkers(): void {
  for (const w of simPool) w.terminate();
  simPool = [];
}

cancelButton.addEventListener('click', () => {
  if (!running) return;
  running.cancelled = true;
  endSimWorkers();
  running = undefined;
  simButton.disabled = false;
  cancelButton.disabled = true;
  simStatus.textContent = 'Cancelled.';
  setState(exact ? 'ready' : 'error');
});

/**
 * Chunks in batches to whichever worker is free, as piscina hands out tasks on the command line; the
 * tally is a sum, so the order the batches finish in changes nothing.
 */
async function simulate(seed: number, trials: number): Promise<void> {
  if (!exact || app.dataset.state === 'computing') {
    pendingSim = { seed, trials };
    return;
  }
  if (running) cancelButton.click();
  const chunks = Math.ceil(trials / CHUNK_SIZE);
  const cores = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 16, chunks));
  const batch = Math.max(1, Math.min(64, Math.ceil(chunks / (cores * 8))));
  // The last run's counts go: the rows show one run at a time.
  for (const tr of resultBox.querySelectorAll<HTMLTableRowElement>('tr[data-count]')) delete tr.dataset.count;
  for (const td of resultBox.querySelectorAll('td.sim')) td.textContent = '';
  const run = { workers: simWorkers(cores), cancelled: false };
  running = run;
  const scenario = input;
  setState('simulating');
  simButton.disabled = true;
  cancelButton.disabled = false;
  progress.value = 0;
  progress.hidden = false;
  simStatus.textContent = `Simulating ${trials.toLocaleString('en-GB')} trials on ${cores} worker${cores === 1 ? '' : 's'}...`;
  const started = performance.now();
  let next = 0;
  let done = 0;
  let tally: Float64Array | undefined;
  try {
    await Promise.all(
      run.workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            const give = () => {
              if (run.cancelled) return resolve();
              if (next >= chunks) return resolve();
              const first = next;
              const count = Math.min(batch, chunks - first);
              next += count;
              post(w, { type: 'chunks', id: 0, input: scenario, seed, firstChunk: first, chunkCount: count, totalTrials: trials });
            };
            w.onmessage = (e: MessageEvent<WorkerReply>) => {
              const reply = e.data;
              if (reply.type === 'error') return reject(new Error(reply.message));
              if (reply.type !== 'tally') return;
              if (!tally) tally = new Float64Array(reply.tally.length);
              for (let i = 0; i < tally.length; i++) tally[i]! += reply.tally[i]!;
              done += Math.min(trials, (reply.firstChunk + reply.chunkCount) * CHUNK_SIZE) - reply.firstChunk * CHUNK_SIZE;
              progress.value = done / trials;
              give();
            };
            w.onerror = (e) => reject(new Error(e.message));
            give();
          }),
      ),
    );
  } catch (err) {
    endSimWorkers();
    running = undefined;
    simButton.disabled = false;
    cancelButton.disabled = true;
    simStatus.textContent = (err as Error).message;
    setState('error');
    return;
  }
  if (run.cancelled || running !== run) return;
  running = undefined;
  const seconds = (performance.now() - started) / 1000;
  const checked = await check(run.workers[0]!, { input: scenario, trials, seed, workers: cores, seconds, tally: tally! });
  showSimulation(checked, { seed, trials, seconds, cores });
  csv = checked.csv;
  void drawChart(checked.chart, requestId);
}

/** Intervals and the exact-versus-simulated check, by the engine's own summarize and crossCheck (in a worker). */
function check(w: Worker, run: { input: Input; trials: number; seed: number; workers: number; seconds: number; tally: Float64Array }): Promise<CheckedJson> {
  return new Promise((resolve, reject) => {
    w.onmessage = (e: MessageEvent<WorkerReply>) => {
      const reply = e.data;
      if (reply.type === 'checked') resolve({ summary: reply.summary, check: reply.check, chart: reply.chart, csv: reply.csv });
      else if (reply.type === 'error') reject(new Error(reply.message));
    };
    post(w, { type: 'check', id: 0, ...run });
  });
}

function showSimulation(checked: CheckedJson, run: { seed: number; trials: number; seconds: number; cores: number }): void {
  for (const o of checked.summary.outcomes) {
    const tr = resultBox.querySelector<HTMLTableRowElement>(`tr[data-outcome="${CSS.escape(o.outcome)}"]`);
    if (!tr) continue;
    tr.dataset.count = String(o.count);
    const cells = tr.querySelectorAll('td.sim');
    cells[0]!.textContent = `${pct(o.probability)} (${pct(o.ciLow)}-${pct(o.ciHigh)})`;
    cells[1]!.textContent = o.count.toLocaleString('en-GB');
  }
  resultBox.querySelector('table')?.classList.add('simulated');
  const agree = checked.check
    ? checked.check.passed
      ? ' Simulation agrees with the exact answer.'
      : ` SIMULATION DISAGREES with the exact answer: ${checked.check.failures.join('; ')}`
    : '';
  simStatus.textContent = `${run.trials.toLocaleString('en-GB')} trials from seed ${run.seed} in ${run.seconds.toFixed(1)} s on ${run.cores} worker${run.cores === 1 ? '' : 's'}.${agree}`;
  progress.value = 1;
  simButton.disabled = false;
  cancelButton.disabled = true;
  setState('done');
}

// ---------------------------------------------------------------------------------------------------
// The chart: the report engine's own Vega-Lite spec (what `exact --chart` draws), drawn interactively

const chartBox = document.getElementById('chart')!;
/** The last answer's CSV, as `exact --format csv` gives it (with the estimates once simulated). */
let csv = '';
let chartView: ChartView | undefined;

interface ChartView {
  toSVG(): Promise<string>;
  toImageURL(type: string, scale?: number): Promise<string>;
  finalize(): void;
}

/**
 * Draws a spec into `box`, replacing `previous`, unless the answer it belongs to is no longer wanted by
 * the time the libraries are in. vega-embed (vega and vega-lite with it) loads with the first chart, in
 * its own chunk: the form and the first answer do not wait for it. Its tooltips show each mark's `tip`:
 * the exact fraction, and the estimate with its interval once simulated. Its actions menu is off: the
 * editor and source actions open web pages, and the page has its own downloads.
 */
async function embedChart(box: HTMLElement, spec: Record<string, unknown>, stillWanted: () => boolean, previous: ChartView | undefined): Promise<ChartView | undefined> {
  box.dataset.state = 'drawing';
  const { default: embed } = await import('vega-embed');
  if (!stillWanted()) return undefined;
  previous?.finalize();
  const result = await embed(box, fittedToBox(spec) as never, { renderer: 'svg', actions: false, tooltip: { theme: 'light' } });
  box.dataset.state = 'drawn';
  return result.view;
}

/**
 * A single view (one chart, or layers of one) drawn at its box's width rather than at the width the
 * report engine gives it (about 900 px) and then scaled down, which shrank its 12 px labels to 6 px in
 * a narrow column. Facets and concatenations keep their own widths (Vega-Lite cannot fit them) and
 * scroll in their box instead. The downloads are drawn from this view: the same chart as on screen.
 */
function fittedToBox(spec: Record<string, unknown>): Record<string, unknown> {
  const composed = ['facet', 'repeat', 'concat', 'hconcat', 'vconcat'].some((k) => k in spec);
  if (composed || typeof spec.width !== 'number') return spec;
  return { ...spec, width: 'container', autosize: { type: 'fit-x', contains: 'padding' } };
}

async function drawChart(spec: Record<string, unknown>, forRequest: number): Promise<void> {
  chartView = (await embedChart(chartBox, spec, () => forRequest === requestId, chartView)) ?? chartView;
}

// ---------------------------------------------------------------------------------------------------
// Sweeps and comparisons: the CLI's own (sweep --vary, compare), exactly, on a worker of their own

const sweepForm = document.getElementById('sweep-form') as HTMLFormElement;
const varyInput = document.getElementById('vary') as HTMLInputElement;
const gridTrialsInput = document.getElementById('grid-trials') as HTMLInputElement;
const gridSeedInput = document.getElementById('grid-seed') as HTMLInputElement;
const keepButton = document.getElementById('keep') as HTMLButtonElement;
const compareButton = document.getElementById('compare') as HTMLButtonElement;
const keptList = document.getElementById('kept')!;
const gridError = document.getElementById('grid-error')!;
const gridResult = document.getElementById('grid-result')!;
const gridChart = document.getElementById('grid-chart')!;
const gridDownloads = document.getElementById('grid-downloads')!;
const matrixRow = document.getElementById('matrix-row')!;
const valueFigure = document.getElementById('value-figure')!;
const valueChart = document.getElementById('value-chart')!;
const valueNote = document.getElementById('value-note')!;

/** The scenarios kept for a comparison, each with its name (what the verdicts call it). */
let kept: { name: string; raw: Input }[] = [];
/** What the grid shows: a sweep's --vary, or a comparison; in the link as &vary= or &compare=. */
let grid: { vary: string } | { compare: true } | { matrix: true } | undefined;
let gridCsv = '';
let gridView: ChartView | undefined;
let valueView: ChartView | undefined;
let gridRequest = 0;
/** The grid's simulation (--trials per cell and --seed), or none: exact only. In the link as &gridTrials= and &gridSeed=. */
let gridSim: GridSim | undefined;

/** Reads the grid's trials and seed as the CLI reads --trials and --seed; no trials: exact only. A bad value is said where the grid shows, and nothing runs. */
function readGridSim(): boolean {
  const trials = gridTrialsInput.value.trim();
  try {
    gridSim = trials === '' ? undefined : seedAndTrials(gridSeedInput.value, trials);
    return true;
  } catch (err) {
    gridError.textContent = (err as Error).message;
    gridResult.dataset.state = 'error';
    return false;
  }
}

/** A kept scenario's name: the fields it sets ("armour=machine, shield=true"), or "attack defaults". */
function nameOf(raw: Input): string {
  const parts = Object.entries(raw)
    .filter(([k]) => k !== 'system' && k !== 'kind')
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  const base = parts.length ? parts.join(', ') : `${String(raw.kind ?? systemOf(raw.system).kinds[0]!.id)} defaults`;
  let name = base;
  for (let n = 2; kept.some((k) => k.name === name); n++) name = `${base} (${n})`;
  return name;
}

function showKept(): void {
  keptList.replaceChildren(
    ...kept.map((k) => {
      const li = document.createElement('li');
      li.textContent = k.name;
      return li;
    }),
  );
  compareButton.disabled = kept.length < 2;
}

keepButton.addEventListener('click', () => {
  kept.push({ name: nameOf(input), raw: structuredClone(input) });
  showKept();
  writeHash();
});

document.getElementById('clear-kept')!.addEventListener('click', () => {
  kept = [];
  showKept();
  if (grid && 'compare' in grid) clearGrid();
  writeHash();
});

compareButton.addEventListener('click', () => {
  if (!readGridSim()) return;
  grid = { compare: true };
  writeHash();
  askGrid();
});

document.getElementById('matrix')!.addEventListener('click', () => {
  grid = { matrix: true };
  writeHash();
  askGrid();
});

sweepForm.addEventListener('submit', (e) => {
  e.preventDefault();
  if (!readGridSim()) return;
  grid = { vary: varyInput.value.trim() };
  writeHash();
  askGrid();
});

function clearGrid(): void {
  grid = undefined;
  gridWorker?.terminate();
  gridWorker = undefined;
  gridError.textContent = '';
  gridResult.replaceChildren();
  gridView?.finalize();
  gridView = undefined;
  gridChart.replaceChildren();
  gridDownloads.hidden = true;
  delete gridResult.dataset.state;
  clearValue();
}

function clearValue(): void {
  valueView?.finalize();
  valueView = undefined;
  valueChart.replaceChildren();
  valueFigure.hidden = true;
  valueNote.textContent = '';
}

/** The grid's own worker: a big sweep must not hold up the answer as the user types. A newer grid ends it. */
let gridWorker: Worker | undefined;

function askGrid(): void {
  if (!grid) return;
  const id = ++gridRequest;
  gridWorker?.terminate();
  const w = newWorker();
  gridWorker = w;
  gridError.textContent = '';
  gridResult.dataset.state = 'computing';
  w.onmessage = (e: MessageEvent<WorkerReply>) => {
    const reply = e.data;
    if (reply.id !== id || id !== gridRequest) return;
    if (reply.type === 'error') {
      gridResult.replaceChildren();
      gridChart.replaceChildren();
      gridDownloads.hidden = true;
      gridError.textContent = reply.bug ? `Something went wrong inside injury-lab (please report it): ${reply.message}` : reply.message;
      gridResult.dataset.state = 'error';
      delete gridResult.dataset.kind;
    } else if (reply.type === 'swept' || reply.type === 'compared') {
      showGrid(reply.type, reply.json, reply.words);
      gridCsv = reply.csv;
      void drawGridChart(reply.chart, id);
      clearValue();
      valueNote.textContent = reply.valueNote ?? '';
      if (reply.value) {
        valueFigure.hidden = false;
        void embedChart(valueChart, reply.value, () => id === gridRequest, undefined).then((v) => (valueView = v));
      }
    } else return;
    w.terminate();
    if (gridWorker === w) gridWorker = undefined;
  };
  const sim = gridSim ? { sim: gridSim } : {};
  if ('vary' in grid) post(w, { type: 'sweep', id, input, vary: grid.vary, ...sim });
  else if ('matrix' in grid) {
    const names = profileNames();
    if (!names) {
      gridError.textContent = 'matrix: no profiles in use; open a profiles file, roster or catalogue and use it first';
      gridResult.dataset.state = 'error';
      return;
    }
    post(w, { type: 'matrix', id, input: withoutPicks(input), weapons: names.weapons, models: names.models });
  } else post(w, { type: 'compare', id, scenarios: kept, ...sim });
}

interface GridOutcome {
  readonly outcome: string;
  readonly exact?: string;
  readonly probability?: number;
  /** A simulated grid's estimate and its 95% interval. */
  readonly estimate?: number;
  readonly ciLow?: number;
  readonly ciHigh?: number;
}

/** A simulated cell's estimate and 95% interval, beside its exact value. */
function estimateText(o: GridOutcome): string {
  return o.estimate === undefined ? '' : ` <span class="sim" data-estimate="${o.estimate}">sim ${pct(o.estimate)} (${pct(o.ciLow!)}-${pct(o.ciHigh!)})</span>`;
}

/** Rows of outcomes: a sweep's cells by their labels, or the compared scenarios by name; then the words. */
function showGrid(type: 'swept' | 'compared', json: Record<string, unknown>, words: readonly string[]): void {
  const outcomes = json.outcomes as readonly string[];
  const rows =
    type === 'swept'
      ? (json.cells as readonly { labels: string[]; outcomes?: GridOutcome[]; allowed?: boolean; reason?: string }[]).map((c) => ({
          name: c.labels.join(', '),
          outcomes: c.outcomes ?? [],
          note: c.allowed === false ? (c.reason ?? 'not allowed') : undefined,
        }))
      : (json.scenarios as readonly { name: string; outcomes: GridOutcome[] }[]).map((s) => ({ name: s.name, outcomes: s.outcomes, note: undefined }));
  const table = document.createElement('table');
  table.id = 'grid-table';
  const head = type === 'swept' ? (json.dimensions as readonly { title: string }[]).map((d) => d.title).join(', ') : 'Scenario';
  table.innerHTML = `<thead><tr><th scope="col">${esc(head)}</th>${outcomes.map((o) => `<th scope="col">${esc(outcomeLabel(o))}</th>`).join('')}</tr></thead>`;
  const body = document.createElement('tbody');
  for (const r of rows) {
    const tr = document.createElement('tr');
    tr.dataset.row = r.name;
    const byId = new Map(r.outcomes.map((o) => [o.outcome, o]));
    tr.innerHTML =
      `<th scope="row">${esc(r.name)}</th>` +
      (r.note !== undefined
        ? `<td colspan="${outcomes.length}">not allowed: ${esc(r.note)}</td>`
        : outcomes
            .map((id) => {
              const o = byId.get(id);
              return o?.exact === undefined ? '<td>-</td>' : `<td data-outcome="${esc(id)}" data-exact="${esc(ratio(o.exact))}">${pct(o.probability!)} ${fractionHtml(o.exact)}${estimateText(o)}</td>`;
            })
            .join(''));
    body.append(tr);
  }
  table.append(body);
  const list = document.createElement('ul');
  list.className = 'words';
  for (const w of words) {
    const li = document.createElement('li');
    li.textContent = w;
    list.append(li);
  }
  gridResult.replaceChildren(list, table);
  gridResult.dataset.state = 'ready';
  gridResult.dataset.kind = type;
  gridDownloads.hidden = false;
}

async function drawGridChart(spec: Record<string, unknown>, forRequest: number): Promise<void> {
  gridView = (await embedChart(gridChart, spec, () => forRequest === gridRequest, gridView)) ?? gridView;
}

const gridName = () => `${fileName()}-${grid && 'vary' in grid ? 'sweep' : grid && 'matrix' in grid ? 'matrix' : 'compare'}`;
document.getElementById('download-grid-csv')!.addEventListener('click', () => {
  if (gridCsv) download(`${gridName()}.csv`, 'text/csv', gridCsv);
});
document.getElementById('download-grid-svg')!.addEventListener('click', async () => {
  if (gridView) download(`${gridName()}.svg`, 'image/svg+xml', await gridView.toSVG());
});

// ---------------------------------------------------------------------------------------------------
// Permalinks

/**
 * The seed and trials of the simulation on screen (run, or asked for by the link), kept in the link
 * whatever else writes it: a sweep or a kept scenario once dropped it.
 */
let simInLink: { seed: number; trials: number } | undefined;

function writeHash(sim = simInLink): void {
  const parts = [`s=${encodeURIComponent(JSON.stringify(input))}`];
  if (sim) parts.push(`seed=${sim.seed}`, `trials=${sim.trials}`);
  if (grid && 'vary' in grid) parts.push(`vary=${encodeURIComponent(grid.vary)}`);
  if (gridSim && grid && !('matrix' in grid)) parts.push(`gridTrials=${gridSim.trials}`, `gridSeed=${gridSim.seed}`);
  if (grid && 'matrix' in grid) parts.push('matrix=1');
  if (kept.length) parts.push(`compare=${encodeURIComponent(JSON.stringify(kept))}`);
  if (folds.size) parts.push(`folds=${foldsText()}`);
  history.replaceState(null, '', `#${parts.join('&')}`);
}

function changed(): void {
  // The scenario changed: the simulation on screen is of the old one, and leaves the link with it.
  simInLink = undefined;
  if (running) cancelButton.click();
  for (const td of resultBox.querySelectorAll('td.sim')) td.textContent = '';
  simStatus.textContent = '';
  progress.hidden = true;
  writeHash();
  askExact();
  // A sweep varies the scenario as it now is; a comparison is of the kept scenarios, which stay as they were.
  if (grid && ('vary' in grid || 'matrix' in grid)) askGrid();
}

/** The state a link gives; a link that cannot be read gives one message and the empty form. */
function readHash(): void {
  linkError.textContent = '';
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const s = params.get('s');
  input = {};
  pendingSim = undefined;
  readFolds(params.get('folds') ?? '');
  if (s !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(s);
    } catch (err) {
      linkError.textContent = `This link's scenario could not be read (not valid JSON: ${(err as Error).message}); the form starts empty.`;
    }
    if (parsed !== undefined) {
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) input = parsed as Input;
      else linkError.textContent = "This link's scenario is not a JSON object; the form starts empty.";
    }
  }
  const seedText = params.get('seed');
  const trialsText = params.get('trials');
  if (seedText !== null || trialsText !== null) {
    try {
      const { seed, trials } = seedAndTrials(seedText ?? '', trialsText ?? '');
      seedInput.value = String(seed);
      trialsInput.value = String(trials);
      pendingSim = { seed, trials };
    } catch (err) {
      linkError.textContent = `This link's simulation cannot run: ${(err as Error).message}`;
    }
  }
  clearGrid();
  gridSim = undefined;
  const gridTrials = params.get('gridTrials');
  gridTrialsInput.value = gridTrials ?? '';
  gridSeedInput.value = params.get('gridSeed') ?? '';
  if (gridTrials !== null) {
    try {
      gridSim = seedAndTrials(params.get('gridSeed') ?? '', gridTrials);
    } catch (err) {
      linkError.textContent = `This link's sweep or comparison cannot be simulated (it is answered exactly): ${(err as Error).message}`;
    }
  }
  const vary = params.get('vary');
  const compare = params.get('compare');
  kept = [];
  if (compare !== null) {
    try {
      const list = JSON.parse(compare) as unknown;
      if (!Array.isArray(list) || !list.every((k) => k && typeof k === 'object' && typeof k.name === 'string' && k.raw && typeof k.raw === 'object' && !Array.isArray(k.raw))) throw new Error('not a list of {"name", "raw"} scenarios');
      kept = list as typeof kept;
    } catch (err) {
      linkError.textContent = `This link's kept scenarios could not be read (${(err as Error).message}); none are kept.`;
    }
  }
  showKept();
  if (vary !== null) {
    varyInput.value = vary;
    grid = { vary };
  } else if (params.get('matrix') === '1') grid = { matrix: true };
  else if (kept.length >= 2) grid = { compare: true };
  exact = undefined;
  renderForm();
  askExact();
  askGrid();
}

window.addEventListener('hashchange', () => {
  // Our own replaceState fires no hashchange: this is the user pasting or following a link.
  readHash();
});

// ---------------------------------------------------------------------------------------------------
// Downloads: made in the page, from what it shows

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const fileName = () => [input.system ?? systemOf(undefined).id, input.kind ?? 'scenario'].join('-').replace(/[^A-Za-z0-9_-]+/g, '-');
// The scenario as the user gave it: `injury-lab exact FILE` reads it unchanged (files it names beside it).
document.getElementById('download-scenario')!.addEventListener('click', () => download(`${fileName()}.json`, 'application/json', JSON.stringify(input, null, 2) + '\n'));
document.getElementById('download-csv')!.addEventListener('click', () => {
  if (csv) download(`${fileName()}.csv`, 'text/csv', csv);
});
document.getElementById('download-svg')!.addEventListener('click', async () => {
  if (chartView) download(`${fileName()}.svg`, 'image/svg+xml', await chartView.toSVG());
});
document.getElementById('download-png')!.addEventListener('click', async () => {
  if (!chartView) return;
  const a = document.createElement('a');
  a.href = await chartView.toImageURL('png', 2);
  a.download = `${fileName()}.png`;
  a.click();
});
// What `injury-lab exact FILE --format json` prints for it.
document.getElementById('download-answer')!.addEventListener('click', () => {
  if (exact) download(`${fileName()}-exact.json`, 'application/json', JSON.stringify(exact, null, 2) + '\n');
});

document.getElementById('version')!.textContent = toolVersion;
readHash();
