import { showValue } from '../errors.js';
import { refusal } from '../messages.js';
import { div, formatFraction, toNumber } from '../exact/fraction.js';
import type { Scenario } from '../model/types.js';
import { toolVersion } from '../version.js';
import { resolveKind } from '../rules/registry.js';
import { manifestFor } from '../exact-result.js';
import { percent } from '../text.js';
import { attackerPhrase, duelClause, outcomePhrase, points } from '../labels.js';
import { ratioEstimate, type Estimate } from './paired.js';
import { batchProportions, cellDifference, exactProbability, unionOutcomes, type Cell, type OutcomeDifference, type SimPlan } from './cells.js';


/**
 * Side-by-side comparison of scenarios, each against the first: per outcome the probabilities, their
 * differences (percentage points) and ratios, with 95% intervals where simulated, and a one-line verdict
 * such as "b is out of action 16.7 points less often than a". Every scenario is simulated with the same
 * seeds, so the intervals of differences are those of paired batches (common random numbers).
 *
 * Scenarios must be of one system and one kind: an attack's "out of action" (per attack, misses
 * included) and an injury roll's (per roll made) are different questions. --allow-mixed lets them be
 * compared anyway, an outcome one of them cannot have counting as probability 0 for it.
 */

export interface CompareInput {
  readonly name: string;
  readonly file: string;
  readonly raw: Record<string, unknown>;
}

export interface Ratio {
  readonly exact?: string;
  readonly value?: number;
  readonly estimate?: Estimate | null;
}

export interface Versus {
  /** Name of the scenario compared with the first. */
  readonly name: string;
  readonly difference: OutcomeDifference;
  readonly ratio: Ratio;
  readonly verdict: string;
}

export interface CompareRow {
  readonly outcome: string;
  /** "this or worse" rows have cumulative values. */
  readonly cumulative: boolean;
  readonly values: readonly { probability?: number; exact?: string; estimate?: number; ciLow?: number; ciHigh?: number }[];
  readonly versus: readonly Versus[];
}

/** A field in which the compared scenarios differ, with each one's value as outputs write it ("-": not a field of its kind). */
export interface ScenarioDifference {
  readonly field: string;
  readonly values: readonly string[];
}

export interface CompareResult {
  readonly scenarios: readonly { name: string; file: string; cell: Cell }[];
  /** Every field in which the scenarios differ: what the comparison measures, and anything else that was given. */
  readonly differences: readonly ScenarioDifference[];
  readonly outcomes: readonly string[];
  readonly rows: readonly CompareRow[];
  readonly cumulativeRows: readonly CompareRow[];
  readonly manifest: Record<string, unknown>;
}

/**
 * Who a verdict speaks of: the weapon ("IGNORE ARMOUR takes the target out of action ...") when only what
 * attacks differs between the scenarios (weapon fields, the weapon profile, its keywords), else the
 * target ("reinforced armour is out of action ...").
 */
export type VerdictVoice = 'weapon' | 'target' | 'duel';

export function verdictVoice(scenarios: readonly Scenario[]): VerdictVoice {
  const first = scenarios[0];
  if (!first) return 'target';
  const { system, kind } = resolveKind(first);
  // A duel has no one subject: its verdicts say what happens in it ("with B, a wins ...").
  if (kind.sides) return 'duel';
  const weaponSide = new Set([...system.fields.filter((f) => f.profile === 'weapon').map((f) => f.name), 'weapon', 'weaponKeywords']);
  const compared = new Set([...system.fields.map((f) => f.name), 'system', 'edition', 'kind', 'weapon', 'target', 'weaponKeywords', 'targetKeywords']);
  const values = (s: Scenario) => s as unknown as Readonly<Record<string, unknown>>;
  const differing = [...compared].filter((k) => scenarios.some((s) => JSON.stringify(values(s)[k]) !== JSON.stringify(values(first)[k])));
  return differing.length > 0 && differing.every((k) => weaponSide.has(k)) ? 'weapon' : 'target';
}

/** The rule table a scenario is read under, as a field: the variant's name, or the edition's own. */
const RULES_FIELD = 'rules';

/**
 * A scenario's fields, one level of sides opened (a duel's `a.armour`), as outputs write them: its
 * rules by the variant's name (the table itself is what the name stands for), lists joined.
 */
function fieldValues(s: Scenario): Map<string, string> {
  const out = new Map<string, string>();
  const write = (v: unknown): string => (Array.isArray(v) ? v.map(write).join('; ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  for (const [key, value] of Object.entries(s as unknown as Record<string, unknown>)) {
    if (key === RULES_FIELD) continue;
    if (key === 'variant') out.set(RULES_FIELD, String(value));
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) for (const [sub, v] of Object.entries(value)) out.set(`${key}.${sub}`, write(v));
    else out.set(key, write(value));
  }
  if (!out.has(RULES_FIELD)) out.set(RULES_FIELD, 'edition rules');
  return out;
}

