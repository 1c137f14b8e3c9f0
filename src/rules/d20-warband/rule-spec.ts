/**
 * Every d20 warband number the engines use, declared once with its value and the sentence it comes from
 * (one edition, v1). Quotes are the rule files' words (line breaks aside); a test finds each in its file.
 */
import { integerRule, resultTableRules, same, type ResultTable, type RuleCitation, type RuleValues } from '../../model/rule-table.js';

export const STATS_FILE = '003_66409dd9159b6662.txt';
export const INJURY_FILE = '000_87078d30a64c9030.txt';

const stats = (quote: string): { v1: RuleCitation } => ({ v1: { file: STATS_FILE, quote } });
const injury = (quote: string): { v1: RuleCitation } => ({ v1: { file: INJURY_FILE, quote } });

export const d20WarbandRuleSpec = {
  naturalFailMax: integerRule('Highest natural d20 that always fails a check', { minimum: 0, maximum: 19 }, same(4, stats('An unmodified roll of 1-4 for Stat Checks is always a failure'))),
  naturalSuccessMin: integerRule('Lowest natural d20 that always passes a check', { minimum: 2, maximum: 21 }, same(20, stats("If a player rolls a '20' during a Check, the Check will always succeed"))),
  criticalHitMin: integerRule('Lowest natural d20 on an attack that is a Critical Hit: a hit whatever the stat, and an extra attack if explode', { minimum: 2, maximum: 21 }, same(20, stats('If as part of any attack a unit rolls a natural 20 on the dice it becomes a Critical Hit!'))),
  dashFirstImproved: integerRule("What a '-' stat becomes at its first point of improvement", { minimum: 1, maximum: 20 }, same(20, stats("The first point of improvement changes the stat from a '-' to a '20'"))),
  injuryCheckTable: {
    stunned: integerRule('Lowest modified Injury Check that Stuns (below it: Dazed)', { minimum: -20, maximum: 40 }, same(15, injury('| 15-17 | Stunned |'))),
    incapacitated: integerRule('Lowest modified Injury Check that Incapacitates', { minimum: -20, maximum: 40 }, same(18, injury('| 18-20 | Incapacitated |'))),
  },
  injuryRollTable: {
    dazed: integerRule('Lowest modified Injury Roll that Dazes (below it: no effect)', { minimum: -20, maximum: 40 }, same(12, injury('| 12-14 | Dazed |'))),
    stunned: integerRule('Lowest modified Injury Roll that Stuns', { minimum: -20, maximum: 40 }, same(15, injury('| 15-17 | Stunned |'))),
    incapacitated: integerRule('Lowest modified Injury Roll that Incapacitates', { minimum: -20, maximum: 40 }, same(18, injury('| 18-20 | Incapacitated |'))),
  },
  fall: {
    freeInches: integerRule('Inches a unit may fall before the fall modifier starts', { minimum: 0, maximum: 24 }, same(2, injury('For every extra full inch above 2” that the unit Falls from, add a +2 modifier.'))),
    modifierPerInch: integerRule('Injury Roll modifier per full inch above the free height', { minimum: 0, maximum: 10 }, same(2, injury('For every extra full inch above 2” that the unit Falls from, add a +2 modifier.'))),
  },
} as const;

/** The d20 warband rule table (an edition's, or a variant's): what both engines read. */
export type D20WarbandRules = RuleValues<typeof d20WarbandRuleSpec>;

/** The Injury Check and Injury Roll tables, read from the lowest total up. */
export const d20WarbandResultTables: readonly ResultTable[] = [
  {
    below: 'Dazed (Injury Check)',
    results: [
      { rule: 'injuryCheckTable.stunned', result: 'Stunned (Injury Check)' },
      { rule: 'injuryCheckTable.incapacitated', result: 'Incapacitated (Injury Check)' },
    ],
  },
  {
    below: 'no effect (Injury Roll)',
    results: [
      { rule: 'injuryRollTable.dazed', result: 'Dazed (Injury Roll)' },
      { rule: 'injuryRollTable.stunned', result: 'Stunned (Injury Roll)' },
      { rule: 'injuryRollTable.incapacitated', result: 'Incapacitated (Injury Roll)' },
    ],
  },
];

export const d20WarbandIncreasing: readonly (readonly string[])[] = [
  ...d20WarbandResultTables.map(resultTableRules),
  ['naturalFailMax', 'naturalSuccessMin'],
  // A Critical Hit is a hit: a natural that always fails cannot be one.
  ['naturalFailMax', 'criticalHitMin'],
];
