/**
 * The user's files: opened from disk and read in the page's workers by the CLI's own readers (nothing
 * leaves the page), listed with what each is to a scenario and a button to use it; and the files a link
 * was made with (&file=NAME:DIGEST), asked for and checked before the link is answered. What it tells
 * the rest of the page goes through the hooks page.ts gives it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { OpenedFile } from '../engine.js';
import { opened, PROFILE_SOURCES, setOpened } from './profiles.js';
import { input, linkProblem } from './state.js';
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
    else {
      const bytes = new Uint8Array(await file.arrayBuffer());
      shelf.set(file.name, bytes);
      digests.set(file.name, digestOf(bytes));
    }
  }
  fileInput.value = '';
  openedList.dataset.refused = refused.join('\n');
  settle();
  showLinkFiles();
  hooks.shelfChanged();
});

// ---------------------------------------------------------------------------------------------------
// The files a link was made with

/**
 * Hex digits of a file's SHA-256 that a link keeps: 16 (64 bits). The digest tells the file a link was
 * made with from another version of it (a catalogue updated, a profiles file edited under the same
 * name), which happens by accident, not by design: two versions agreeing in 64 bits by chance is a
 * 1 in 2^64 event, and the link stays short (each file adds its name and 23 characters, where the whole
 * SHA-256 would add 71). It is no seal against someone forging a file to match: the files are the user's own,
 * and nothing leaves the page.
 */
export const DIGEST_HEX = 16;

/** Each opened file's digest, by name. */
const digests = new Map<string, string>();
/** The files the link was made with, by name, each with its digest ('' for a name alone): asked for until open as they were. */
const wanted = new Map<string, string>();

/**
 * A file's SHA-256, its first DIGEST_HEX hex digits, by @noble/hashes (audited, no dependencies), not
 * crypto.subtle: browsers give crypto.subtle only to a secure page (https, or http on localhost), and a
 * page served over plain http to another machine would make links without digests and could not check
 * a link's. One path for every page, fast enough: 4 MiB in about 25 ms in Chromium (crypto.subtle: 5 ms),
 * once per file opened, where the whole Trench Crusade catalogue set is 3 MB (64 MiB at most: 0.4 s).
 */
function digestOf(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes).subarray(0, DIGEST_HEX / 2));
}

/**
 * The names of files a link's parts use: every string in its scenario (`s`) and kept scenarios
 * (`compare`), and every value its sweep varies (`vary=rules=a.json,b.json`), that is the name of a
 * file open in the page or one the link was made with. A string that only happens to equal a file's name
 * (a weapon called "profiles.json") would make the link ask for that file too: harmless, and unlikely.
 */
