/**
 * The optimal policy in readable form: for every state the sequence can actually reach under it, how
 * many blood markers the attacker spends. States are grouped by condition (Tough, Down, blessing, hit or
 * critical), markers counts with the same rule are merged, and a rule that changes with the attacks
 * left is written as runs ("all with 12-2 attacks left, none on the last").
 */
import { TransitionCache, standsUpBefore } from './chain.js';
import {
  ABSORBED,
  CRIT,
  HIT,
  type Decision,
  type SequenceModel,
  blessingLeftOf,
  choiceBloodbath,
  choiceDice,
  downOf,
  markersOf,
  stateIndex,
  toughLeftOf,
} from './model.js';
import type { FiniteOptimal } from './optimal-finite.js';
import type { UnlimitedOptimal } from './optimal-unlimited.js';

/** One grouped rule of the printed policy (also the JSON form). */
export interface PolicyRule {
  readonly condition: string;
  /** Markers on the target when the choice is made, from..to. */
  readonly markers: readonly [number, number];
  /** The choice, by attacks left (from..to, counting the current attack; null: unlimited attacks). */
  readonly choices: readonly { readonly attacksLeft: readonly [number, number] | null; readonly spend: string }[];
}

/** What a choice spends, in words; "all" when it spends every marker available. */
function spendWords(code: number, available: number, cost: number): string {
  const dice = choiceDice(code);
  if (!choiceBloodbath(code)) return dice === 0 ? 'none' : dice === available ? 'all' : String(dice);
  const total = dice + cost;
  if (dice === 0) return total === available ? 'Bloodbath (all)' : 'Bloodbath';
  return total === available ? 'Bloodbath + all the rest' : `Bloodbath + ${dice}`;
}

/** The one save of an Out of Action, as a policy's conditions name it: Tough's, or the first Out of Action's No Effect. */
const saveName = (model: SequenceModel) => (model.saveIsNoEffect ? 'first Out of Action' : 'Tough');

function conditionName(tough: boolean, tl: number, d: number, bl: number, what: string, save = 'Tough'): string {
  const parts = [d === 1 ? 'target Down' : 'target standing'];
  if (tough) parts.unshift(tl === 1 ? `${save} unused` : `${save} used`);
  if (bl === 1) parts.push('blessing markers unspent');
  parts.push(what);
  return parts.join(', ');
}

type Key = string;
/** Choices seen: condition -> markers -> attacks left (0 for unlimited) -> spend words. */
class Collector {
  readonly seen = new Map<Key, Map<number, Map<number, string>>>();
  add(condition: Key, markers: number, k: number, spend: string): void {
    let byM = this.seen.get(condition);
    if (!byM) this.seen.set(condition, (byM = new Map()));
    let byK = byM.get(markers);
    if (!byK) byM.set(markers, (byK = new Map()));
    byK.set(k, spend);
  }

  rules(order: Key[]): PolicyRule[] {
    const out: PolicyRule[] = [];
    for (const condition of order) {
      const byM = this.seen.get(condition);
      if (!byM) continue;
      let last: { markers: [number, number]; choices: PolicyRule['choices']; sig: string } | undefined;
      for (const m of [...byM.keys()].sort((a, b) => a - b)) {
        const byK = byM.get(m)!;
        const ks = [...byK.keys()].sort((a, b) => b - a);
        const choices: { attacksLeft: [number, number] | null; spend: string }[] = [];
        for (const k of ks) {
          const spend = byK.get(k)!;
          const run = choices[choices.length - 1];
          if (run && run.spend === spend && run.attacksLeft && run.attacksLeft[1] === k + 1) run.attacksLeft[1] = k;
          else choices.push({ attacksLeft: k === 0 ? null : [k, k], spend });
        }
        const sig = JSON.stringify(choices);
        if (last && last.sig === sig && last.markers[1] === m - 1) last.markers[1] = m;
        else {
          if (last) out.push({ condition, markers: last.markers, choices: last.choices });
          last = { markers: [m, m], choices, sig };
        }
      }
      if (last) out.push({ condition, markers: last.markers, choices: last.choices });
    }
    return out;
  }
}

function conditionsOrder(tough: boolean, blessing: boolean, whats: string[], save = 'Tough'): Key[] {
  const keys: Key[] = [];
  for (const tl of tough ? [1, 0] : [0])
    for (const d of [0, 1])
      for (const bl of blessing ? [1, 0] : [0]) for (const what of whats) keys.push(conditionName(tough, tl, d, bl, what, save));
  return keys;
}

function render(rules: PolicyRule[], withK: boolean): string[] {
  const lines: string[] = [];
  let current = '';
  for (const r of rules) {
    if (r.condition !== current) {
      current = r.condition;
      lines.push(`  ${current}:`);
    }
    const m = r.markers[0] === r.markers[1] ? `${r.markers[0]}` : `${r.markers[0]}-${r.markers[1]}`;
    const choice =
      !withK || r.choices.length === 1
        ? r.choices[0]!.spend
        : r.choices
            .map((c) => {
              const [a, b] = c.attacksLeft!;
              return `${c.spend} (${a === b ? a : `${a}-${b}`} left)`;
            })
            .join(', ');
    lines.push(`    ${m} marker${r.markers[1] === 1 ? '' : 's'}: ${choice}`);
  }
  return lines;
}

const HEADER =
  'spend on the injury roll, by blood markers on the target ("all": every marker as +1 injury dice; "Bloodbath + n": a Bloodbath and n more dice)';

