import { Redis } from 'ioredis';
import { redisAvailable } from '../../bench/local-redis.js';
import { shardQueueName } from '../../src/queue/shards.js';

/**
 * A Redis server of a test file's own (the queue tests, #27), as the bench starts one. CI installs
 * redis-server (.ci/run); elsewhere a file without it skips its tests, unless CI is set.
 */
if (!redisAvailable && process.env.CI) throw new Error('redis-server is missing: install it with apt-get install -y redis-server (.ci/run does)');

export { exited, freePort, redisAvailable, startRedis, waitFor, type LocalRedis as TestRedis } from '../../bench/local-redis.js';

/**
 * How many jobs the workers of the Redis server at `port` finished while `run` ran (a spawned CLI, or
 * an in-process one awaited), read from the queue's event stream (whose ids are the server's
 * milliseconds): so a test sees that the queue did the work, not the local threads.
 */
export async function jobsCompletedDuring<T>(port: number, run: () => T | Promise<T>): Promise<{ result: T; jobs: number }> {
  const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 0 });
  try {
    const [seconds, micros] = await client.time();
    const from = `${Number(seconds) * 1000 + Math.floor(Number(micros) / 1000)}-0`;
    const result = await run();
    const entries = (await client.xrange(`bull:${shardQueueName()}:events`, from, '+')) as [string, string[]][];
    return { result, jobs: entries.filter(([, fields]) => fields[0] === 'event' && fields[1] === 'completed').length };
  } finally {
    client.disconnect();
  }
}

/**
 * An in-process CLI run (cliInProcess) that goes on while the test acts on the queue beside it (kills a
 * worker, restarts Redis). If the test fails before the run ends, stop() ends it as Ctrl-C would (while
 * it runs, the CLI listens for SIGINT on this process): a run left waiting would hold this test process's
 * output and the in-process CLI, which runs one command at a time, for the files that come after.
 */
export function inBackground<T>(run: Promise<T>): { result: Promise<T>; stop(): Promise<void> } {
  let settled = false;
  const result = run.finally(() => (settled = true));
  return {
    result,
    async stop() {
      if (settled) return;
      process.emit('SIGINT');
      // Bounded: a run not yet listening for SIGINT is left behind rather than hang the test's clean-up.
      await Promise.race([result.catch(() => undefined), new Promise((r) => setTimeout(r, 10_000).unref())]);
    },
  };
}
