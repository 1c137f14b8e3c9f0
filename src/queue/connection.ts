import type { RedisOptions as BullRedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { refusal } from '../messages.js';
import type { QueueAddress } from './shards.js';

/** How long to wait for Redis before saying it cannot be reached. */
export const CONNECT_TIMEOUT_MS = 4000;

/** ioredis options for BullMQ's connections (BullMQ wants maxRetriesPerRequest null on a worker's). */
export function redisOptions(address: QueueAddress): BullRedisOptions {
  return {
    host: address.host,
    port: address.port,
    db: address.db,
    ...(address.username !== undefined ? { username: address.username } : {}),
    ...(address.password !== undefined ? { password: address.password } : {}),
    ...(address.tls ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    connectTimeout: CONNECT_TIMEOUT_MS,
  };
}

/**
 * Connects once, without retrying, and pings: an unreachable host, a refused port or a wrong password
 * is one refusal (a UsageError) naming host:port (never the password), within a few seconds, before anything is
 * queued or waited for. Returns the server's clock in milliseconds (for reading its event stream from now).
 */
export async function checkReachable(address: QueueAddress): Promise<number> {
  const client = new Redis({
    ...redisOptions(address),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let first: Error | undefined;
  client.on('error', (e: Error) => {
    first ??= e;
  });
  let timer: NodeJS.Timeout | undefined;
  let answers: [unknown, unknown];
  try {
    answers = (await Promise.race([
      client.connect().then(() => Promise.all([client.time(), client.info('server')])),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
      }),
    ])) as [unknown, unknown];
  } catch (e) {
    const err = first ?? e;
    const reason = err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.message) : String(err);
    throw refusal('--queue', `cannot reach Redis at ${address.shown} (${reason.replace(/\s+/g, ' ')})`, 'start redis-server there or check the host, port and password');
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
  return serverClock(address, answers[0], answers[1]);
}

/**
 * Settles once a fresh connection to the server fails (refused, unknown host, no answer in
 * CONNECT_TIMEOUT_MS), and never if it succeeds: what closing waits for besides its grace period, so
 * that a server already gone costs no wait, while one that answers is still given the whole grace.
 */
export function unreachable(address: QueueAddress): Promise<void> {
  return checkReachable(address).then(
    () => new Promise<void>(() => {}),
    () => undefined,
  );
}

/** BullMQ's own floor (RedisConnection.minimumVersion): below it, BullMQ throws from deep inside. */
export const MINIMUM_REDIS = [5, 0, 0] as const;

/**
 * The server's clock from its TIME, once its TIME and INFO show it is a Redis that BullMQ can use. A
 * server that answers +OK to everything, or an old Redis, is refused here in one line: past this
 * point BullMQ would spin on its answers, wait for ever, or throw a stack trace.
 */
export function serverClock(address: QueueAddress, time: unknown, info: unknown): number {
  const notRedis = () => refusal('--queue', `the server at ${address.shown} answers, but not as Redis does (its TIME and INFO are not Redis's)`, 'give the address of a Redis server (5.0 or later)');
  if (!Array.isArray(time) || time.length !== 2 || !time.every((t) => /^\d+$/.test(String(t)))) throw notRedis();
  const version = typeof info === 'string' ? /^redis_version:(\d+)\.(\d+)\.(\d+)/m.exec(info) : null;
  if (!version) throw notRedis();
  const [major, minor, patch] = version.slice(1).map(Number) as [number, number, number];
  const [wantMajor, wantMinor, wantPatch] = MINIMUM_REDIS;
  if (major < wantMajor || (major === wantMajor && (minor < wantMinor || (minor === wantMinor && patch < wantPatch)))) {
    throw refusal('--queue', `the Redis at ${address.shown} is version ${major}.${minor}.${patch}`, `the queue (BullMQ) needs Redis ${MINIMUM_REDIS.join('.')} or later`);
  }
  return Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
}
