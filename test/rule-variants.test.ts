import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { UsageError } from '../src/errors.js';
import { type Fraction, formatFraction, fraction } from '../src/exact/fraction.js';
import { editionTable } from '../src/model/edition-table.js';
import { ruleListing } from '../src/model/rule-table.js';
import { changedRules } from '../src/model/rule-variant.js';
import { parseScenario, readScenarioFile, scenarioRecord } from '../src/input/scenario.js';
import { parseVariant, variantJsonSchema } from '../src/input/variant.js';
import { readVariantFile } from '../src/input/read-files.js';
import { rulesPresenter } from '../src/present/tables/rules.js';
import { keptTotals } from './helpers/brute.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { type Scenario } from '../src/model/types.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import { runInThread } from '../src/sim/chunks.js';
import { CHUNK_SIZE } from '../src/sim/protocol.js';
import { crossCheck } from '../src/stats/cross-check.js';

const addF = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.den + b.num * a.den, a.den * b.den);
const mulF = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.num, a.den * b.den);

/**
 * The simulator in this thread, fixed seed. 200,000 trials: crossCheck's tests at its own significance
 * level then flag a real error of about a percentage point in any outcome (the engines are independent,
 * so a table value read wrongly in either moves an outcome by far more than that).
 */
function simulateInThread(s: Scenario, trials = 200_000, seed = 11) {
  const { kind } = resolveKind(s);
  const layout = kind.layout(s);
  const tally = runInThread(kind.simulator(s), tallyLength(layout), { trials, seed, chunkSize: CHUNK_SIZE });
  return { layout, trials, tally };
}

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

/**
 * A variant changes exactly what it says: under changed rules the exact engine equals a brute force
 * written here from the rule values alone (every die of every roll enumerated, kept, totalled and
 * looked up), and the simulator agrees with it (check, fixed seed).
 */
describe('Trench Crusade under a variant: exact equals brute force, and the simulator agrees', () => {
  const variant = {
    injuryTable: { minorHit: 3, down: 7, outOfAction: 10 },
    armour: { standard: -2 },
    successRoll: { hit: 8, critical: 11 },
    critical: { injuryDice: 2 },
    markers: { minorHit: 2, downAgain: 3 },
    down: { injuryDice: 2 },
  };
  type Outcome = 'miss' | 'no-effect' | 'minor-hit' | 'down' | 'out-of-action';

  /**
   * One melee attack written from the variant's numbers: success roll 2D6 (hit 8+, critical 11+), then
   * 2D6 + net injury dice (a critical adds 2, a Down target 2), keep 2, armour -2 (capped at -3 with
   * the shield), table: below 3 no effect, 3-6 minor, 7-9 down, 10+ out of action.
   */
  function bruteAttack(o: { injuryDice: number; shield: boolean; targetDown: boolean }) {
    const counts = new Map<Outcome, bigint>();
    const row = (t: number): Outcome => (t < 3 ? 'no-effect' : t < 7 ? 'minor-hit' : t < 10 ? 'down' : 'out-of-action');
    const modifier = Math.max(-2 + (o.shield ? -1 : 0), -3);
    const maxPool = 2 + Math.abs(o.injuryDice + 2 + (o.targetDown ? 2 : 0));
    for (const [success, ways] of keptTotals(2, 2, false)) {
      if (success < 8) {
        counts.set('miss', (counts.get('miss') ?? 0n) + ways * 6n ** BigInt(maxPool));
        continue;
      }
      const net = o.injuryDice + (success >= 11 ? 2 : 0) + (o.targetDown ? 2 : 0);
      const pool = 2 + Math.abs(net);
      for (const [kept, w] of keptTotals(pool, 2, net < 0)) {
        const outcome = row(kept + modifier);
        counts.set(outcome, (counts.get(outcome) ?? 0n) + ways * w * 6n ** BigInt(maxPool - pool));
      }
    }
    const den = 36n * 6n ** BigInt(maxPool);
    const p = (o: Outcome) => formatFraction(fraction(counts.get(o) ?? 0n, den));
    const markers = formatFraction(fraction(2n * (counts.get('minor-hit') ?? 0n) + (o.targetDown ? 3n : 1n) * (counts.get('down') ?? 0n), den));
    return { p, markers };
  }

  const cases = [
    { injuryDice: 0, shield: false, targetDown: false },
    { injuryDice: 1, shield: true, targetDown: true },
    { injuryDice: -2, shield: false, targetDown: true },
  ];
  it.each(cases)('attack with %o', (o) => {
    const s = parseScenario({ kind: 'attack', armour: 'standard', rules: variant, ...o });
    const exact = evaluateExact(s);
    const brute = bruteAttack(o);
    for (const row of exact.outcomes) expect(row.exact, row.outcome).toBe(brute.p(row.outcome as Outcome));
    expect(exact.means.expectedBloodMarkers?.exact).toBe(brute.markers);
    // The variant moved something: the core edition gives other answers.
    expect(evaluateExact(parseScenario({ kind: 'attack', armour: 'standard', ...o })).outcomes).not.toEqual(exact.outcomes);
    const report = crossCheck(exact.answer, simulateInThread(s));
    expect(report.failures).toEqual([]);
  });

  it('a sequence of two ranged attacks places the variant\'s markers: the final-markers histogram by hand', () => {
    // Ranged, so Down adds no dice (downBonus melee) and both attacks are the same roll; policy none
    // spends nothing. Each attack: miss/no effect place 0, minor 2, down 1 (3 on a Down target).
    const one = bruteAttack({ injuryDice: 0, shield: false, targetDown: false });
    const q = (o: Outcome) => fraction(BigInt(one.p(o).split('/')[0]!), BigInt(one.p(o).split('/')[1] ?? '1'));
    const s = parseScenario({ kind: 'sequence', attacks: 2, policy: 'none', attackType: 'ranged', armour: 'standard', rules: variant });
    const exact = evaluateExact(s);
    const bins = exact.histograms.finalBloodMarkers!;
    const quiet = ['miss', 'no-effect'] as const;
    const pQuiet = quiet.map(q).reduce((a, b) => addF(a, b));
    const pMinor = q('minor-hit');
    const pDown = q('down');
    // The markers after the two attacks, order by order (a Down first makes the target Down, so a
    // second Down places 3): 0 quiet+quiet; 1 down+quiet, quiet+down; 2 minor+quiet, quiet+minor;
    // 3 minor+down, down+minor; 4 minor+minor, down+down (1 + 3).
    const expected: Record<string, Fraction> = {
      '0': mulF(pQuiet, pQuiet),
      '1': addF(mulF(pDown, pQuiet), mulF(pQuiet, pDown)),
      '2': addF(mulF(pQuiet, pMinor), mulF(pMinor, pQuiet)),
      '3': addF(mulF(pMinor, pDown), mulF(pDown, pMinor)),
      '4': addF(mulF(pMinor, pMinor), mulF(pDown, pDown)),
    };
    for (const [bin, p] of Object.entries(expected)) expect(bins.find((b) => b.bin === bin)?.exact, `${bin} markers`).toBe(formatFraction(p));
    expect(crossCheck(exact.answer, simulateInThread(s)).failures).toEqual([]);
  });
});

