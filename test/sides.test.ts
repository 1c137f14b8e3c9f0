import { describe, expect, it } from 'vitest';
import { parseProfiles } from '../src/input/profiles-file.js';
import { fieldDefault, parseScenario } from '../src/input/scenario.js';
import { ONE_SIDED, type ScenarioSide, mergeSides } from '../src/input/sides.js';
import { editionTable } from '../src/model/edition-table.js';
import type { Profile } from '../src/model/profiles.js';
import { findSystem } from '../src/rules/registry.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 23: a scenario's sides are a list. Today's kinds use two sides at the top level (the weapon, the
 * target); a duel's two sides, each a model with its weapon in its own object, go through the same merge.
 */

const system = findSystem('trench-crusade')!;
const rules = editionTable(system, 'core');
const profiles = parseProfiles(
  {
    system: 'trench-crusade',
    models: { Warded: { armour: 'standard', keywords: ['-1 INJURY DICE UNLESS FIRE'] }, Brute: { armour: 'machine', keywords: ['TOUGH'] } },
    weapons: { Torch: { keywords: ['FIRE'] }, Maul: { injuryDice: 1 }, Pick: { keywords: ['ARMOUR PIERCING 2'] } },
  },
  'profiles file "duel.json"',
  'duel.json',
);

/** A duel's sides as #24 describes them: `a` and `b`, each a model and its weapon; each side's model reads the other's weapon. */
const slot = (key: 'model' | 'weapon') => ({ key, role: key, keywordsKey: `${key}Keywords`, help: '', keywordsHelp: '' });
const DUEL: readonly ScenarioSide[] = [
  { path: 'a', slots: [slot('model'), slot('weapon')], against: 1 },
  { path: 'b', slots: [slot('model'), slot('weapon')], against: 0 },
];

function merge(input: Record<string, unknown>, sides: readonly ScenarioSide[]) {
  const sources = new Map<string, string>();
  const used: string[] = [];
  const fieldNames = new Set(system.fields.map((f) => f.name));
  const out = mergeSides(input, sides, {
    profiles,
    system,
    rules,
    at: '',
    reads: (_side, name) => fieldNames.has(name),
    use: (p: Profile, key) => used.push(`${key}=${p.name}`),
    fieldDefault,
    sources,
  });
  return { out, sources, used };
}

describe('sides as a list', () => {
  it("a duel's two sides: each side's model, weapon and own fields in its object; each model's UNLESS reads the other side's weapon", () => {
    const { out, sources, used } = merge({ a: { model: 'Warded', weapon: 'Maul' }, b: { model: 'Brute', weapon: 'Torch', injuryDice: 2 } }, DUEL);
    // a's Warded model faces b's Torch (FIRE): its -1 injury dice does not act (no targetInjuryDice given).
    // b's Brute is TOUGH in machine armour.
    expect(out.a).toEqual({ model: 'Warded', weapon: 'Maul', armour: 'standard', injuryDice: 1 });
    // b's own injuryDice (2) wins over nothing its profiles give; Torch's FIRE is its weapon's keyword field.
    expect(out.b).toMatchObject({ model: 'Brute', weapon: 'Torch', armour: 'machine', tough: true, injuryDice: 2 });
    expect(used).toEqual(['a.model=Warded', 'a.weapon=Maul', 'b.model=Brute', 'b.weapon=Torch']);
    expect(sources.get('a.armour')).toBe('a.model "Warded"');
    expect(sources.get('b.tough')).toBe('b.model "Brute" (its keywords)');
    expect(sources.has('b.injuryDice')).toBe(false);
  });

  it('the same model against a weapon without FIRE keeps its -1 injury dice', () => {
    const { out } = merge({ a: { model: 'Warded' }, b: { weapon: 'Pick' } }, DUEL);
    expect(out.a).toMatchObject({ targetInjuryDice: -1 });
    expect(out.b).toMatchObject({ armourPiercing: 2 });
  });

  it('a side that is not an object, and a name no profile has, are refused naming the side', () => {
    expect(refusal(() => merge({ a: 'Warded' }, DUEL))).toMatch(/^a: "Warded" is not allowed; allowed: an object of the side's fields$/);
    expect(refusal(() => merge({ b: { model: 'Wardd' } }, DUEL))).toMatch(/^b\.model: "Wardd" is not a model of profiles file "duel\.json" \(did you mean "Warded"\?\)/);
  });

  it('one-sided scenarios are the same merge at the top level: the weapon first, the target reading its keywords, the scenario\'s own fields over both', () => {
    const torch = merge({ weapon: 'Torch', target: 'Warded', armour: 'reinforced' }, ONE_SIDED).out;
    expect(torch).toMatchObject({ armour: 'reinforced', fireMarkers: 1 });
    expect(torch).not.toHaveProperty('targetInjuryDice');
    const maul = merge({ weapon: 'Maul', target: 'Warded' }, ONE_SIDED).out;
    expect(maul).toMatchObject({ armour: 'standard', injuryDice: 1, targetInjuryDice: -1 });
    // And through parseScenario, which uses ONE_SIDED: the same fields.
    expect(parseScenario({ kind: 'attack', ...maul })).toMatchObject({ armour: 'standard', injuryDice: 1, targetInjuryDice: -1 });
  });
});
