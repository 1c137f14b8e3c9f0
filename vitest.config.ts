import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The suite has to pass every time on a busy 2-core machine (CI is one), so nothing here races the
 * clock. Timeouts are a hang detector, not a speed limit: the slowest test takes about 2.5 s on an idle
 * machine and a CPU-bound neighbour on 2 cores can make it several times slower, so 60 s only ever fires
 * on a test that would never finish. How fast things are is measured by `npm run bench`, not here.
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    // One temporary folder for the run, removed at its end (test/helpers/temp-root.ts).
    globalSetup: ['test/helpers/temp-root.ts'],
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // Child processes, not threads: many tests start the CLI or a piscina pool of their own, and a
    // process per test file keeps their worker threads and signal handlers apart.
    pool: 'forks',
    // One test file per core. Several tests start worker threads themselves, so more files at once
    // would only queue for the same 2 cores and stretch every test's wall time.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ['test/read-once.test.ts'],
          // A fork runs one test file after another with the modules it has already loaded (vega, ajv's
          // compiled schemas, the rule tables), instead of loading them afresh for every file: a third of
          // the suite's CPU went to that. No test here mocks a module or leaves process-wide state behind
          // (cliInProcess restores what it replaces), so the order files meet in a fork does not matter.
          isolate: false,
        },
      },
      {
        extends: true,
        // vi.mock replaces modules, which only works where they have not been loaded yet: a fresh fork.
        test: { name: 'isolated', include: ['test/read-once.test.ts'], isolate: true },
      },
    ],
  },
});
