/**
 * What every panel of the page shares: the scenario the user gave, the last exact answer, the page's
 * state for the tests and the link (the URL hash). The panels write their own parts of the link; this
 * module puts them together after the scenario's, in the order page.ts lists them.
 */
import { forbiddenKeyIn, forbiddenKeyProblem, systems, type FieldSpec, type SystemSpec } from '../engine.js';

/** A scenario as a file or the link holds it. */
export type Input = Record<string, unknown>;

const app = document.getElementById('app')!;
const linkError = document.getElementById('link-error')!;

/** What the user gave: system, edition, kind and every field they set. Fields left out take their defaults. */
export let input: Input = {};
/** The last exact answer, as `injury-lab exact --format json` prints it. */
export let exact: Record<string, unknown> | undefined;

export function setInput(next: Input): void {
  input = next;
}

export function setExact(next: Record<string, unknown> | undefined): void {
  exact = next;
}

export type PageState = 'computing' | 'ready' | 'simulating' | 'done' | 'error';

export function setState(state: PageState): void {
  app.dataset.state = state;
}

export function pageState(): string | undefined {
  return app.dataset.state;
}

export function systemOf(id: unknown): SystemSpec {
  return systems.find((s) => s.id === id) ?? systems[0]!;
}

export function kindFields(system: SystemSpec, kind: string): readonly FieldSpec[] {
  return system.fields.filter((f) => (f.kinds as readonly string[]).includes(kind));
}

// ---------------------------------------------------------------------------------------------------
// The link

/** The panels' parts of the link (each a list of "name=value"), written after the scenario's. */
let linkParts: readonly (() => readonly string[])[] = [];

/** The panels' parts of the link, in the order the link writes them. */
export function linkWrittenBy(parts: readonly (() => readonly string[])[]): void {
  linkParts = parts;
}

/** The link's files part, made from its other parts (the files they name): files.ts's filesInLink. */
let fileParts: (parts: readonly string[]) => readonly string[] = () => [];

export function linkFilesBy(parts: (others: readonly string[]) => readonly string[]): void {
  fileParts = parts;
}

/** The link: the scenario, the files it was made with (`file=NAME:DIGEST`), then the panels' parts. */
export function writeHash(): void {
  const scenario = `s=${encodeURIComponent(JSON.stringify(input))}`;
  const others = linkParts.flatMap((p) => p());
  const parts = [scenario, ...fileParts([scenario, ...others]), ...others];
  history.replaceState(null, '', `#${parts.join('&')}`);
}

/** What a link that cannot be read in full says, once, above the form (the last such problem). */
export function linkProblem(message: string): void {
  linkError.textContent = message;
}

/** The scenario a link's s= gives; one that cannot be read gives one message and the empty form. */
export function readScenario(s: string | null): void {
  input = {};
  if (s === null) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch (err) {
    linkError.textContent = `This link's scenario could not be read (not valid JSON: ${(err as Error).message}); the form starts empty.`;
  }
  if (parsed !== undefined) {
    const forbidden = forbiddenKeyIn(parsed);
    if (forbidden !== undefined) linkError.textContent = `This link's scenario was not read (its ${forbiddenKeyProblem(forbidden).problem}); the form starts empty.`;
    else if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) input = parsed as Input;
    else linkError.textContent = "This link's scenario is not a JSON object; the form starts empty.";
  }
}