describe('variant files', () => {
  const refusalOf = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      if (e instanceof UsageError) return e.message;
      throw e;
    }
    throw new Error('accepted');
  };

  it('the shipped example moves Out of Action to 10+ over core, and names itself', () => {
    const v = readVariantFile('examples/variants/out-of-action-on-10.json');
    expect(v.name).toBe('Out of Action on 10+');
    expect([v.system.id, v.edition]).toEqual(['trench-crusade', 'core']);
    expect(changedRules(v.system.rules.spec, editionTable(v.system, 'core'), v.table)).toEqual(['injuryTable.outOfAction']);
  });

  it('a scenario file names a variant relative to its own folder, takes its edition, and outputs name it', () => {
    const s = parseScenario(readScenarioFile('test/fixtures/variant-scenario/scenario.json'));
    expect(s.edition).toBe('comprehensive');
    expect(s.variant).toBe('soft armour');
    // Standard armour at 0 in this variant: the same roll as no armour in the edition.
    const plain = evaluateExact(parseScenario({ edition: 'comprehensive', kind: 'injury', armour: 'none' }));
    expect(evaluateExact(s).outcomes).toEqual(plain.outcomes);
    expect(scenarioRecord(s)).toMatchObject({ variant: 'soft armour', rules: { armour: { standard: 0 } } });
  });

  it('refuse a scenario whose edition or system is not the variant\'s', () => {
    expect(refusalOf(() => parseScenario({ edition: 'core', kind: 'injury', rules: 'test/fixtures/variant-scenario/variant.json' }))).toBe(
      'edition: "core" is not the edition of variant file "test/fixtures/variant-scenario/variant.json" (its changes are to trench-crusade comprehensive); allowed: "comprehensive", or leave edition out',
    );
    expect(refusalOf(() => parseScenario({ system: 'd20-warband', kind: 'fall', rules: 'test/fixtures/variant-scenario/variant.json' }))).toMatch(
      /^rules: variant file "test\/fixtures\/variant-scenario\/variant.json" is a variant of trench-crusade, not "d20-warband"/,
    );
  });

  it('refuse a malformed variant in one line naming the key, the value and what is allowed', () => {
    const label = 'variant file "v.json"';
    expect(refusalOf(() => parseVariant({ rules: {}, edtion: 'core' }, label, 'v'))).toBe(`${label}: edtion: not a key of a variant file; allowed: name, description, system, edition, rules`);
    expect(refusalOf(() => parseVariant({ edition: 'v1', rules: {} }, label, 'v'))).toBe(`${label}: edition: "v1" is not an edition of trench-crusade; allowed: playtest, comprehensive, core`);
    expect(refusalOf(() => parseVariant({ edition: 'core' }, label, 'v'))).toMatch(/^variant file "v.json": rules: missing; a variant gives the rules it changes/);
    expect(refusalOf(() => parseVariant({ rules: { injuryTable: { down: 9 } } }, label, 'v'))).toMatch(/^variant file "v.json": rules: injuryTable.minorHit 2, injuryTable.down 9, injuryTable.outOfAction 9 must rise strictly/);
    expect(refusalOf(() => parseVariant({ system: 'd20-warband', rules: { armour: { none: 0 } } }, label, 'v'))).toMatch(/^variant file "v.json": rules.armour: is a rule of trench-crusade, not d20-warband/);
    expect(refusalOf(() => parseVariant([], label, 'v'))).toMatch(/^variant file "v.json": must hold one JSON object/);
    expect(parseVariant({ rules: {} }, label, 'v').name).toBe('v');
  });

  it('`rules --rules FILE` marks the changed rules with the edition\'s value', () => {
    const v = readVariantFile('examples/variants/out-of-action-on-10.json');
    const listing = ruleListing(v.system, v.system.editions.find((e) => e.id === v.edition)!, v);
    expect(listing.entries.filter((e) => e.editionValue !== undefined)).toMatchObject([{ rule: 'injuryTable.outOfAction', value: 10, editionValue: 9 }]);
    expect(rulesPresenter.table(listing)).toMatch(/^injuryTable\.outOfAction\s+10 {2}\* \(core: 9\)$/m);
  });

  it('the committed variant.schema.json is the generated one, and the example file passes it', () => {
    const schema = JSON.parse(readFileSync('variant.schema.json', 'utf8')) as Record<string, unknown>;
    expect(schema).toEqual(variantJsonSchema());
    // Without ajv's optimising passes over the code it writes: the same checks, and a schema of a
    // megabyte (every keyword's effects written out in full) compiles in a third of the time.
    const validate = new Ajv({ strict: false, code: { optimize: false } }).compile(schema);
    expect(validate(JSON.parse(readFileSync('examples/variants/out-of-action-on-10.json', 'utf8')))).toBe(true);
    expect(validate({ rules: { injuryTable: { dwn: 8 } } })).toBe(false);
  });

  it('from the command line: --rules on a command, and a bad variant refused in one line with nothing on stdout', async () => {
    const ok = await cliInProcess('exact', '--kind', 'injury', '--rules', 'examples/variants/out-of-action-on-10.json', '--format', 'json');
    expect(ok.code).toBe(0);
    const json = JSON.parse(ok.stdout) as { scenario: { variant: string; rules: unknown } };
    expect(json.scenario.variant).toBe('Out of Action on 10+');
    expect(json.scenario.rules).toEqual({ injuryTable: { outOfAction: 10 } });
    // End to end in a CLI process.
    const bad = cli('exact', '--kind', 'injury', '--rules', 'test/fixtures/malformed.json');
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^injury-lab: variant file "test\/fixtures\/malformed.json": not valid JSON/);
  });
});