/**
 * Every field in which the scenarios differ, in the first one's order: a comparison asked about one
 * field ("rules") must say when another (injuryDice, given in one file only) differs too, or a designer
 * reads +1 injury dice against +0 as the rule's doing.
 */
export function scenarioDifferences(scenarios: readonly Scenario[]): ScenarioDifference[] {
  const maps = scenarios.map(fieldValues);
  const fields = [...new Set(maps.flatMap((m) => [...m.keys()]))];
  return fields.flatMap((field) => {
    const values = maps.map((m) => m.get(field) ?? '-');
    return values.every((v) => v === values[0]) ? [] : [{ field, values }];
  });
}

function valueOf(cell: Cell, outcome: string, cumulative: boolean) {
  const o = cell.outcomes.find((x) => x.outcome === outcome);
  if (!o) return { probability: 0, exact: '0', ...(cell.sim ? { estimate: 0, ciLow: 0, ciHigh: 0 } : {}) };
  if (!cumulative) {
    return {
      ...(o.probability !== undefined ? { probability: o.probability, exact: o.exact! } : {}),
      ...(o.estimate !== undefined ? { estimate: o.estimate, ciLow: o.ciLow!, ciHigh: o.ciHigh! } : {}),
    };
  }
  return {
    ...(o.orWorse !== undefined ? { probability: o.orWorse, exact: o.orWorseExact! } : {}),
    ...(o.orWorseEstimate !== undefined ? { estimate: o.orWorseEstimate, ciLow: o.orWorseCiLow!, ciHigh: o.orWorseCiHigh! } : {}),
  };
}

/** "16.7", or "0.012" for differences too small for one decimal. */
function pointsText(d: number): string {
  const abs = Math.abs(d * 100);
  if (abs === 0) return '0';
  return abs >= 0.05 ? abs.toFixed(1) : abs.toPrecision(2);
}

function timesText(r: number | undefined): string {
  if (r === undefined || !Number.isFinite(r)) return '';
  if (r === 0) return 'never';
  return r >= 0.995 && r <= 1.005 ? 'about as often' : `${r.toFixed(r < 0.1 ? 3 : 2)} times as often`;
}

export function verdict(a: string, b: string, outcome: string, cumulative: boolean, pa: number, pb: number, diff: OutcomeDifference, ratio: Ratio, voice: VerdictVoice = 'target'): string {
  // Who the sentence is of: the scenario ("B is out of action ... than A"), or, for a duel, what happens
  // in it ("With B, a wins ... than with A"). One sentence for both, its parts said each way.
  const duel = voice === 'duel';
  const phrase = duel ? duelClause(outcome) : voice === 'weapon' ? attackerPhrase(outcome, cumulative) : outcomePhrase(outcome, cumulative);
  const subject = duel ? `With ${b}, ${phrase}` : `${b} ${phrase}`;
  const than = duel ? `with ${a}` : a;
  if (diff.value !== undefined) {
    const d = diff.value;
    if (d === 0) return `${subject} exactly as often as ${than} (${percent(pb, 1)}).`;
    const times = ratio.value !== undefined ? timesText(ratio.value) : '';
    return `${subject} ${pointsText(d)} points ${d < 0 ? 'less' : 'more'} often than ${than} (${percent(pb, 1)} against ${percent(pa, 1)}${times ? `; ${times}` : ''}).`;
  }
  const e = diff.estimate!;
  const interval = `95% interval ${points(e.ciLow)} to ${points(e.ciHigh)} points`;
  if (e.ciLow <= 0 && e.ciHigh >= 0) {
    const both = duel ? `With ${b} and with ${a}` : `${b} and ${a}`;
    const how = duel ? phrase : `${voice === 'weapon' ? 'each' : 'the target'} ${phrase}`;
    return `${both}: no clear difference in how often ${how} (difference ${points(e.value)} points, ${interval}).`;
  }
  return `${subject} ${pointsText(e.value)} points ${e.value < 0 ? 'less' : 'more'} often than ${than} (${percent(pb, 1)} against ${percent(pa, 1)}, simulated; ${interval}).`;
}

