import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/**
 * A Redis server of a test file's or the bench's own (the job queue, #27): Debian's redis-server on
 * 127.0.0.1 at a free port, nothing saved, stopped by its owner. The tests (test/helpers/redis.ts) and
 * `npm run bench` (bench/queue.ts) share it; the bench is built with the tool, so it lives here.
 */
export const redisAvailable = spawnSync('redis-server', ['--version']).status === 0;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it holds: a hang detector (a minute, far above any wait), not a speed limit. */
export async function waitFor(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A child's exit code once it has exited (null if a signal ended it). */
export function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export interface LocalRedis {
  readonly port: number;
  readonly url: string;
  /** The server's process id (the bench reads its CPU time). */
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

/** Starts a redis-server (at a free port, or at `port`: one started again where another was) and waits until it answers PING. */
export async function startRedis(at?: number): Promise<LocalRedis> {
  const port = at ?? (await freePort());
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await waitFor(async () => {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } finally {
      client.disconnect();
    }
  }, 'redis-server');
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pid: server.pid,
    async stop() {
      server.kill('SIGTERM');
      await exited(server);
    },
  };
}
