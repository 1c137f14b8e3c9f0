/**
 * Issue 39's table of goals ("Fast everywhere"), each figure as this run measured it against its goal:
 * the last thing `npm run bench` prints, so one run says which are met. A figure the run could not
 * measure (no Chromium, no redis-server) is said to be skipped, never met.
 */

export interface Issue39Figures {
  /** Simulated duels per second on one worker, and what the raw dice loop alone allows at a duel's dice. */
  readonly duelsPerSecond: number;
  readonly duelDiceBound: number;
  /** The attack kernel's rolls per CPU second over the raw dice loop's at its dice. */
  readonly attackRatio: number;
  readonly peakRssMB: number;
  /** Exact 10-round duels, both sides optimal, without and with 6-inch ledges: fastest solve, ms. */
  readonly optimalMs: number;
  readonly optimalLedgeMs: number;
  /** Page simulation over the CLI's on the same trials; undefined without Chromium. */
  readonly pageOverCli?: number;
  /** The job queue with 2 worker processes, as a fraction of linear; undefined without redis-server. */
  readonly queueTwoOfLinear?: number;
}

export interface Goal {
  readonly figure: string;
  readonly now: string;
  readonly goal: string;
  /** undefined: not measured in this run. */
  readonly met: boolean | undefined;
}

export const ISSUE_39 = { duelsPerSecond: 5e6, ofDiceBound: 0.8, attackRatio: 0.9, peakRssMB: 150, optimalMs: 50, optimalLedgeMs: 200, pageOverCli: 0.9, queueOfLinear: 0.95 } as const;

const M = (x: number) => (x / 1e6).toFixed(2);

export function issue39Goals(f: Issue39Figures): Goal[] {
  const ofBound = f.duelsPerSecond / f.duelDiceBound;
  return [
    {
      figure: 'simulated duels, 1 worker',
      now: `${M(f.duelsPerSecond)} M/s (${ofBound.toFixed(2)} of the ${M(f.duelDiceBound)} the dice allow)`,
      goal: `>= ${M(ISSUE_39.duelsPerSecond)} M/s, >= ${ISSUE_39.ofDiceBound} of the dice`,
      met: f.duelsPerSecond >= ISSUE_39.duelsPerSecond && ofBound >= ISSUE_39.ofDiceBound,
    },
    { figure: 'attack kernel / raw dice loop', now: f.attackRatio.toFixed(2), goal: `>= ${ISSUE_39.attackRatio}`, met: f.attackRatio >= ISSUE_39.attackRatio },
    { figure: 'peak memory, 1e9 trials, CLI', now: `${f.peakRssMB.toFixed(0)} MB`, goal: `< ${ISSUE_39.peakRssMB} MB`, met: f.peakRssMB < ISSUE_39.peakRssMB },
    {
      figure: 'exact duel, 10 rounds, both optimal',
      now: `${f.optimalMs.toFixed(0)} ms; with ledges ${f.optimalLedgeMs.toFixed(0)} ms`,
      goal: `< ${ISSUE_39.optimalMs} ms and < ${ISSUE_39.optimalLedgeMs} ms`,
      met: f.optimalMs < ISSUE_39.optimalMs && f.optimalLedgeMs < ISSUE_39.optimalLedgeMs,
    },
    {
      figure: 'page simulation / CLI simulation',
      now: f.pageOverCli === undefined ? 'skipped (no Chromium)' : f.pageOverCli.toFixed(2),
      goal: `>= ${ISSUE_39.pageOverCli}`,
      met: f.pageOverCli === undefined ? undefined : f.pageOverCli >= ISSUE_39.pageOverCli,
    },
    {
      figure: 'queue, 2 worker processes',
      now: f.queueTwoOfLinear === undefined ? 'skipped (no redis-server)' : `${f.queueTwoOfLinear.toFixed(2)} of linear`,
      goal: `>= ${ISSUE_39.queueOfLinear}`,
      met: f.queueTwoOfLinear === undefined ? undefined : f.queueTwoOfLinear >= ISSUE_39.queueOfLinear,
    },
  ];
}

/** The goals as lines of a table: figure, now, goal, met / MISSED / skipped. */
export function goalLines(goals: readonly Goal[]): string[] {
  const w = [Math.max(...goals.map((g) => g.figure.length)), Math.max(...goals.map((g) => g.now.length)), Math.max(...goals.map((g) => g.goal.length))];
  return goals.map((g) => `  ${g.figure.padEnd(w[0]!)}  ${g.now.padEnd(w[1]!)}  ${g.goal.padEnd(w[2]!)}  ${g.met === undefined ? 'skipped' : g.met ? 'met' : 'MISSED'}`);
}