function namesUsed(params: URLSearchParams): string[] {
  const known = (name: string) => shelf.has(name) || wanted.has(name);
  const found: string[] = [];
  const add = (value: string) => {
    if (known(value) && !found.includes(value)) found.push(value);
  };
  const walk = (value: unknown): void => {
    if (typeof value === 'string') add(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const key of ['s', 'compare']) {
    const text = params.get(key);
    if (text === null) continue;
    try {
      walk(JSON.parse(text));
    } catch {
      // A part that is not JSON names no file (the scenario's own reader says what is wrong with it).
    }
  }
  for (const value of (params.get('vary') ?? '').replace(/^[^=]*=/, '').split(',')) add(value.trim());
  return found;
}

/**
 * The link's files part: `file=NAME:DIGEST` for each file its other parts use, in the order they name
 * them (the name URL-encoded, the digest after its last colon: a name may hold a colon, a digest never
 * does). While the link's own files are asked for, its digests are kept (an edit before they are open,
 * or a differing file opened, must not turn the link into one made with another file). A file the link
 * named alone (a link from before digests), still not open, is named alone again (`file=NAME`).
 */
export function filesInLink(parts: readonly string[]): readonly string[] {
  const params = new URLSearchParams(parts.join('&'));
  return namesUsed(params).map((name) => {
    // || and not ??: a name the link gave alone ('') takes the open file's digest, or stays alone (never "NAME:").
    const digest = wanted.get(name) || digests.get(name);
    return `file=${encodeURIComponent(name)}${digest ? `:${digest}` : ''}`;
  });
}

/**
 * The link in the address bar with its files part made anew, the rest as it is: files were opened, and
 * a link naming them (made before they were open) now carries their digests. Written in place, not by
 * writeHash, which writes only what the panels hold now: a simulation the link asks for, not yet run,
 * would leave it.
 */
export function refreshFilesInLink(): void {
  const parts = location.hash.replace(/^#/, '').split('&').filter((p) => p !== '' && !p.startsWith('file='));
  const at = parts.findIndex((p) => p.startsWith('s='));
  if (at < 0) return;
  const next = [...parts.slice(0, at + 1), ...filesInLink(parts), ...parts.slice(at + 1)].join('&');
  if (`#${next}` !== location.hash) history.replaceState(null, '', `#${next}`);
}

/** The files a link was made with (its `file=` parts); a part that cannot be read is said once, and left out. */
export function filesFromLink(params: URLSearchParams): void {
  wanted.clear();
  for (const part of params.getAll('file')) {
    const at = part.lastIndexOf(':');
    const name = at < 0 ? part : part.slice(0, at);
    const digest = at < 0 ? undefined : part.slice(at + 1);
    if (name === '') continue;
    // A name alone (a link from a page that could not take digests) is asked for by name, and not checked.
    if (digest === undefined) wanted.set(name, '');
    else if (new RegExp(`^[0-9a-f]{${DIGEST_HEX}}$`).test(digest)) wanted.set(name, digest);
    else linkProblem(`This link's file ${JSON.stringify(name)} has no readable digest (${JSON.stringify(digest)}; ${DIGEST_HEX} hex digits of its SHA-256): it is not checked.`);
  }
  settle();
  showLinkFiles();
}

/**
 * Every file the link was made with is open as it was: the link has been honoured, and is written from
 * the open files from now on (a newer version opened later is the user's own choice, not a wrong file).
 */
function settle(): void {
  if ([...wanted].every(([name, digest]) => shelf.has(name) && (digest === '' || digests.get(name) === digest))) wanted.clear();
}

/** What stands between the link and its answer: the link's files still to open, and those that differ. */
function linkFiles(): { missing: string[]; differing: string[] } {
  const used = new Set(namesUsed(new URLSearchParams(location.hash.replace(/^#/, ''))));
  const out = { missing: [] as string[], differing: [] as string[] };
  for (const [name, digest] of wanted) {
    // A file the scenario no longer uses (the user changed it) is asked for no more.
    if (!used.has(name)) continue;
    if (!shelf.has(name)) out.missing.push(name);
    else if (digest !== '' && digests.get(name) !== digest) out.differing.push(name);
  }
  return out;
}

const quoted = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(', ');
const differs = (name: string) => `${JSON.stringify(name)} is not the file this link was made with (its content differs: SHA-256 ${digests.get(name)?.slice(0, 8)}… here, ${wanted.get(name)?.slice(0, 8)}… in the link); the answer is not shown from it.`;
const asked = (names: readonly string[]) => `This link was made with ${names.length === 1 ? 'a file' : `${names.length} files`} not open in this page: ${quoted(names)}. Open ${names.length === 1 ? 'it' : 'them'} to see its answer (each is checked against the link).`;

/**
 * The one line that keeps the link's answer from being shown, or undefined when the link's files are
 * open as it was made with them (or it names none): a differing file first, since opening more will
 * not mend it.
 */
export function linkFilesProblem(): string | undefined {
  const { missing, differing } = linkFiles();
  if (differing.length) return differs(differing[0]!);
  if (missing.length) return asked(missing);
  return undefined;
}

/** The prompt above the list: the link's files still to open (with the Open files button), and each that differs. */
const linkBox = document.createElement('div');
linkBox.id = 'link-files';
linkBox.setAttribute('role', 'status');
openedList.before(linkBox);

/** Says again what the link's files lack (a file opened, the scenario changed: it may use fewer). */
export function showLinkFiles(): void {
  const { missing, differing } = linkFiles();
  const lines: HTMLElement[] = [];
  if (missing.length) {
    const p = document.createElement('p');
    p.className = 'link-files-missing';
    const open = document.createElement('button');
    open.type = 'button';
    open.textContent = 'Open files…';
    open.addEventListener('click', () => fileInput.click());
    p.append(asked(missing), ' ', open);
    lines.push(p);
  }
  for (const name of differing) {
    const p = document.createElement('p');
    p.className = 'error';
    p.dataset.file = name;
    // The user may mean the file they opened (a newer catalogue): using it makes the link theirs.
    const use = document.createElement('button');
    use.type = 'button';
    use.textContent = 'Use this one instead';
    use.addEventListener('click', () => {
      wanted.delete(name);
      showLinkFiles();
      hooks.changed();
    });
    p.append(differs(name), ' ', use);
    lines.push(p);
  }
  linkBox.replaceChildren(...lines);
}

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

