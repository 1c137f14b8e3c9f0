import { redisAvailable } from '../../bench/local-redis.js';

/**
 * A Redis server of a test file's own (the queue tests, #27), as the bench starts one. CI installs
 * redis-server (.ci/run); elsewhere a file without it skips its tests, unless CI is set.
 */
if (!redisAvailable && process.env.CI) throw new Error('redis-server is missing: install it with apt-get install -y redis-server (.ci/run does)');

export { exited, freePort, redisAvailable, startRedis, waitFor, type LocalRedis as TestRedis } from '../../bench/local-redis.js';
