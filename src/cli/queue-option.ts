import type { Argv } from 'yargs';
import { refusal } from '../messages.js';
import type { ExactSolver } from '../pool/exact.js';
import type { ChunkPlayer } from '../pool/simulate.js';
import { parseQueueUrl, type QueueAddress } from '../queue/shards.js';

/**
 * `--queue redis://HOST:PORT`, declared once for every command that hands work out (`simulate`, `sweep`,
 * `compare`, `report`, `price`): the run's chunks, exact cells and duels are taken by `injury-lab
 * worker`s through a Redis queue (src/queue/), with the same numbers as a local run.
 */
export const queueOptionDeclaration = {
  type: 'string',
  describe: 'Hand the work (simulations, exact cells, duels) to `injury-lab worker`s of a Redis server, redis://[:PASSWORD@]HOST[:PORT][/DB]: the same numbers as a local run',
} as const;

export function addQueueOption<T>(y: Argv<T>, group?: string): Argv<T> {
  return y.option('queue', { ...queueOptionDeclaration, ...(group !== undefined ? { group } : {}) }) as Argv<T>;
}

/** --queue, checked (a bad URL never shows its password); refused with --workers, since a queue's workers each choose their own --concurrency. */
export function queueOf(argv: Record<string, unknown>): QueueAddress | undefined {
  if (argv.queue === undefined) return undefined;
  if (Array.isArray(argv.queue)) throw refusal('--queue', 'given more than once', 'give it once');
  const address = parseQueueUrl(argv.queue);
  if (argv.workers !== undefined) throw refusal('--workers', 'does not go with --queue', 'the run is played by `injury-lab worker` processes, each with its own --concurrency');
  return address;
}

/** A line on stderr during a run: on a terminal, the progress bar's line is cleared first (the bar draws itself again). */
function say(line: string): void {
  process.stderr.write(`${process.stderr.isTTY ? '\r\x1b[K' : ''}injury-lab: ${line}\n`);
}

function sayNoWorkers(address: QueueAddress): void {
  say(`no worker is taking jobs from ${address.shown} yet; the run waits for one (\`injury-lab worker --queue redis://${address.shown}\`)`);
}

/** Where a command's work goes when --queue is given: its simulations' chunks, its grid's exact cells, a price field's duels in batches. */
export type Remote = ChunkPlayer & ExactSolver;

/**
 * Runs `body` with the queue when --queue was given (open for the whole command, closed after it
 * whatever happens, which takes its waiting jobs out of the queue), or with none: this process's threads.
 * The queue's code (BullMQ, ioredis) is loaded only by a run that uses it.
 */
export async function withRemote<T>(address: QueueAddress | undefined, body: (remote: Remote | undefined) => Promise<T>): Promise<T> {
  if (address === undefined) return body(undefined);
  const { withQueue } = await import('../queue/submit.js');
  return withQueue({ address, onNoWorkers: () => sayNoWorkers(address), onNotice: say }, body);
}
