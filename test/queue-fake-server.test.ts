import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliChildren } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { exited } from '../bench/local-redis.js';

/**
 * Servers that are not quite Redis (issue #36): one that answers +OK to every command, and a Redis 4.
 * BullMQ would spin on the first (a worker at 80% CPU deaf to signals, a run waiting for ever) and
 * throw a stack trace on the second. Both are refused within seconds, in one line, exit 2, by the
 * submitter and by a worker. Our own fake servers speaking RESP: no redis-server needed.
 *
 * The worker facing the +OK server, the worst case (BullMQ would spin in it, deaf to signals), is a
 * process of its own; the other refusals are the same CLI in this process (refused at its first look
 * at the server, before a worker or a run starts).
 */

type Answer = (command: string[]) => string;

/** A TCP server that reads RESP commands (arrays of bulk strings) and answers each with `answer`. */
function fakeRedis(answer: Answer): Promise<Server> {
  const server = createServer((socket: Socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const parsed = readCommand(buffer);
        if (!parsed) break;
        buffer = buffer.subarray(parsed.used);
        socket.write(answer(parsed.command));
      }
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** One command at the buffer's start: `*N\r\n` then N times `$LEN\r\nDATA\r\n`; undefined until it has all come. */
function readCommand(buffer: Buffer): { command: string[]; used: number } | undefined {
  const line = (at: number) => {
    const end = buffer.indexOf('\r\n', at);
    return end < 0 ? undefined : { text: buffer.subarray(at, end).toString(), next: end + 2 };
  };
  const head = line(0);
  if (!head) return undefined;
  const count = Number(head.text.slice(1));
  let at = head.next;
  const command: string[] = [];
  for (let i = 0; i < count; i++) {
    const size = line(at);
    if (!size) return undefined;
    const length = Number(size.text.slice(1));
    if (buffer.length < size.next + length + 2) return undefined;
    command.push(buffer.subarray(size.next, size.next + length).toString());
    at = size.next + length + 2;
  }
  return { command, used: at };
}

const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;

const servers: Record<string, Server> = {};
const children = cliChildren();

beforeAll(async () => {
  servers.ok = await fakeRedis(() => '+OK\r\n');
  servers.old = await fakeRedis(([name]) => {
    const command = name!.toUpperCase();
    if (command === 'TIME') return `*2\r\n${bulk('1700000000')}${bulk('123456')}`;
    if (command === 'INFO') return bulk('# Server\r\nredis_version:4.0.9\r\nredis_mode:standalone\r\nloading:0\r\n');
    return '+OK\r\n';
  });
});

afterAll(() => {
  children.killAll();
  for (const s of Object.values(servers)) s.close();
});

const urlOf = (server: Server) => `redis://127.0.0.1:${(server.address() as { port: number }).port}`;

describe('a server that is not a Redis the queue can use', () => {
  const cases: [string, string][] = [
    ['ok', 'answers, but not as Redis does (its TIME and INFO are not Redis\'s); give the address of a Redis server (5.0 or later)'],
    ['old', 'is version 4.0.9; the queue (BullMQ) needs Redis 5.0.0 or later'],
  ];
  for (const [kind, why] of cases) {
    for (const command of [['simulate', '--kind', 'attack', '--trials', '1000'], ['worker']]) {
      it(`${kind === 'ok' ? 'answering +OK to everything' : 'a Redis 4'}: \`${command[0]}\` is refused in one line, exit 2`, async () => {
        const server = servers[kind]!;
        const args = [...command, '--queue', urlOf(server)];
        let run: { code: number | null; stdout: string; stderr: string };
        if (kind === 'ok' && command[0] === 'worker') {
          const child = children.start(args);
          run = { code: await exited(child.child), stdout: child.out(), stderr: child.err() };
        } else {
          run = await cliInProcess(...args);
        }
        expect(run.code).toBe(2);
        const address = urlOf(server).replace('redis://', '');
        const shown = kind === 'ok' ? `the server at ${address} ${why}` : `the Redis at ${address} ${why}`;
        expect(run.stderr).toBe(`injury-lab: --queue: ${shown}\n`);
        expect(run.stdout).toBe('');
      });
    }
  }
});
