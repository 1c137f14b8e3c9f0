import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import { parseScenario, scenarioRecord } from '../src/model/scenario.js';

/** Rule changes laid over an edition's table: checked in one line each, and carried by the scenario. */

const refusal = (raw: Record<string, unknown>): string => {
  try {
    parseScenario(raw);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error('accepted');
};

describe('rule changes in a scenario', () => {
  it('refuse an unknown rule with a suggestion, and name the other system for its rules', () => {
    expect(refusal({ kind: 'injury', rules: { injuryTable: { dwn: 8 } } })).toBe(
      'rules.injuryTable.dwn: not a rule of trench-crusade (did you mean down?); allowed in injuryTable: minorHit, down, outOfAction',
    );
    expect(refusal({ kind: 'injury', rules: { naturalFailMax: 3 } })).toMatch(/^rules\.naturalFailMax: is a rule of d20-warband, not trench-crusade; allowed: injuryTable, /);
    expect(refusal({ system: 'd20-warband', kind: 'fall', rules: { armour: { standard: -2 } } })).toMatch(/^rules\.armour: is a rule of trench-crusade, not d20-warband/);
  });

  it('refuse a value of the wrong type or out of range, naming the rule and what is allowed', () => {
    expect(refusal({ kind: 'injury', rules: { injuryTable: { down: 41 } } })).toBe('rules.injuryTable.down: 41 is not allowed; allowed: a whole number from -10 to 40');
    expect(refusal({ kind: 'injury', rules: { armour: 'heavy' } })).toBe('rules.armour: "heavy" is not allowed; allowed: an object of rules (none, standard, reinforced, machine)');
    expect(refusal({ kind: 'injury', rules: { shield: { withMachineArmour: 'yes' } } })).toBe('rules.shield.withMachineArmour: "yes" is not allowed; allowed: "forbidden", "adds-nothing"');
    expect(refusal({ kind: 'injury', rules: 7 })).toMatch(/^rules: 7 is not allowed; allowed: an object of rules \(injuryTable, /);
  });

  it('refuse bands that no longer rise', () => {
    expect(refusal({ kind: 'injury', rules: { injuryTable: { down: 10 } } })).toBe(
      'rules: injuryTable.minorHit 2, injuryTable.down 10, injuryTable.outOfAction 9 must rise strictly in that order (each band starts above the one before); allowed: values with injuryTable.minorHit < injuryTable.down < injuryTable.outOfAction',
    );
  });

  it('change the defaults that read the table, and show only the changed rules in outputs', () => {
    const s = parseScenario({ kind: 'attack', rules: { critical: { injuryDice: 2 }, injuryTable: { outOfAction: 10 } } });
    expect(s.system === 'trench-crusade' && s.kind === 'attack' && s.criticalInjuryDice).toBe(2);
    const record = scenarioRecord(s);
    expect(record.rules).toEqual({ critical: { injuryDice: 2 }, injuryTable: { outOfAction: 10 } });
    // An output read back is the same scenario.
    expect(parseScenario(record)).toEqual(s);
    expect(scenarioRecord(parseScenario({ kind: 'attack' }))).not.toHaveProperty('rules');
  });
});