describe('markers at another rate', () => {
  it('a blood marker worth two injury dice is two injury dice, in one roll; sequences agree with the simulator', () => {
    const rules = { markers: { injuryDicePerMarker: 2 } };
    const spent = evaluateExact(parseScenario({ kind: 'injury', bloodMarkersSpent: 1, armour: 'standard', rules }));
    const dice = evaluateExact(parseScenario({ kind: 'injury', injuryDice: 2, armour: 'standard' }));
    expect(spent.outcomes.map((o) => o.exact)).toEqual(dice.outcomes.map((o) => o.exact));
    // Blessings at 2 each cancel the two dice of one marker.
    const both = evaluateExact(parseScenario({ kind: 'injury', bloodMarkersSpent: 1, blessingMarkersSpent: 1, rules: { ...rules, blessings: { injuryDicePerMarker: 2 } } }));
    expect(both.outcomes.map((o) => o.exact)).toEqual(evaluateExact(parseScenario({ kind: 'injury' })).outcomes.map((o) => o.exact));
    for (const fields of [
      { kind: 'sequence', attacks: 3, policy: 'all', bloodMarkers: 2, armour: 'reinforced', rules },
      { edition: 'playtest', kind: 'sequence', attacks: 3, policy: 'none', bloodMarkers: 2, attackRollMarkers: 1, rules: { markers: { attackDicePerMarker: 2 } } },
    ]) {
      const s = parseScenario(fields);
      expect(crossCheck(evaluateExact(s).answer, simulateInThread(s)).failures, JSON.stringify(fields)).toEqual([]);
    }
  });
});
