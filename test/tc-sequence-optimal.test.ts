import { describe, expect, it } from 'vitest';
import { type Fraction, ZERO, add, compare, formatFraction } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { TransitionCache, runFinite, solveUnlimited, standsUpBefore, unlimitedStart } from '../src/rules/trench-crusade/sequence/chain.js';
import { ABSORBED, type Decision, type SequenceModel, buildModel, choiceCode, downOf, markersOf, type SequenceScenario } from '../src/rules/trench-crusade/sequence/model.js';
import { optimalFinite } from '../src/rules/trench-crusade/sequence/optimal-finite.js';
import { optimalUnlimited } from '../src/rules/trench-crusade/sequence/optimal-unlimited.js';
import { unlimitedMarkerLimit } from '../src/rules/trench-crusade/sequence/rules.js';
import { extraMarkersPerRoll } from '../src/rules/trench-crusade/tables.js';

/**
 * Brute-force twins of the two optimal-policy searches: enumerate every deterministic spending rule,
 * evaluate each one exactly with the chain (runFinite, solveUnlimited), and check that the search's
 * policy is worth exactly as much as the best of them (as fractions) and at least as much as each.
 *
 * A spending rule chooses, in every state the DP considers, the markers on the attack roll and then the
 * injury choice on a hit and on a critical; a finite rule may change with the attacks left, an unlimited
 * one with the attack's place in the activation, as the searches' tables do. The options are written out
 * here from the rules (spend 0..m markers as dice, or a Bloodbath plus 0..m - cost), not taken from the
 * search. Only states some rule can reach from the start are enumerated: a choice anywhere else cannot
 * change the value from the start.
 *
 * Why these sizes are enough: the search goes wrong, if at all, in how it handles one kind of decision
 * (which options exist, Bloodbath at its two costs, spending now against keeping markers for a later
 * attack, standing up between activations, Tough turning Out of Action into Down, blessing markers spent
 * on the first injury roll, markers lost to the cap, markers on the attack roll, a RISKY miss ending
 * the string and the activation), not in how many states it visits. Each case below makes one of those decisions with every option it has, over two to four
 * attacks (or the unlimited chain) so that spending now changes what can be spent later; a larger case
 * would repeat the same decisions in more states. Caps of 1 to 3 markers (6 for a one-attack Bloodbath)
 * keep the rules few enough to count: at most 23 000 per case, a few seconds in all. Each case's best
 * rule is strictly better than its worst: the choices matter, and a wrong one that costs anything shows.
 */

type Fields = Record<string, unknown>;

const modelOf = (fields: Fields): SequenceModel => buildModel(parseScenario({ system: 'trench-crusade', kind: 'sequence', ...fields }) as SequenceScenario);

/** Injury choice codes with m markers available against a target Down (d = 1) or not. */
function injuryCodes(model: SequenceModel, m: number, d: number): number[] {
  const codes: number[] = [];
  for (let s = 0; s <= m; s++) codes.push(choiceCode(s, false));
  for (let s = 0; s + model.bloodbathCost(d) <= m; s++) codes.push(choiceCode(s, true));
  return codes;
}

/** Every decision of one attack in state idx (after standing up). */
function decisionsIn(model: SequenceModel, idx: number): Decision[] {
  const m = markersOf(idx);
  const d = downOf(idx);
  const out: Decision[] = [];
  for (let a = 0; a <= Math.min(model.attackRollMarkers, m); a++)
    for (const hit of injuryCodes(model, m - a, d)) for (const crit of injuryCodes(model, m - a, d)) out.push({ a, hit, crit });
  return out;
}

/** A place where a spending rule chooses, and what it can choose there. */
interface Slot {
  readonly row: number;
  readonly idx: number;
  readonly choices: readonly Decision[];
}

/** Calls visit with every rule: one choice per slot, as a map from row * 1e6 + idx to the decision. */
function forEveryRule(slots: readonly Slot[], visit: (rule: Map<number, Decision>) => void): number {
  const pick = new Array<number>(slots.length).fill(0);
  let count = 0;
  for (;;) {
    const rule = new Map<number, Decision>();
    slots.forEach((s, i) => rule.set(s.row * 1e6 + s.idx, s.choices[pick[i]!]!));
    visit(rule);
    count++;
    let i = 0;
    while (i < slots.length && ++pick[i]! === slots[i]!.choices.length) pick[i++] = 0;
    if (i === slots.length) return count;
  }
}

