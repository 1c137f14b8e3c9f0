import type { CommandModule } from 'yargs';
import { evaluateExact } from '../../evaluate.js';
import { percent, renderTable } from '../format.js';

/**
 * The built-in example `npm start` runs until batch reports exist: how much each armour (core edition)
 * protects against an attack with 0 and +1 injury dice.
 */
export const demoCommand: CommandModule = {
  command: 'demo',
  describe: 'A built-in example: armour against injury dice, core edition, exact',
  handler: () => {
    const armours: [string, boolean][] = [
      ['none', false],
      ['standard', false],
      ['standard', true],
      ['reinforced', false],
      ['reinforced', true],
      ['machine', false],
    ];
    for (const injuryDice of [0, 1]) {
      const rows = armours.map(([armour, shield]) => {
        const r = evaluateExact({ system: 'trench-crusade', kind: 'injury', armour, shield, injuryDice });
        const p = (id: string) => r.outcomes.find((o) => o.outcome === id)!;
        return [
          armour + (shield ? ' + shield' : ''),
          percent(p('no-effect').probability, 1),
          percent(p('minor-hit').probability, 1),
          percent(p('down').probability, 1),
          percent(p('out-of-action').probability, 1),
          p('out-of-action').exact,
        ];
      });
      process.stdout.write(`Injury roll with ${injuryDice >= 0 ? '+' : ''}${injuryDice} injury dice, core edition (exact)\n`);
      process.stdout.write(renderTable(['armour', 'no effect', 'minor hit', 'down', 'out of action', 'exact OOA'], rows, [false, true, true, true, true, true]) + '\n\n');
    }
  },
};
