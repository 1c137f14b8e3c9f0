import { unmodelledText, type LeftOutKind, type Profile, type Profiles, type Unmodelled } from '../../model/profiles.js';
import { renderTable, terminalSafeLines } from '../../text.js';

/**
 * What a roster's or catalogue's reading comes to, counted once for `profiles`' summary, `--stopping`
 * and `--left-out` (and `--explain --format json`'s summary): each category is declared here alone, so
 * a count the summary prints is the number of entries its command lists. Browser-safe: no node: import.
 */

/**
 * A question an entry can stop: the model as a target, a weapon in the model's hands, the weapon itself,
 * and the entry in a fight that goes on (a duel, a sequence), where what follows an attack counts too.
 */
export type Question = 'target' | 'inHands' | 'weapon' | 'fights';
export const QUESTION_TEXT: Readonly<Record<Question, string>> = { target: 'as a target', inHands: 'in its hands', weapon: 'the weapon', fights: 'in duels and sequences only' };

/**
 * What makes an item stop a question, in the order the summary lists them: a sentence not read, by the
 * class of what it touches (docs/import.md, "Rules text", says which questions each class stops: a
 * model's and a weapon's differ, so the labels say the sentence, not the question), and the causes that
 * are no text. The keys are what `--stopping CAUSE` takes.
 */
export const STOP_CAUSES = {
  'target-text': 'a sentence about rolls against the model',
  'attacker-text': "a sentence about the model's own attacks",
  'weapon-text': "a sentence about the weapon's own attack",
  'fight-text': 'a sentence about what follows an attack (duels and sequences)',
  'unclear-text': 'a sentence no form classes',
  keyword: 'a keyword token the rule table does not know',
  armour: 'an Armour value that is no armour',
  dice: 'a Melee or Ranged value that is not dice',
  other: "a value out of its field's range, or keywords the rule table refuses",
} as const;
export type StopCause = keyof typeof STOP_CAUSES;

/** Why items were read into no profile, in the order the summary lists them; the keys are what `--left-out KIND` takes. */
export const LEFT_OUT_KINDS: Readonly<Record<LeftOutKind, string>> = {
  hidden: 'entries hidden for every faction',
  unlinked: 'shared profiles no entry links',
  'file-not-given': 'links to a file not given',
  'option-profile': 'weapon profiles only an option shows',
  'too-many-choices': 'compulsory choices too many to read',
  selection: 'selections neither a model nor a weapon',
  'warband-rule': 'warband rules',
};

/** A sentence is classed by what it touches; the other causes are known by where the item was. */
export function stopCause(u: Unmodelled): StopCause {
  if (u.touches !== undefined && u.touches !== 'none' && u.touches !== 'option') return `${u.touches}-text`;
  if (u.from === 'keywords') return 'keyword';
  if (u.from === 'armour') return 'armour';
  // A "MODEL with WEAPON" names whose characteristic it was ("Bell Golem's characteristic").
  if (u.from === 'characteristic' || u.from.endsWith("'s characteristic")) return 'dice';
  return 'other';
}

/** A "MODEL with WEAPON" of a roster (or a model's own weapon profile) is counted apart from the weapons it pairs. */
export type EntryKind = 'model' | 'weapon' | 'model with weapon';

/** An entry that stops some question: which, and every item that stops one, in the order a command meets them. */
export interface StoppingEntry {
  readonly profile: Profile;
  readonly kind: EntryKind;
  readonly stops: readonly Question[];
  readonly items: readonly Unmodelled[];
}

export interface ProfileTotals {
  readonly models: number;
  readonly weapons: number;
  readonly pairings: number;
  /** Entries no item of which stops any question. */
  readonly readWhole: number;
  readonly stopping: readonly StoppingEntry[];
  /** Entries with at least one item of the cause: an entry with two causes is counted under each. */
  readonly byCause: Readonly<Record<StopCause, number>>;
  readonly byQuestion: Readonly<Record<Question, number>>;
  readonly leftOut: readonly Unmodelled[];
  readonly byKind: Readonly<Record<LeftOutKind, number>>;
}