const outWithin = (model: SequenceModel, decide: (k: number, idx: number) => Decision, cache: TransitionCache): Fraction =>
  runFinite(model, decide, cache).outAt.reduce(add, ZERO);

describe('optimalFinite against every spending rule (maximises P(Out of Action within N))', () => {
  const cases: [string, Fields, number][] = [
    ['spend or keep: 2 attacks, 2 markers, cap 2', { edition: 'core', attacks: 2, bloodMarkers: 2, markerCap: 2 }, 11664],
    ['three attacks, cap 1', { edition: 'core', attacks: 3, bloodMarkers: 1, markerCap: 1, armour: 'standard' }, 1024],
    ['Tough in Machine Armour, three attacks', { edition: 'comprehensive', attacks: 3, bloodMarkers: 1, markerCap: 1, tough: true, armour: 'machine' }, 16384],
    ['Bloodbath on a Down target (costs 3)', { edition: 'core', attacks: 2, bloodMarkers: 3, markerCap: 3, targetDown: true }, 22500],
    ['Bloodbath on a standing target (costs 6), one attack', { edition: 'core', attacks: 1, bloodMarkers: 6, markerCap: 6, armour: 'reinforced' }, 64],
    ['standing up between activations', { edition: 'core', attacks: 4, bloodMarkers: 1, markerCap: 1, attacksPerActivation: 2, targetDown: true }, 1024],
    ['markers on the attack roll (playtest)', { edition: 'playtest', attacks: 3, bloodMarkers: 1, markerCap: 1, attackRollMarkers: 1 }, 3125],
    // Regenerating 1 between attacks leaves 0 or 1 of the (at most 2) markers: 3 x 3 rules in the first
    // state, 2 x 2 in the state with 1 marker before each later attack, 9 x 4 x 4 = 144.
    ['REGENERATE between activations', { edition: 'core', attacks: 3, bloodMarkers: 2, markerCap: 2, attacksPerActivation: 1, regenerate: 1 }, 144],
    // The attack roll's markers after REGENERATE: 13 rules on attack 1 (2 markers: 3 x 3 injury choices
    // with none on the attack roll, 2 x 2 with 1), 1 x 5 on attack 2 (0 or 1 marker once 1 is removed):
    // 65. The search once weighed this choice with the markers before REGENERATE.
    ['markers on the attack roll after REGENERATE', { edition: 'playtest', attacks: 2, bloodMarkers: 2, markerCap: 2, attackRollMarkers: 1, attacksPerActivation: 1, regenerate: 1, targetDown: true }, 65],
    ['markers on the attack roll after standing up', { edition: 'playtest', attacks: 2, bloodMarkers: 2, markerCap: 2, attackRollMarkers: 1, attacksPerActivation: 1, targetDown: true }, 845],
    ['blessing markers', { edition: 'core', attacks: 3, bloodMarkers: 1, markerCap: 1, blessingPolicy: 'all', blessingMarkers: 1 }, 16384],
    // From no markers, the first roll leaves 1 (no effect) or 2 (a Minor Hit or a Down, FIRE's marker
    // included, capped): rules are 2 x 2 in the state with 1 marker and 3 x 3 in each with 2, 324 in all.
    ['FIRE: a marker after every injury roll, even one with no effect', { edition: 'core', attacks: 2, markerCap: 2, fireMarkers: 1, armour: 'reinforced' }, 324],
    // RISKY strings of 2: a miss on attack 1 skips attack 2, and its state (blessing markers unspent,
    // only a miss keeps them) waits for attack 3, the next activation. Rules: 2 x 2 on attack 1 (1
    // marker); 1 x 4 x 4 on attack 2 (0 markers, 1 standing, 1 Down, blessing spent); on attack 3 (stood
    // up) 1 x 4 with the blessing spent and 4 more in the state only a miss reaches: 4 x 16 x 16 = 1024
    // (256 if the enumeration did not follow the miss).
    ['RISKY: a miss ends the string, blessing markers kept', { edition: 'core', attacks: 3, attacksPerAction: 2, risky: true, bloodMarkers: 1, markerCap: 1, blessingPolicy: 'all', blessingMarkers: 1 }, 1024],
    // With 1 marker the attack roll takes it (1 rule) or not (2 x 2 injury choices): 5. Attack 1 (1
    // marker, Down): 5; attack 2 (0 or 1 marker, Down): 1 x 5; attack 3 (stood up): 1 x 5; 125. Where a
    // miss goes decides the attack roll's marker: a search that gave a miss on attack 1 the value of
    // attack 2 (the string's next roll, lost) instead of attack 3 picks a worse rule here.
    ['RISKY with markers on the attack roll (playtest)', { edition: 'playtest', attacks: 3, attacksPerAction: 2, risky: true, bloodMarkers: 1, markerCap: 1, attackRollMarkers: 1, targetDown: true }, 125],
  ];
  for (const [name, fields, rules] of cases) {
    it(`${name}: ${rules} rules`, () => {
      const model = modelOf(fields);
      const n = model.attacks;
      const cache = new TransitionCache(model, model.cap);
      // The states some rule reaches before attack j (after standing up), for j = 1..N. A RISKY miss
      // ends the string (the activation): its state waits for the next activation's first attack.
      const slots: Slot[] = [];
      let reach = new Set([model.start]);
      let waiting = new Set<number>();
      for (let j = 1; j <= n; j++) {
        const stand = standsUpBefore(model, j);
        if (stand) (reach = new Set([...reach, ...waiting])), (waiting = new Set());
        const at = new Set([...reach].map((idx) => (stand ? model.activationStart(idx) : idx)));
        const next = new Set<number>();
        for (const idx of at) {
          const choices = decisionsIn(model, idx);
          slots.push({ row: n - j + 1, idx, choices });
          for (const dcs of choices) {
            const t = cache.get(idx, dcs);
            for (const y of t.next) if (y !== ABSORBED) next.add(y);
            if (t.miss) waiting.add(t.miss.next);
          }
        }
        reach = next;
      }
      let best: Fraction | undefined;
      let worst: Fraction | undefined;
      const dp = outWithin(model, optimalFinite(model).decide, cache);
      const count = forEveryRule(slots, (rule) => {
        const v = outWithin(model, (k, idx) => rule.get(k * 1e6 + idx)!, cache);
        expect(compare(dp, v), `the DP's ${formatFraction(dp)} against a rule's ${formatFraction(v)}`).toBeGreaterThanOrEqual(0);
        if (!best || compare(v, best) > 0) best = v;
        if (!worst || compare(v, worst) < 0) worst = v;
      });
      expect(count).toBe(rules);
      expect(formatFraction(dp)).toBe(formatFraction(best!));
      // The choice matters: a test where every rule were worth the same could not catch a wrong one.
      expect(compare(best!, worst!)).toBeGreaterThan(0);
    });
  }
});

