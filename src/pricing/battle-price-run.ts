/**
 * `injury-lab price --by battles`: the field read as duels read it (./price-run.ts: every model with
 * each weapon of its loadout, narrowed by --models, --weapons, --where), each match-up read as
 * `injury-lab battle` reads a battle (src/input/battle-core.ts: every attack resolved and checked as a
 * duel reads it), played on the simulation threads, and priced by ./battle-prices.ts.
 */
import { profilesOfSource } from '../input/profile-source.js';
import { MAX_ENTRY_COUNT, readWarbandEntry, resolveBattleWith, type AttacksRead, type BattleSettings } from '../input/battle-core.js';
import { resolveInputs, validateFields } from '../input/scenario.js';
import type { Scenario } from '../model/types.js';
import { UsageError, showValue } from '../errors.js';
import { tallyLength, tallyOffsets } from '../model/tally.js';
import { battleLayoutOf } from '../rules/trench-crusade/battle/report.js';
import { battlePlanOf, type ResolvedBattle, type ResolvedBattleSide } from '../rules/trench-crusade/battle/resolved.js';
import { A_WINS, B_WINS, DRAW } from '../rules/trench-crusade/battle/report.js';
import { battleFields } from '../rules/trench-crusade/battle/fields.js';
import { simulateSource, type ChunkPlayer } from '../pool/simulate.js';
import { defaultWorkers } from '../pool/threads.js';
import { fieldFromProfiles } from './field.js';
import type { DuelEntry } from './duel-matrix.js';
import { leftOutOf, meetingAll } from './price-run.js';
import { priceSourceText, type BattlePriceSettings } from './price-settings.js';
import { type BattlePriceResult, priceByBattles } from './battle-prices.js';

export interface BattlePricedField {
  readonly result: BattlePriceResult;
  /** The field as the user named it. */
  readonly field: string;
  readonly system: string;
  readonly edition: string;
  readonly leftOut: readonly { readonly name: string; readonly note: string }[];
  /** The game every battle is, as said above the table. */
  readonly game: string;
  /** What the battles assumed where the profiles said nothing (an entry without a melee weapon fights unarmed). */
  readonly notes: readonly string[];
}

export interface BattlePriceRunOptions {
  /** What plays the battles: the local threads by default, a queue's hosts. */
  readonly player?: ChunkPlayer;
  readonly workers?: number;
  readonly signal?: AbortSignal;
  /** After each match-up: those played, and those expected in all (a guess that grows as the search goes: battle-prices.ts). */
  readonly onProgress?: (done: number, expected: number) => void;
  /** Match-ups in play at once: by default MATCHUPS_PER_THREAD a thread, or MATCHUPS_ON_A_QUEUE with a queue's player. */
  readonly atOnce?: number;
}

/** A side of one entry, with `count` copies of it. */
function withCount(side: ResolvedBattleSide, name: string, count: number): ResolvedBattleSide {
  const text = `${name} x${count}`;
  return { ...side, label: text, entries: side.entries.map((e) => ({ ...e, name: text, count })) };
}

/**
 * Match-ups in play at once: each is one task of its games, so two a thread keep every thread busy while
 * the next is read; a queue's hosts are many, and take more.
 */
const MATCHUPS_PER_THREAD = 2;
const MATCHUPS_ON_A_QUEUE = 64;

/** How a refusal names an entry of the field. */
const ENTRY = 'entry';

/** An entry as a warband's text names it, quoted as a list's value (a name may hold a comma), with its count. */
const entryText = (name: string, count: number) => `"${name.replace(/"/g, '""')} x${count}"`;

