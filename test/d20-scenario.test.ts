import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import { parseScenario } from '../src/input/scenario.js';
import { d20Warband } from '../src/rules/d20-warband/system.js';

const parse = (fields: Record<string, unknown>) => parseScenario({ system: 'd20-warband', ...fields }, 'melee.json');

/** Each bad input and the one line the user sees: the field, the value and what is allowed. */
const badInputs: [Record<string, unknown>, string][] = [
  [{ kind: 'check', stat: 21 }, 'melee.json: stat: 21 is not allowed; allowed: a whole number from 1 to 20, or "-"'],
  [{ kind: 'check', stat: 0 }, 'melee.json: stat: 0 is not allowed; allowed: a whole number from 1 to 20, or "-"'],
  [{ kind: 'check', stat: 'x' }, 'melee.json: stat: "x" is not allowed; allowed: a whole number from 1 to 20, or "-"'],
  [
    { kind: 'attack', stat: '-' },
    'melee.json: stat: "-" cannot make an attack (a Ranged stat of "-" "cannot perform Ranged Attacks at all", 003_66409dd9159b6662.txt); allowed for kind "attack": a whole number from 1 to 20',
  ],
  [{ kind: 'attack', attacks: 0 }, 'melee.json: attacks: 0 is not allowed; allowed: a whole number from 1 to 10'],
  [{ kind: 'attack', attacks: 1.5 }, 'melee.json: attacks: 1.5 is not allowed; allowed: a whole number from 1 to 10'],
  [{ kind: 'attack', wounds: -1 }, 'melee.json: wounds: -1 is not allowed; allowed: a whole number from 0 to 10'],
  [{ kind: 'attack', state: 'prone' }, 'melee.json: state: "prone" is not allowed (did you mean "none"?); allowed: none, staggered, dazed, stunned'],
  [{ kind: 'attack', defence: 25 }, 'melee.json: defence: 25 is not allowed; allowed: a whole number from 1 to 20, or "-"'],
  [{ kind: 'attack', attackType: 'magic' }, 'melee.json: attackType: "magic" is not allowed; allowed: melee, ranged'],
  [{ kind: 'fall', heightInches: -1 }, 'melee.json: heightInches: -1 is not allowed; allowed: a number from 0 to 100'],
  [{ kind: 'check', heightInches: 3 }, 'melee.json: heightInches: 3 is not read by kind "check"; it is a field of kind fall'],
];

describe('d20 warband: bad input gets one clear line', () => {
  for (const [fields, message] of badInputs) {
    it(JSON.stringify(fields), () => {
      expect(() => parse(fields)).toThrow(UsageError);
      expect(() => parse(fields)).toThrow(message);
    });
  }
});

describe('d20 warband: scenario defaults and words', () => {
  it('fills the defaults a player would assume', () => {
    const s = parse({ kind: 'attack' });
    expect(s).toMatchObject({
      edition: 'v1', stat: 10, modifier: 0, attackType: 'melee', attacks: 1, injury: 0, pierce: 0, explode: true,
      defence: 10, defenceModifier: 0, wounds: 1, state: 'none', injuryTiming: 'next-attack', staggerPersists: true,
      stunnedDefends: true, attackModifierToInjury: false,
    });
  });

  it('accepts "-" for Defence, Injury and Pierce ("the equivalent of saying there is no modifier")', () => {
    expect(() => parse({ kind: 'attack', defence: '-', injury: '-', pierce: '-' })).not.toThrow();
    expect(() => parse({ kind: 'check', stat: '-' })).not.toThrow();
  });

  it('every field names the kinds that read it, and every kind is read by some field', () => {
    const kinds = new Set<string>(d20Warband.kinds.map((k) => k.id));
    for (const f of d20Warband.fields) for (const k of f.kinds) expect(kinds.has(k)).toBe(true);
    for (const k of kinds) expect(d20Warband.fields.some((f) => f.kinds.includes(k))).toBe(true);
  });
});