/** The items of an entry that stop a question, each once: a model's unclear sentence stops it as a target and in its hands. */
function stoppingOf(p: Profile): { stops: Question[]; items: Unmodelled[] } {
  const every = (p.unmodelled ?? []).filter((u) => u.stops);
  const own = every.filter((u) => u.touches !== 'fight');
  const inFights = every.filter((u) => u.touches === 'fight');
  const inHands = (p.ownAttackText ?? []).filter((a) => a.stops && !own.some((u) => u.text === a.text && u.from === a.from));
  const stops: Question[] = [
    ...(own.length ? [p.role === 'weapon' ? ('weapon' as const) : ('target' as const)] : []),
    ...(p.role === 'model' && p.ownAttackText?.some((a) => a.stops) ? ['inHands' as const] : []),
    // Said only where nothing else stops it: a question stopped anyway stops in duels too.
    ...(inFights.length && !own.length ? ['fights' as const] : []),
  ];
  return { stops, items: [...own, ...inHands, ...inFights] };
}

const zeros = <K extends string>(keys: readonly K[]): Record<K, number> => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

export function profileTotals(p: Profiles): ProfileTotals {
  const models = [...p.models.keys()];
  const isPairing = (name: string) => models.some((m) => name.startsWith(`${m} with `) && p.weapons.has(name.slice(m.length + ' with '.length)));
  const entries = [...[...p.models.values()].map((x) => ({ profile: x, kind: 'model' as EntryKind })), ...[...p.weapons.values()].map((x) => ({ profile: x, kind: (isPairing(x.name) ? 'model with weapon' : 'weapon') as EntryKind }))];
  const stopping: StoppingEntry[] = [];
  const byCause = zeros(Object.keys(STOP_CAUSES) as StopCause[]);
  const byQuestion = zeros<Question>(['target', 'inHands', 'weapon', 'fights']);
  for (const e of entries) {
    const { stops, items } = stoppingOf(e.profile);
    if (stops.length === 0) continue;
    stopping.push({ ...e, stops, items });
    for (const c of new Set(items.map(stopCause))) byCause[c]++;
    for (const q of stops) byQuestion[q]++;
  }
  // The same upgrade offered by several factions is listed once per offer, in the same words: counted once.
  const leftOut = [...new Map((p.unmodelled ?? []).map((u) => [JSON.stringify([u.text, u.from, u.why, u.leftOut]), u])).values()];
  const byKind = zeros(Object.keys(LEFT_OUT_KINDS) as LeftOutKind[]);
  for (const u of leftOut) if (u.leftOut) byKind[u.leftOut]++;
  const pairings = entries.filter((e) => e.kind === 'model with weapon').length;
  return { models: models.length, weapons: p.weapons.size - pairings, pairings, readWhole: entries.length - stopping.length, stopping, byCause, byQuestion, leftOut, byKind };
}

/** The entries `--stopping [CAUSE]` lists: those with an item of the cause (all that stop, without one), each with its first such item. */
export function stoppingListed(t: ProfileTotals, cause?: StopCause): { entry: StoppingEntry; first: Unmodelled }[] {
  return t.stopping.flatMap((entry) => {
    const first = entry.items.find((u) => cause === undefined || stopCause(u) === cause);
    return first ? [{ entry, first }] : [];
  });
}

/** The items `--left-out [KIND]` lists. */
export const leftOutListed = (t: ProfileTotals, kind?: LeftOutKind): readonly Unmodelled[] => (kind === undefined ? t.leftOut : t.leftOut.filter((u) => u.leftOut === kind));

const entryName = (e: StoppingEntry) => `${e.kind} ${JSON.stringify(e.profile.name)}`;

/**
 * The summary `profiles --roster/--catalogue` starts with: the counts, then for each group that has any
 * the command that lists it (`command`: the one the user gave, quoted for a shell, without --format).
 */