function rowsFor(entries: CompareResult['scenarios'], outcomes: readonly string[], cumulative: boolean, voice: VerdictVoice): CompareRow[] {
  const first = entries[0]!;
  const ids = cumulative ? outcomes.slice(1) : outcomes;
  return ids.map((outcome) => {
    const values = entries.map((e) => valueOf(e.cell, outcome, cumulative));
    const versus = entries.slice(1).map((e, k): Versus => {
      const fa = exactProbability(first.cell, outcome, cumulative, outcomes);
      const fb = exactProbability(e.cell, outcome, cumulative, outcomes);
      const diffs = cellDifference(first.cell, e.cell, cumulative, outcomes);
      const difference = diffs.find((d) => d.outcome === outcome)!;
      const ratio: Ratio = {
        ...(fa && fb && fa.num !== 0n ? { exact: formatFraction(div(fb, fa)), value: toNumber(div(fb, fa)) } : {}),
        ...(first.cell.sim && e.cell.sim
          ? {
              estimate: ratioEstimate(batchProportions(first.cell, outcome, cumulative, outcomes), batchProportions(e.cell, outcome, cumulative, outcomes)),
            }
          : {}),
      };
      const va = values[0]!;
      const vb = values[k + 1]!;
      const pa = va.probability ?? va.estimate ?? 0;
      const pb = vb.probability ?? vb.estimate ?? 0;
      return { name: e.name, difference, ratio, verdict: verdict(first.name, e.name, outcome, cumulative, pa, pb, difference, ratio, voice) };
    });
    return { outcome, cumulative, values, versus };
  });
}

/** True when `small` is `big` with some outcomes left out, the rest in the same order. */
function isSubsequence(small: readonly string[], big: readonly string[]): boolean {
  let j = 0;
  for (const id of big) if (j < small.length && small[j] === id) j++;
  return j === small.length;
}

/**
 * Refuses scenarios that do not answer one question: other systems, or other kinds (unless `allowMixed`,
 * the user's --allow-mixed), and outcome lists that are not all the longest one with outcomes left out.
 * Without this, "or worse" rows of a union of unrelated outcome lists contradict the rows above them.
 */
export function checkComparable(items: readonly { file: string; scenario: Scenario }[], allowMixed = false): void {
  const first = items[0];
  // Asked for: outcomes of one id are compared as they are, and an outcome one kind lacks counts as 0.
  if (!first || allowMixed) return;
  for (const it of items.slice(1)) {
    if (it.scenario.system !== first.scenario.system) {
      throw refusal('compare', `${showValue(it.file)} is a ${it.scenario.system} scenario and ${showValue(first.file)} a ${first.scenario.system} one`, 'compare scenarios of one system, or add --allow-mixed');
    }
    // An attack's "out of action" is a chance per attack, an injury roll's one per roll already made:
    // the same words, different questions.
    if (it.scenario.kind !== first.scenario.kind) {
      throw refusal(
        'compare',
        `${showValue(it.file)} is kind ${showValue(it.scenario.kind)} and ${showValue(first.file)} kind ${showValue(first.scenario.kind)}: their outcomes answer different questions`,
        'compare scenarios of one kind (give --kind to every one), or add --allow-mixed',
      );
    }
  }
  const lists = items.map((it) => ({ ...it, outcomes: resolveKind(it.scenario).kind.layout(it.scenario).outcomes }));
  const longest = lists.reduce((a, b) => (b.outcomes.length > a.outcomes.length ? b : a));
  for (const it of lists) {
    if (isSubsequence(it.outcomes, longest.outcomes)) continue;
    throw refusal(
      'compare',
      `${showValue(it.file)} is kind ${showValue(it.scenario.kind)} with outcomes (${it.outcomes.join(', ')}) and ${showValue(longest.file)} kind ${showValue(longest.scenario.kind)} (${longest.outcomes.join(', ')})`,
      'compare kinds with the same outcomes (or one that only adds outcomes, as trench-crusade attack adds miss to injury)',
    );
  }
}


/**
 * The comparison of scenarios whose cells hold their answers (exact, simulated with the same seeds, or
 * both), in the order given: the first is the one the others are compared with. Reads no file and runs
 * nothing: compareScenarios fills the cells on the CLI's pools; the web page fills them itself.
 */
export function compareCells(scenarios: readonly { readonly name: string; readonly file: string; readonly cell: Cell }[], sim?: SimPlan): CompareResult {
  const outcomes = unionOutcomes(scenarios.map((s) => s.cell.layout.outcomes));
  const voice = verdictVoice(scenarios.map((s) => s.cell.scenario));
  // Outcomes with no order (a duel's a wins, b wins) have no "this or worse".
  const ranked = scenarios.every((s) => !s.cell.layout.unranked);
  return {
    scenarios,
    differences: scenarioDifferences(scenarios.map((s) => s.cell.scenario)),
    outcomes,
    rows: rowsFor(scenarios, outcomes, false, voice),
    cumulativeRows: ranked ? rowsFor(scenarios, outcomes, true, voice) : [],
    manifest: {
      tool: 'injury-lab',
      version: toolVersion,
      scenarios: scenarios.map((s) => ({ name: s.name, file: s.file, ...manifestFor(s.cell.scenario) })),
      ...(sim
        ? {
            simulation: {
              seed: sim.seed,
              batches: sim.precision !== undefined ? 1 : sim.batches,
              trials: scenarios.map((s) => s.cell.sim?.trials),
              generator: scenarios[0]!.cell.sim?.generator,
              commonRandomNumbers: true,
            },
          }
        : {}),
    },
  };
}
