import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAndSignal } from './helpers/signal.js';

/**
 * Issue 21, hangs and debris: Ctrl-C and SIGTERM stop a run whose exact solves are heavy, and a run
 * stopped that way leaves nothing behind. Real processes, since signals and exit codes are the subject.
 *
 * The cell below takes about a minute to solve exactly on an idle machine (50 attacks under the optimal
 * blood-marker policy, +10 injury dice, 20 markers, FIRE, Tough, REGENERATE), and a sweep or report of
 * two of them two minutes: a run that went on solving after the signal would exit 0 (or hit the test's
 * hang detector) instead of 130 or 143. The signal is sent the moment the CLI listens for it (the
 * preload announces that on stderr), so nothing waits on a guessed delay.
 */

const HEAVY = ['--kind', 'sequence', '--attacks', '50', '--policy', 'optimal', '--injury-dice', '10', '--blood-markers', '20', '--fire-markers', '3', '--tough'];
const HEAVY_SCENARIO = { kind: 'sequence', attacks: 50, policy: 'optimal', injuryDice: 10, bloodMarkers: 20, fireMarkers: 3, tough: true };

describe('a signal stops heavy exact work at once, and leaves nothing behind', () => {
  it('Ctrl-C during an exact-only sweep: exit 130, nothing on stdout', async () => {
    const r = await runAndSignal(['sweep', ...HEAVY, '--vary', 'regenerate=1,2'], 'SIGINT');
    expect(r).toEqual({ code: 130, stdout: '', stderr: 'test: listening for SIGINT\n' });
  });

  it('SIGTERM during a report into a new folder: exit 143, and neither the folder nor its parents stay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-term-'));
    const def = join(dir, 'heavy.json');
    writeFileSync(def, JSON.stringify({ title: 'Heavy', analyses: [{ id: 'heavy', title: 'Heavy', scenario: HEAVY_SCENARIO, vary: ['regenerate=1,2'] }] }));
    const r = await runAndSignal(['report', def, '--out', join(dir, 'new', 'report')], 'SIGTERM');
    expect(r).toEqual({ code: 143, stdout: '', stderr: 'test: listening for SIGINT\n' });
    expect(existsSync(join(dir, 'new'))).toBe(false);
    expect(readdirSync(dir)).toEqual(['heavy.json']);
  });
});
