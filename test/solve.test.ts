import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { compare, fraction, type Fraction } from '../src/exact/fraction.js';
import { parseExactDecimal } from '../src/analysis/solve.js';
import { cli } from './helpers/cli.js';
import { cliInProcess, type CliRun } from './helpers/cli-in-process.js';

/**
 * Issue 25 part 3: `solve` goal-seeks over one field. The answers are checked against probabilities
 * worked out here without the solve logic: by enumerating a d20, or by the exact engine on each single
 * scenario, and the reported boundary must be where the condition flips between neighbours.
 */

interface SolvedJson {
  values: { label: string; exact: string; probability?: number; value?: number; meets: boolean }[];
  meeting: string[];
  runs?: { from: string; to: string }[];
  boundaries?: { meets: { label: string; exact: string }; doesNotMeet: { label: string; exact: string } }[];
  nearest?: { label: string };
  summary: string[];
}

async function solveJson(...args: string[]): Promise<SolvedJson> {
  const r = await cliInProcess('solve', ...args, '--format', 'json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as SolvedJson;
}

const parse = (text: string): Fraction => {
  const [num, den] = text.split('/');
  return fraction(BigInt(num!), BigInt(den ?? '1'));
};

/** P(success) of a d20 check, by enumerating the die: a natural 1-4 fails, a natural 20 succeeds, else the roll must reach the stat. */
function d20CheckSuccess(stat: number): Fraction {
  let wins = 0;
  for (let roll = 1; roll <= 20; roll++) if (roll === 20 || (roll >= 5 && roll >= stat)) wins++;
  return fraction(wins, 20);
}

describe('solve over an ordered field', () => {
  it('a d20 check: the stats whose success chance is at least 70%, the boundary exactly at 7/10 included', async () => {
    const r = await solveJson('--system', 'd20-warband', '--kind', 'check', '--vary', 'stat=1..20', '--where', 'success>=0.7');
    // Enumerated: stats 1-5 succeed 16/20, then one twentieth less per point; stat 7 is exactly 14/20.
    for (const v of r.values) {
      const expected = d20CheckSuccess(Number(v.label));
      expect(compare(parse(v.exact), expected)).toBe(0);
      expect(v.meets).toBe(compare(expected, fraction(7, 10)) >= 0);
    }
    expect(r.meeting).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(r.runs).toEqual([{ from: '1', to: '7' }]);
    expect(r.boundaries!.map((b) => [b.meets.label, b.meets.exact, b.doesNotMeet.label, b.doesNotMeet.exact])).toEqual([['7', '7/10', '8', '13/20']]);
    // Strictly above: the value equal to the threshold no longer meets it (fractions, not doubles, decide).
    const strict = await solveJson('--system', 'd20-warband', '--kind', 'check', '--vary', 'stat=1..20', '--where', 'success>70%');
    expect(strict.meeting).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('a d20 attack over Defence, "or worse": the flip is where the exact engine, run on each scenario, crosses the threshold', async () => {
    const r = await solveJson('--system', 'd20-warband', '--kind', 'attack', '--stat', '10', '--pierce', '2', '--vary', 'defence=1..20', '--where', 'stunned+<=10%');
    const single = (defence: number) => {
      const e = evaluateExact({ system: 'd20-warband', kind: 'attack', stat: 10, pierce: 2, defence });
      return e.outcomes.find((o) => o.outcome === 'stunned')!.orWorseExact!;
    };
    for (const v of r.values) expect(v.exact).toBe(single(Number(v.label)));
    const flips = r.values.flatMap((v, i) => (i > 0 && v.meets !== r.values[i - 1]!.meets ? [[r.values[i - 1]!.label, v.label]] : []));
    expect(flips).toEqual([['5', '6']]);
    expect(compare(parse(single(5)), fraction(1, 10))).toBeLessThanOrEqual(0);
    expect(compare(parse(single(6)), fraction(1, 10))).toBeGreaterThan(0);
    expect(r.boundaries!.map((b) => [b.meets.label, b.doesNotMeet.label])).toEqual([['5', '6']]);
    expect(r.summary).toEqual(['defence 1 to 5 meet it (6.3% to 9.3%); defence 6 does not: 10.9%.']);
  });

  it('how many attacks until P(out of action) >= 0.9: the smallest attacks count meeting it, checked on single sequences', async () => {
    const args = ['--kind', 'sequence', '--vary', 'attacks=1..30', '--where', 'out-of-action>=0.9'];
    const r = await solveJson(...args);
    const ooa = (attacks: number) => parse(evaluateExact({ kind: 'sequence', attacks }).outcomes.find((o) => o.outcome === 'out-of-action')!.exact);
    // One attack: the attack's own chance (README: 1313/7776 out of action on the first attack).
    expect(r.values[0]!.exact).toBe('1313/7776');
    expect(compare(ooa(8), fraction(9, 10))).toBeLessThan(0);
    expect(compare(ooa(9), fraction(9, 10))).toBeGreaterThanOrEqual(0);
    expect(r.meeting[0]).toBe('9');
    expect(r.runs).toEqual([{ from: '9', to: '30' }]);
    const table = await cliInProcess('solve', ...args);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('trench-crusade sequence, edition core: where out of action >= 90%, over attacks 1..30 (30 values), exact');
    expect(table.stdout).toContain('attacks 9 to 30 meet it (91.1% to 100.0%); attacks 8 does not: 87.9%.');
  });

  it('a condition on a mean, by its JSON key: expected attacks made grow with the attacks allowed', async () => {
    const r = await solveJson('--kind', 'sequence', '--vary', 'attacks=1..6', '--where', 'expectedAttacksMade>=2.5');
    const made = (attacks: number) => parse(evaluateExact({ kind: 'sequence', attacks }).means.expectedAttacksMade!.exact);
    for (const v of r.values) {
      expect(v.exact).toBe(evaluateExact({ kind: 'sequence', attacks: Number(v.label) }).means.expectedAttacksMade!.exact);
      expect(v.probability).toBeUndefined();
      expect(v.meets).toBe(compare(made(Number(v.label)), fraction(5, 2)) >= 0);
    }
    // Three attacks make 2.4969 on average (README), four make more than 2.5.
    expect(r.boundaries!.map((b) => [b.doesNotMeet.label, b.meets.label])).toEqual([['3', '4']]);
  });

  it('says so when every value or no value meets it, naming the value nearest the threshold', async () => {
    const base = ['--system', 'd20-warband', '--kind', 'check', '--vary', 'stat=8..12'];
    const all = await cliInProcess('solve', ...base, '--where', 'success<=0.65');
    expect(all.stdout).toContain('Every value meets it: stat 8 to 12 (45.0% to 65.0%).');
    const none = await solveJson(...base, '--where', 'success>0.9');
    expect(none.meeting).toEqual([]);
    expect(none.nearest!.label).toBe('8');
    expect(none.summary).toEqual(['No value meets it; nearest: stat 8 (65.0%).']);
  });
});

describe('solve over a list', () => {
  it('which armours keep Down or worse under 25%: those that meet it and those that do not, as the exact engine has them', async () => {
    const armours = ['none', 'standard', 'reinforced', 'machine'];
    const r = await solveJson('--kind', 'attack', '--vary', `armour=${armours.join(',')}`, '--where', 'down+<0.25');
    const downOrWorse = (armour: string) => evaluateExact({ kind: 'attack', armour }).outcomes.find((o) => o.outcome === 'down')!.orWorseExact!;
    expect(r.values.map((v) => [v.label, v.exact, v.meets])).toEqual(armours.map((a) => [a, downOrWorse(a), compare(parse(downOrWorse(a)), fraction(1, 4)) < 0]));
    expect(r.meeting).toEqual(['reinforced', 'machine']);
    expect(r.boundaries).toBeUndefined();
    const table = await cliInProcess('solve', '--kind', 'attack', '--vary', `armour=${armours.join(',')}`, '--where', 'down+<0.25');
    expect(table.stdout).toMatch(/^Meet it: armour reinforced \(16\.89%\), machine \(10\.25%\)\.\nDo not: armour none \(34\.65%\), standard \(25\.04%\)\.\n$/m);
  });

  it('a numeric list is put in order before its ranges are read', async () => {
    const r = await solveJson('--system', 'd20-warband', '--kind', 'check', '--vary', 'stat=12,6,9', '--where', 'success>=0.6');
    expect(r.values.map((v) => [v.label, v.meets])).toEqual([['6', true], ['9', true], ['12', false]]);
    expect(r.boundaries!.map((b) => [b.meets.label, b.doesNotMeet.label])).toEqual([['9', '12']]);
  });

  it('CSV: one row per value with the exact fraction, whether it meets the condition and whether it is next to the flip', async () => {
    const r = await cliInProcess('solve', '--system', 'd20-warband', '--kind', 'check', '--vary', 'stat=6..8', '--where', 'success>=0.7', '--format', 'csv');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'stat,label,system,kind,edition,where,exact,exact_numerator,exact_denominator,probability,meets,boundary',
      '6,6,d20-warband,check,v1,success>=0.7,3/4,3,4,0.75,true,false',
      '7,7,d20-warband,check,v1,success>=0.7,7/10,7,10,0.7,true,true',
      '8,8,d20-warband,check,v1,success>=0.7,13/20,13,20,0.65,false,true',
      '',
    ]);
  });
});

describe('solve --help and bad input', () => {
  it('--help shows --where with its form, --vary, the formats and examples', async () => {
    const r = await cliInProcess('solve', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--where +The condition, ID OP NUMBER/);
    expect(r.stdout).toContain('OP <=, <, >=, >');
    expect(r.stdout).toMatch(/--format +Output format: table, json, csv/);
    // Examples wrap at the help's width: their parts, not whole lines.
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('attacks=1..30');
    expect(r.stdout).toContain("'out-of-action>=0.9'");
    expect(r.stdout).toContain('how many attacks until P(out of action) >= 90%');
    const top = await cliInProcess('--help');
    expect(top.stdout).toMatch(/injury-lab solve \[scenario\] +Goal-seek over one field/);
  });

  /** One line on stderr naming the option, nothing on stdout, exit 2. */
  function expectRefused(r: CliRun, message: RegExp): void {
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(r.code).toBe(2);
  }

  const d20Attack = ['--system', 'd20-warband', '--kind', 'attack', '--vary', 'defence=1..20'];

  it('an unknown id: a did-you-mean and the ids allowed', async () => {
    // Once in a real process of the built CLI: the line and exit code end to end.
    expectRefused(cli('solve', ...d20Attack, '--where', 'incapacitatd<=0.2'), /^injury-lab: --where "incapacitatd<=0\.2": "incapacitatd" is not an outcome or mean/);
    expectRefused(
      await cliInProcess('solve', ...d20Attack, '--where', 'incapacitatd<=0.2'),
      /^injury-lab: --where "incapacitatd<=0.2": "incapacitatd" is not an outcome or mean of d20-warband kind "attack"; did you mean "incapacitated"\?; allowed: outcomes unharmed, wounded, staggered, dazed, stunned, incapacitated \(each with \+ for "this or worse", e\.g\. incapacitated\+\); means expectedAttacks$/,
    );
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'expectedAtacks>=1'), /did you mean "expectedAttacks"\?/);
  });

  it('a bad operator, a missing or bad number, no condition at all', async () => {
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'incapacitated=<0.2'), /^injury-lab: --where "incapacitated=<0.2": "=<" is not a comparison; allowed: <=, <, >=, >$/);
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'incapacitated==0.2'), /"==" is not a comparison; allowed: <=, <, >=, >/);
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'incapacitated<=lots'), /--where "incapacitated<=lots": "lots" is not a number; allowed: a probability 0\.\.1 or a percentage/);
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'incapacitated<='), /"" is not a number/);
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', '<=0.2'), /^injury-lab: --where: "<=0.2" is not a condition; allowed: ID OP NUMBER/);
    // What a shell passes of an unquoted incapacitated>=0.9: the name alone (">=0.9" became a redirect).
    expectRefused(
      await cliInProcess('solve', ...d20Attack, '--where', 'incapacitated'),
      /^injury-lab: --where: "incapacitated" has no comparison: unquoted, a shell reads > and < as redirects \(and may have left a file named like "=0\.9"\); quote the condition, e\.g\. --where 'incapacitated>=0\.9'$/,
    );
  });

  it('a probability outside 0..1, as a number or a percentage', async () => {
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'incapacitated<=1.5'), /--where "incapacitated<=1.5": 1\.5 is not a probability; allowed: a number from 0 to 1, or a percentage from 0% to 100%/);
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'incapacitated<=120%'), /1\.2 \(as a percentage\) is not a probability/);
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'incapacitated>=-0.1'), /-0\.1 is not a probability/);
  });

  it('"or worse" on a duel (its outcomes are not ranked) or on a mean, a percentage for a mean', async () => {
    expectRefused(
      await cliInProcess('solve', '--kind', 'duel', '--a', 'armour=none', '--b', 'armour=standard', '--vary', 'rounds=1..3', '--where', 'a-wins+>=0.5'),
      /^injury-lab: --where "a-wins\+>=0\.5": the outcomes of trench-crusade kind "duel" are not ranked from mildest to most severe, so "a-wins\+" \("or worse"\) means nothing; allowed: one outcome without \+, one of a-wins, b-wins, undecided$/,
    );
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'expectedAttacks+>=1'), /"expectedAttacks" is a mean: it has no "or worse"/);
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'expectedAttacks>=50%'), /"expectedAttacks" is a mean, not a probability; allowed: a number without %/);
  });

  it('two --vary, two --where, a varied field also given as a flag, a format it cannot print', async () => {
    expectRefused(
      await cliInProcess('solve', ...d20Attack, '--vary', 'stat=1..3', '--where', 'stunned<0.1'),
      /^injury-lab: --vary: given 2 times \("defence=1\.\.20", "stat=1\.\.3"\); solve searches one field: give one --vary/,
    );
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'stunned<0.1', '--where', 'dazed<0.1'), /^injury-lab: --where: given 2 times/);
    expectRefused(await cliInProcess('solve', ...d20Attack, '--defence', '3', '--where', 'stunned<0.1'), /--defence 3: the field is also varied \(--vary defence\); give it one way/);
    expectRefused(await cliInProcess('solve', ...d20Attack, '--where', 'stunned<0.1', '--format', 'xml'), /--format: "xml" is not a format; allowed: table, json, csv/);
  });
});

describe('thresholds are read as exact decimals', () => {
  it('0.2 is 1/5, 20% is 1/5, 1e-3 is 1/1000; anything else is not a number', () => {
    const read = (t: string) => {
      const p = parseExactDecimal(t);
      return p && { value: `${p.value.num}/${p.value.den}`, percent: p.percent };
    };
    expect(read('0.2')).toEqual({ value: '1/5', percent: false });
    expect(read('20%')).toEqual({ value: '1/5', percent: true });
    expect(read('.5')).toEqual({ value: '1/2', percent: false });
    expect(read('1e-3')).toEqual({ value: '1/1000', percent: false });
    expect(read('8')).toEqual({ value: '8/1', percent: false });
    expect(read('-2.50')).toEqual({ value: '-5/2', percent: false });
    for (const bad of ['', '.', 'abc', '0.2.1', '1e', '1e-999', '%', '0x10']) expect(read(bad)).toBeUndefined();
  });
});