export async function battlePriceOfSettings(settings: BattlePriceSettings, options: BattlePriceRunOptions = {}): Promise<BattlePricedField> {
  const source = profilesOfSource(settings);
  const { profiles, base } = source;
  const { models, weapons, where } = settings;
  const duelBase = { system: profiles.system.id, ...base, ...(settings.edition !== undefined ? { edition: settings.edition } : {}) };
  // The field as written (whole kits), or every model with each weapon of its loadout.
  const whole: DuelEntry[] = settings.entries
    ? settings.entries.map((text): DuelEntry => {
        const read = readWarbandEntry(text, profiles, '--entries');
        return { name: text, side: { model: read.model, ...(read.weapons[0] !== undefined ? { weapon: read.weapons[0] } : {}) }, ...(read.cost !== undefined && read.cost > 0 ? { price: read.cost } : {}) };
      })
    : fieldFromProfiles(profiles, { attackType: settings.attackType, ...(models ? { models } : {}), ...(weapons ? { weapons } : {}) });
  const field = where ? meetingAll(whole, where, profiles, duelBase) : whole;
  // Every attack of a match-up is one entry's weapon against another's body, whatever the counts: read once.
  const read = new Map<string, Scenario>();
  const validate = (raw: Record<string, unknown>, origin: string): Scenario => {
    const key = JSON.stringify(raw);
    let scenario = read.get(key);
    if (scenario === undefined) {
      scenario = validateFields(resolveInputs(raw, origin), origin);
      read.set(key, scenario);
    }
    return scenario;
  };
  const notes = new Set<string>();
  const attacksRead: AttacksRead = new Map();
  let edition = String(settings.edition ?? '');
  // Each warband is its count, as written: no ducats buy it, no Field Strength cuts it.
  const game = Object.fromEntries(battleFields.map((f) => [f.name, f.name === 'ducats' || f.name === 'fieldStrength' ? 0 : settings[f.name as keyof BattlePriceSettings]]));
  // Each pair read once, at one copy a side, in field order; a match-up is that battle with its counts,
  // sides swapped where the later entry is side a (a battle's sides are alike but for their letter).
  const pairsRead = new Map<string, ResolvedBattle>();
  const battleOf = (a: { entry: number; count: number }, b: { entry: number; count: number }): ResolvedBattle => {
    const [first, second] = a.entry <= b.entry ? [a, b] : [b, a];
    const key = `${first.entry}:${second.entry}`;
    let read = pairsRead.get(key);
    if (read === undefined) {
      read = readPair(first.entry, second.entry);
      pairsRead.set(key, read);
    }
    const [sideA, sideB] = a.entry <= b.entry ? [read.a, read.b] : [read.b, read.a];
    return { ...read, a: withCount(sideA, field[a.entry]!.name, a.count), b: withCount(sideB, field[b.entry]!.name, b.count) };
  };
  const readPair = (first: number, second: number): ResolvedBattle => {
    const a = { entry: first, count: 1 };
    const b = { entry: second, count: 1 };
    const asked = {
      ...(settings.profiles !== undefined ? { profiles: settings.profiles } : {}),
      ...(settings.roster !== undefined ? { roster: settings.roster } : {}),
      ...(settings.catalogue !== undefined ? { catalogue: settings.catalogue } : {}),
      ...(settings.allowUnmodelled ? { allowUnmodelled: true } : {}),
      ...(settings.edition !== undefined ? { edition: settings.edition } : {}),
      ...game,
      a: entryText(field[a.entry]!.name, a.count),
      b: entryText(field[b.entry]!.name, b.count),
      aTactic: settings.tactic,
      bTactic: settings.tactic,
      aBlood: settings.blood,
      bBlood: settings.blood,
    } as unknown as BattleSettings;
    const { battle, notes: said } = resolveBattleWith(asked, source, validate, (name) => (name === 'a' || name === 'b' ? ENTRY : `--${name}`), attacksRead);
    // The notes name a side; the field's entries are what they are about.
    for (const note of said) notes.add(note.replace(/^[ab]: /, '').replace(/ x\d+:/, ':'));
    edition = battle.edition;
    return battle;
  };
  // Every pair read (and checked) before any battle. An entry whose attacks the rules refuse (a weapon's
  // keywords that cannot go together, against some body) is left out of the field with the reason, as a
  // profile's unmodelled rule is: one entry's reading stops no one else's price.
  const refused = new Map<number, string>();
  const refusalOf = (i: number, j: number): string | undefined => {
    try {
      battleOf({ entry: i, count: 1 }, { entry: j, count: 1 });
      return undefined;
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      return err.message;
    }
  };
  for (let i = 0; i < field.length; i++) {
    // Against itself first: a refusal there is the entry's own (its weapon, or its body as a target).
    const own = refusalOf(i, i);
    if (own !== undefined) {
      refused.set(i, own);
      continue;
    }
    for (let j = 0; j < i && !refused.has(i); j++) {
      if (refused.has(j)) continue;
      const why = refusalOf(i, j);
      // Both read against themselves: the refusal is of one's weapon against the other's body, and names
      // the attacking entry first: that entry is the one left out.
      if (why !== undefined) refused.set(why.startsWith(`${ENTRY}: ${showValue(`${field[j]!.name} x1`)}`) ? j : i, why);
    }
  }
  const kept = field.filter((_, i) => !refused.has(i));
  const playing = kept.map((e) => field.indexOf(e));
  const result = await priceByBattles(
    kept.map((e) => ({ name: e.name, ...(e.price !== undefined ? { price: e.price } : {}) })),
    {
      ducats: settings.ducats,
      games: settings.games,
      seed: settings.seed,
      maxCount: MAX_ENTRY_COUNT,
      prior: settings.prior,
      tolerancePercent: settings.tolerance,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      atOnce: options.atOnce ?? (options.player ? MATCHUPS_ON_A_QUEUE : MATCHUPS_PER_THREAD * (options.workers ?? defaultWorkers())),
      play: async (a, b, games, seed) => {
        const battle = battleOf({ entry: playing[a.entry]!, count: a.count }, { entry: playing[b.entry]!, count: b.count });
        const layout = battleLayoutOf(battlePlanOf(battle));
        const run = await simulateSource({ type: 'battle', battle }, tallyLength(layout), {
          trials: games,
          seed,
          ...(options.workers !== undefined ? { workers: options.workers } : {}),
          ...(options.player ? { player: options.player } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        });
        const at = tallyOffsets(layout).outcomes;
        return { aWins: run.tally[at + A_WINS]!, bWins: run.tally[at + B_WINS]!, draws: run.tally[at + DRAW]! };
      },
    },
  );
  const narrowings = [models ? `models: ${models.join(', ')}` : '', weapons ? `weapons: ${weapons.join(', ')}` : '', where ? `where ${where.join(' and ')}` : ''].filter(Boolean);
  const weaponsTaken = settings.attackType === 'any' ? 'each weapon' : `each ${settings.attackType} weapon`;
  return {
    result,
    field: settings.entries ? `the entries given of ${priceSourceText(settings)}${where ? ` (where ${where.join(' and ')})` : ''}` : `every model with ${weaponsTaken} of ${priceSourceText(settings)}${narrowings.length ? ` (${narrowings.join('; ')})` : ''}`,
    system: profiles.system.id,
    edition,
    leftOut: [...leftOutOf(profiles, kept), ...[...refused].map(([i, why]) => ({ name: field[i]!.name, note: `left out of the field: ${why}` }))],
    game: gameText(settings),
    notes: [...notes],
  };
}

/** The game every battle is, in a line: what the prices rest on besides the entries (rulings B1-B49 of docs/rules.md). */
function gameText(s: BattlePriceSettings): string {
  return [
    `${s.turns} turns${s.turnExtension === 'none' ? '' : ` (${s.turnExtension})`}, ${s.startInches}" apart at the start`,
    `every warband's tactic ${s.tactic}, blood markers ${s.blood}`,
    `victory on ${s.victory}`,
    s.morale ? `morale checks${s.moraleLoss === 'first-failure' ? ' (the first failure loses)' : ''}` : 'no morale checks',
    `initiative ${s.initiative}`,
    `cover ${percentOf(s.coverChance)} and elevation ${percentOf(s.elevationChance)} of shots`,
    `standing up ${s.standUp}`,
  ].join('; ');
}

const percentOf = (x: number) => `${Number((100 * x).toFixed(1))}%`;