describe('optimalUnlimited against every stationary spending rule (minimises the expected attacks to Out of Action)', () => {
  const cases: [string, Fields, number][] = [
    ['spend or keep, cap 2', { edition: 'core', bloodMarkers: 2, markerCap: 2 }, 1296],
    ['Tough in Machine Armour', { edition: 'comprehensive', bloodMarkers: 1, markerCap: 1, tough: true, armour: 'machine' }, 64],
    ['three attacks per activation', { edition: 'core', bloodMarkers: 1, markerCap: 1, attacksPerActivation: 3, targetDown: true }, 4096],
    ['Bloodbath on a Down target', { edition: 'core', bloodMarkers: 3, markerCap: 3, targetDown: true }, 900],
    ['markers on the attack roll (playtest)', { edition: 'playtest', bloodMarkers: 2, markerCap: 2, attackRollMarkers: 1 }, 4225],
    ['blessing markers', { edition: 'core', bloodMarkers: 2, markerCap: 2, blessingPolicy: 'all', blessingMarkers: 1 }, 11664],
    ['FIRE: a marker after every injury roll, even one with no effect', { edition: 'core', markerCap: 2, fireMarkers: 1, armour: 'reinforced' }, 1296],
    // RISKY strings of 2 from 1 marker on a Down target, blessing markers unspent. Phase 0: the start
    // (2 x 2 rules), the same standing up, which only a miss on the first attack reaches (2 x 2), and 0
    // or 1 marker with the blessing spent (1 x 4); phase 1 (blessing spent): 0 or 1 marker, standing or
    // Down, 1 x 1 x 4 x 4. 4 x 4 x 4 x 16 = 1024 (256 if the enumeration did not follow the miss).
    ['RISKY: a miss ends the string, blessing markers kept', { edition: 'core', attacksPerAction: 2, risky: true, bloodMarkers: 1, markerCap: 1, targetDown: true, blessingPolicy: 'all', blessingMarkers: 1 }, 1024],
    // 5 rules with 1 marker (on the attack roll, or 2 x 2 injury choices). Phase 0: the start (1 marker,
    // Down) 5, 0 or 1 marker standing 1 x 5; phase 1: 0 or 1 marker, standing or Down, 1 x 1 x 5 x 5:
    // 625. The attack roll's marker weighs a miss, which here loses the string's second roll and
    // stands the target up: a search that gave it the next phase's value picks a worse rule.
    ['RISKY with markers on the attack roll (playtest)', { edition: 'playtest', attacksPerAction: 2, risky: true, bloodMarkers: 1, markerCap: 1, attackRollMarkers: 1, targetDown: true }, 625],
  ];
  for (const [name, fields, rules] of cases) {
    it(`${name}: ${rules} rules`, () => {
      const model = modelOf(fields);
      const { limit } = unlimitedMarkerLimit(model.rules, 'optimal', model.startMarkers, model.attackRollMarkers, model.cap, extraMarkersPerRoll(model.scenario), model.scenario.bloodMarkersMultiplier);
      const phases = model.perActivation > 0 ? model.perActivation : 1;
      const start = unlimitedStart(model, limit);
      const cache = new TransitionCache(model, limit);
      // Every (state, phase) some rule reaches from the start.
      const slots: Slot[] = [];
      const seen = new Set([start]);
      const todo = [{ idx: start, p: 0 }];
      while (todo.length) {
        const { idx, p } = todo.pop()!;
        const choices = decisionsIn(model, idx);
        slots.push({ row: p, idx, choices });
        const visit = (to: { idx: number; p: number }) => {
          if (!seen.has(to.p * 1e6 + to.idx)) seen.add(to.p * 1e6 + to.idx), todo.push(to);
        };
        for (const dcs of choices) {
          const t = cache.get(idx, dcs);
          for (const y of t.next) {
            if (y === ABSORBED) continue;
            visit(p + 1 < phases ? { idx: y, p: p + 1 } : { idx: model.perActivation > 0 ? model.activationStart(y) : y, p: 0 });
          }
          // A RISKY miss ends the activation: on to the next one's start.
          if (t.miss) visit({ idx: model.perActivation > 0 ? model.activationStart(t.miss.next) : t.miss.next, p: 0 });
        }
      }
      // Expected attacks, undefined when infinite (worse than any finite value).
      const better = (x: Fraction | undefined, y: Fraction | undefined) => (x === undefined ? false : y === undefined || compare(x, y) < 0);
      const dp = optimalUnlimited(model, limit).values.value(start, 0);
      let best: Fraction | undefined;
      let worst: Fraction | undefined;
      let first = true;
      const nothing: Decision = { a: 0, hit: 0, crit: 0 };
      const count = forEveryRule(slots, (rule) => {
        const v = solveUnlimited(model, limit, (idx, p) => rule.get(p * 1e6 + idx) ?? nothing).value(start, 0);
        expect(better(v, dp), `a rule's ${v && formatFraction(v)} against the DP's ${dp && formatFraction(dp)}`).toBe(false);
        if (first || better(v, best)) best = v;
        if (first || better(worst, v)) worst = v;
        first = false;
      });
      expect(count).toBe(rules);
      expect(dp && formatFraction(dp)).toBe(best && formatFraction(best));
      expect(better(best, worst)).toBe(true);
    });
  }
});
