/**
 * The user's files: opened from disk and read in the page's workers by the CLI's own readers (nothing
 * leaves the page), listed with what each is to a scenario and a button to use it. What it tells the
 * rest of the page goes through the hooks page.ts gives it.
 */
import type { OpenedFile } from '../engine.js';
import { opened, PROFILE_SOURCES, setOpened } from './profiles.js';
import { input } from './state.js';
import { shelf } from './workers.js';

export interface FilesHooks {
  /** Files were added to the shelf: the workers are to read them, and the answer to be asked again (a scenario may name one). */
  readonly shelfChanged: () => void;
  /** The list of opened files is shown anew: the form's pickers follow it. */
  readonly shown: () => void;
  /** The scenario changed: a file was put to use. */
  readonly changed: () => void;
}

let hooks: FilesHooks;

export function wireFiles(h: FilesHooks): void {
  hooks = h;
}

const fileInput = document.getElementById('open-files') as HTMLInputElement;
/** What the hidden native box would not say: how many files are open. */
const filesCount = document.getElementById('files-count')!;
const openedList = document.getElementById('opened')!;

/** Bigger than any file the readers take (catalogue files are at most 64 MiB together): refused unread. */
const MAX_OPENED_BYTES = 64 * 1024 * 1024;

fileInput.addEventListener('change', async () => {
  const refused: string[] = [];
  for (const file of fileInput.files ?? []) {
    if (file.size > MAX_OPENED_BYTES) refused.push(`${file.name}: ${(file.size / 1024 / 1024).toFixed(1)} MiB is more than any file injury-lab reads (64 MiB)`);
    else shelf.set(file.name, new Uint8Array(await file.arrayBuffer()));
  }
  fileInput.value = '';
  openedList.dataset.refused = refused.join('\n');
  hooks.shelfChanged();
});

export function showOpened(files: readonly OpenedFile[]): void {
  setOpened(files);
  const items = files.map((f) => {
    const li = document.createElement('li');
    li.dataset.file = f.name;
    const what = f.problem
      ? f.problem
      : f.field === 'rules'
        ? `a variant of ${f.system}`
        : `${f.field === 'catalogue' ? 'catalogue' : f.field === 'roster' ? 'roster' : 'profiles'} of ${f.system}: ${offers(f, files)}`;
    li.append(`${f.name} (${what}) `);
    if (f.field && !f.problem) {
      const b = document.createElement('button');
      b.type = 'button';
      showInUse(b, f);
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
  hooks.shown();
}

const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const counts = (p: { readonly weapons?: readonly string[]; readonly models?: readonly string[] }) => `${counted(p.weapons?.length ?? 0, 'weapon')}, ${counted(p.models?.length ?? 0, 'model')}`;

/**
 * What a file offers, in its own counts. A catalogue file among others says its own share (the weapons
 * and models whose entries it holds: describeOpened's `held`, opened-files.ts's heldBy gives the ruling),
 * then what the catalogue files offer read together, which its pickers list.
 */
function offers(f: OpenedFile, files: readonly OpenedFile[]): string {
  const together = files.filter((o) => o.field === 'catalogue').length;
  if (f.field !== 'catalogue' || !f.held || together < 2) return counts(f);
  return `${counts(f.held)} in this file (${counts(f)} with the other catalogue file${together > 2 ? 's' : ''})`;
}

/** A file's button: "in use" (and nothing to click) while the scenario names the file, else what using it does. */
function showInUse(button: HTMLButtonElement, f: OpenedFile): void {
  const inUse = f.field === 'catalogue' ? Array.isArray(input.catalogue) && input.catalogue.includes(f.name) : f.field !== undefined && input[f.field] === f.name;
  button.textContent = inUse ? 'in use' : f.field === 'rules' ? 'use these rules' : 'use its profiles';
  button.disabled = inUse;
}

/**
 * The scenario changed (a link followed, a field edited): each file's button says again whether it is in
 * use. A followed link that names none of them once left a file "in use", its button disabled.
 */
export function showFilesInUse(): void {
  for (const f of opened) {
    const button = openedList.querySelector<HTMLButtonElement>(`li[data-file="${CSS.escape(f.name)}"] > button`);
    if (button) showInUse(button, f);
  }
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
  hooks.changed();
}