export function totalsTable(t: ProfileTotals, command: string): string {
  const questions = (Object.keys(QUESTION_TEXT) as Question[]).filter((q) => t.byQuestion[q] > 0).map((q) => `${QUESTION_TEXT[q]} ${t.byQuestion[q]}`);
  const rows: { label: string; count: number; flag?: string; note?: string }[] = [
    { label: 'read whole (nothing stops a question)', count: t.readWhole },
    { label: 'stop some question', count: t.stopping.length, flag: '--stopping', ...(questions.length ? { note: `(${questions.join(', ')})` } : {}) },
    ...(Object.keys(STOP_CAUSES) as StopCause[]).filter((c) => t.byCause[c] > 0).map((c) => ({ label: `  ${STOP_CAUSES[c]}`, count: t.byCause[c], flag: `--stopping ${c}` })),
    { label: 'left out (read into no profile)', count: t.leftOut.length, flag: '--left-out' },
    ...(Object.keys(LEFT_OUT_KINDS) as LeftOutKind[]).filter((k) => t.byKind[k] > 0).map((k) => ({ label: `  ${LEFT_OUT_KINDS[k]}`, count: t.byKind[k], flag: `--left-out ${k}` })),
  ];
  const width = Math.max(...rows.map((r) => r.label.length));
  const digits = Math.max(...rows.map((r) => String(r.count).length));
  const flags = Math.max(...rows.map((r) => (r.count > 0 ? (r.flag ?? '') : '').length));
  const pairings = t.pairings ? `, ${t.pairings} "MODEL with WEAPON"` : '';
  const lines = [`Summary: ${t.models} models, ${t.weapons} weapons${pairings} (an entry that stops for two causes is counted under each)`];
  // The flag beside each count is the tail of its command below, which a long list of files pushes off screen.
  for (const r of rows) lines.push(`  ${r.label.padEnd(width)}  ${String(r.count).padStart(digits)}  ${(r.count > 0 ? (r.flag ?? '') : '').padEnd(flags)}${r.note ? `  ${r.note}` : ''}`.trimEnd());
  const listed = rows.filter((r) => r.count > 0 && r.flag !== undefined);
  if (listed.length) lines.push('Each group is listed by:', ...listed.map((r) => `  ${command} ${r.flag!}`));
  return terminalSafeLines(`${lines.join('\n')}\n\n`);
}

/** `--explain --format json`'s summary: the same counts, by key. */
export function totalsJson(t: ProfileTotals) {
  return {
    models: t.models,
    weapons: t.weapons,
    modelsWithWeapons: t.pairings,
    readWhole: t.readWhole,
    stopping: t.stopping.length,
    stoppingByQuestion: t.byQuestion,
    stoppingByCause: t.byCause,
    leftOut: t.leftOut.length,
    leftOutByKind: t.byKind,
  };
}

/** `--stopping`: one row per entry, with the questions it stops, the cause and its first item. */
export function stoppingTable(t: ProfileTotals, cause: StopCause | undefined, file: string): string {
  const listed = stoppingListed(t, cause);
  const title = `${file}: ${listed.length} entr${listed.length === 1 ? 'y' : 'ies'} that stop some question${cause ? `, by ${STOP_CAUSES[cause]}` : ''}`;
  if (!listed.length) return terminalSafeLines(`${title}\n  (none)\n`);
  const rows = listed.map(({ entry, first }) => [entryName(entry), entry.stops.map((q) => QUESTION_TEXT[q]).join(', '), stopCause(first), unmodelledText(first)]);
  return terminalSafeLines(`${title}\n${renderTable(['entry', 'stops', 'cause', 'first item that stops it'], rows)}\n`);
}

export function stoppingJson(t: ProfileTotals, cause: StopCause | undefined, file: string) {
  return {
    file,
    stopping: stoppingListed(t, cause).map(({ entry, first }) => ({
      name: entry.profile.name,
      kind: entry.kind,
      stops: entry.stops,
      causes: [...new Set(entry.items.map(stopCause))],
      first: { text: first.text, from: first.from, why: first.why, cause: stopCause(first), ...(first.touches ? { touches: first.touches } : {}), ...(first.attackType ? { attackType: first.attackType } : {}) },
    })),
  };
}

/** `--left-out`: one row per item read into no profile. */
export function leftOutTable(t: ProfileTotals, kind: LeftOutKind | undefined, file: string): string {
  const listed = leftOutListed(t, kind);
  const title = `${file}: ${listed.length} item${listed.length === 1 ? '' : 's'} read into no profile${kind ? `: ${LEFT_OUT_KINDS[kind]}` : ''}`;
  if (!listed.length) return terminalSafeLines(`${title}\n  (none)\n`);
  return terminalSafeLines(`${title}\n${renderTable(['kind', 'item'], listed.map((u) => [u.leftOut ?? '-', unmodelledText(u)]))}\n`);
}

export function leftOutJson(t: ProfileTotals, kind: LeftOutKind | undefined, file: string) {
  return { file, leftOut: leftOutListed(t, kind).map((u) => ({ text: u.text, from: u.from, why: u.why, ...(u.leftOut ? { kind: u.leftOut } : {}) })) };
}