/** The finite-horizon optimal policy, over the states reachable under it. */
export function describeFinite(model: SequenceModel, fin: FiniteOptimal): { lines: string[]; rules: PolicyRule[] } {
  const tough = toughLeftOf(model.start) === 1 || model.scenario.tough === true || model.scenario.firstOutOfActionNoEffect === true;
  const blessing = blessingLeftOf(model.start) === 1;
  const injury = new Collector();
  const attackRoll = new Collector();
  const cache = new TransitionCache(model, model.cap);
  let frontier = new Set<number>([model.start]);
  // RISKY strings: states whose string a miss ended, waiting for the next activation (as in runFinite).
  let waiting = new Set<number>();
  for (let j = 1; j <= model.attacks; j++) {
    const k = model.attacks - j + 1;
    const stand = standsUpBefore(model, j);
    if (stand) {
      for (const idx of waiting) frontier.add(idx);
      waiting = new Set();
    }
    const next = new Set<number>();
    for (const idx of frontier) {
      const at = stand ? model.activationStart(idx) : idx;
      const dcs = fin.decide(k, at);
      record(model, injury, attackRoll, tough, at, dcs, k);
      const t = cache.get(at, dcs);
      for (const y of t.next) if (y !== ABSORBED) next.add(y);
      if (t.miss) waiting.add(t.miss.next);
    }
    frontier = next;
  }
  const rules = injury.rules(conditionsOrder(tough, blessing, ['hit', 'critical'], saveName(model)));
  const rollRules = attackRoll.rules(conditionsOrder(tough, blessing, ['attack roll'], saveName(model)));
  const lines = [`Optimal policy for ${model.attacks} attacks: ${HEADER}; "(n left)": with n attacks left, this one included:`, ...render(rules, true)];
  if (rollRules.some((r) => r.choices.some((c) => c.spend !== 'none'))) {
    lines.push('  Markers on the attack roll (playtest):', ...render(rollRules, true).map((l) => `  ${l}`));
  }
  return { lines, rules: [...rules, ...rollRules] };
}

function record(
  model: SequenceModel,
  injury: Collector,
  attackRoll: Collector,
  tough: boolean,
  at: number,
  dcs: Decision,
  k: number,
): void {
  const m = markersOf(at);
  const d = downOf(at);
  const tl = toughLeftOf(at);
  const bl = blessingLeftOf(at);
  if (model.attackRollMarkers > 0 && m > 0) attackRoll.add(conditionName(tough, tl, d, bl, 'attack roll', saveName(model)), m, k, dcs.a === 0 ? 'none' : dcs.a === m ? 'all' : String(dcs.a));
  const left = m - dcs.a;
  if (left === 0) return;
  const sr = model.successRow(dcs.a);
  const cost = model.bloodbathCost(d);
  if (sr.w[HIT] !== 0n) injury.add(conditionName(tough, tl, d, bl, 'hit', saveName(model)), left, k, spendWords(dcs.hit, left, cost));
  if (sr.w[CRIT] !== 0n) injury.add(conditionName(tough, tl, d, bl, 'critical', saveName(model)), left, k, spendWords(dcs.crit, left, cost));
}

/** The stationary policy of fewest expected attacks, over the states reachable under it. */
export function describeUnlimited(model: SequenceModel, unl: UnlimitedOptimal): { lines: string[]; rules: PolicyRule[] } {
  const tough = toughLeftOf(model.start) === 1 || model.scenario.tough === true || model.scenario.firstOutOfActionNoEffect === true;
  const blessing = blessingLeftOf(model.start) === 1;
  const injury = new Collector();
  const attackRoll = new Collector();
  const limit = unl.values.limit;
  const cache = new TransitionCache(model, limit);
  const stride = unl.stride;
  const start = stateIndex(Math.min(markersOf(model.start), limit), downOf(model.start), toughLeftOf(model.start), blessingLeftOf(model.start));
  const seen = new Set<number>([start]);
  const walk = [start];
  while (walk.length) {
    const node = walk.pop()!;
    const idx = node % stride;
    const p = (node - idx) / stride;
    const a = unl.attack[p * stride + idx]!;
    const key = (p * stride + stateIndex(markersOf(idx) - a, downOf(idx), toughLeftOf(idx), blessingLeftOf(idx))) * 2;
    const dcs = { a, hit: unl.inner[key]!, crit: unl.inner[key + 1]! };
    // Phases are not printed: the rule is shown per state, merged over the activation.
    record(model, injury, attackRoll, tough, idx, dcs, 0);
    const t = cache.get(idx, dcs);
    for (const y of t.next) {
      if (y === ABSORBED) continue;
      const to = p + 1 < unl.phases ? (p + 1) * stride + y : model.perActivation > 0 ? model.activationStart(y) : y;
      if (!seen.has(to)) seen.add(to), walk.push(to);
    }
    // A RISKY miss ends the activation: on to the next one's start (phase 0).
    if (t.miss) {
      const to = model.perActivation > 0 ? model.activationStart(t.miss.next) : t.miss.next;
      if (!seen.has(to)) seen.add(to), walk.push(to);
    }
  }
  const rules = injury.rules(conditionsOrder(tough, blessing, ['hit', 'critical'], saveName(model)));
  const lines = [`Optimal policy for unlimited attacks (fewest expected attacks): ${HEADER}:`, ...render(rules, false)];
  return { lines, rules };
}
