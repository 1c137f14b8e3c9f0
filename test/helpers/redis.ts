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
 * How many jobs the workers of the Redis server at `port` finished while `run` ran, read from the
 * queue's event stream (whose ids are the server's milliseconds): so a test sees that the queue did the
 * work, not the local threads.
 */
export async function jobsCompletedDuring<T>(port: number, run: () => T): Promise<{ result: T; jobs: number }> {
  const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 0 });
  try {
    const [seconds, micros] = await client.time();
    const from = `${Number(seconds) * 1000 + Math.floor(Number(micros) / 1000)}-0`;
    const result = run();
    const entries = (await client.xrange(`bull:${shardQueueName()}:events`, from, '+')) as [string, string[]][];
    return { result, jobs: entries.filter(([, fields]) => fields[0] === 'event' && fields[1] === 'completed').length };
  } finally {
    client.disconnect();
  }
}
