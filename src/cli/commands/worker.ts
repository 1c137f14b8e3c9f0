import type { CommandModule } from 'yargs';
import { refusal } from '../../messages.js';
import { defaultWorkers } from '../../pool/threads.js';
import { parseQueueUrl } from '../../queue/shards.js';
import { startShardWorker } from '../../queue/worker.js';
import { wholeNumber } from '../../sim/run-limits.js';
import { MAX_WORKERS } from '../sim-options.js';

/**
 * `injury-lab worker --queue redis://HOST:PORT`: takes shards of `simulate --queue` runs from any host
 * until stopped. Ctrl-C or SIGTERM finishes the shards in hand, closes the connection and exits 0; a
 * second one abandons them (the queue hands them to another worker) and exits 0 as well.
 */
export const workerCommand: CommandModule = {
  command: 'worker',
  describe: 'Play shards of runs queued with --queue on a Redis server, until stopped (Ctrl-C)',
  builder: (y) =>
    y
      .option('queue', { type: 'string', describe: 'The Redis server of the queue: redis://[:PASSWORD@]HOST[:PORT][/DB]', demandOption: true })
      .option('concurrency', { type: 'string', describe: `Shards played at once, each on a thread, 1 to ${MAX_WORKERS}`, defaultDescription: '1' })
      .example('$0 worker --queue redis://10.0.0.5:6379 --concurrency 8', 'play shards on 8 threads of this host'),
  handler: async (argv) => {
    if (Array.isArray(argv.queue)) throw refusal('--queue', 'given more than once', 'give it once');
    const address = parseQueueUrl(argv.queue);
    const concurrency = argv.concurrency === undefined ? 1 : wholeNumber(argv.concurrency, '--concurrency', 1, MAX_WORKERS, `a whole number from 1 to ${MAX_WORKERS} (this host has ${defaultWorkers()} cores)`);
    const worker = await startShardWorker({ address, concurrency });
    process.stderr.write(`injury-lab: taking shards from ${address.shown} on ${concurrency} thread${concurrency === 1 ? '' : 's'}; Ctrl-C to stop\n`);
    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (): void => {
        if (stopping) {
          // A second signal: abandon the shards in hand.
          void worker.close(true).then(resolve, resolve);
          return;
        }
        stopping = true;
        void worker.close(false).then(resolve, resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    process.exit(0);
  },
};
