import type { CommandModule } from 'yargs';
import { refusal } from '../../messages.js';
import { defaultWorkers } from '../../pool/threads.js';
import { unreachable } from '../../queue/connection.js';
import { parseQueueUrl } from '../../queue/shards.js';
import { DEFAULT_LOCK_SECONDS, startShardWorker } from '../../queue/worker.js';
import { wholeNumber } from '../../sim/run-limits.js';
import { MAX_WORKERS } from '../sim-options.js';

/**
 * `injury-lab worker --queue redis://HOST:PORT`: takes the jobs of `--queue` runs (`simulate`, `sweep`,
 * `compare`, `report`, `price`: simulation shards, exact cells and batches of duels) from any host
 * until stopped. Ctrl-C or SIGTERM finishes the jobs in hand, closes the connection (waiting at most a
 * few seconds for a Redis that went away) and exits 0; a second one exits at once, abandoning them (the
 * queue hands them to another worker), with 0 as well.
 */
/** How long a stopping worker waits for its connections to close once its jobs are done. */
const CLOSE_GRACE_MS = 3000;

export const workerCommand: CommandModule = {
  command: 'worker',
  describe: 'Play the jobs (simulation shards, exact cells, batches of duels) of runs queued with --queue on a Redis server, until stopped (Ctrl-C)',
  builder: (y) =>
    y
      .option('queue', { type: 'string', describe: 'The Redis server of the queue: redis://[:PASSWORD@]HOST[:PORT][/DB]', demandOption: true })
      .option('concurrency', { type: 'string', describe: `Jobs played at once, each on a thread, 1 to ${MAX_WORKERS}`, defaultDescription: '1' })
      .option('lock-seconds', {
        type: 'string',
        describe: `How long a job stays with a worker that stopped answering (killed, cut off) before another worker takes it over, 1 to 3600`,
        defaultDescription: String(DEFAULT_LOCK_SECONDS),
      })
      .example('$0 worker --queue redis://10.0.0.5:6379 --concurrency 8', 'play jobs on 8 threads of this host'),
  handler: async (argv) => {
    if (Array.isArray(argv.queue)) throw refusal('--queue', 'given more than once', 'give it once');
    const address = parseQueueUrl(argv.queue);
    const concurrency = argv.concurrency === undefined ? 1 : wholeNumber(argv.concurrency, '--concurrency', 1, MAX_WORKERS, `a whole number from 1 to ${MAX_WORKERS} (this host has ${defaultWorkers()} cores)`);
    const lockSeconds = argv['lock-seconds'] === undefined ? DEFAULT_LOCK_SECONDS : wholeNumber(argv['lock-seconds'], '--lock-seconds', 1, 3600, 'a whole number of seconds from 1 to 3600');
    const worker = await startShardWorker({ address, concurrency, lockSeconds });
    process.stderr.write(`injury-lab: taking shards from ${address.shown} on ${concurrency} thread${concurrency === 1 ? '' : 's'}; Ctrl-C to stop\n`);
    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (): void => {
        if (stopping) {
          // A second signal: now. The jobs in hand go to another worker once their locks lapse.
          process.exit(0);
        }
        stopping = true;
        process.stderr.write('injury-lab: finishing the jobs in hand (Ctrl-C again drops them)\n');
        // The jobs in hand are finished; then BullMQ's close is given CLOSE_GRACE_MS, since a Redis that
        // went away would hold it (and the process) for ever; none at all once a fresh connection shows it gone.
        const gaveUp = worker.idle().then(() => Promise.race([new Promise<void>((r) => setTimeout(r, CLOSE_GRACE_MS).unref()), unreachable(address)]));
        void Promise.race([worker.close(false), gaveUp]).then(resolve, resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    process.exit(0);
  },
};
