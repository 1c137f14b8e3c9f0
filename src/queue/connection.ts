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
  try {
    const time = await Promise.race([
      client.connect().then(() => client.time()),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
      }),
    ]);
    const [seconds, micros] = time as [string | number, string | number];
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  } catch (e) {
    const err = first ?? e;
    const reason = err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.message) : String(err);
    throw refusal('--queue', `cannot reach Redis at ${address.shown} (${reason.replace(/\s+/g, ' ')})`, 'start redis-server there or check the host, port and password');
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}
