import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileFor, sendFile, servePage } from '../src/cli/commands/serve.js';
import { waitFor } from '../bench/local-redis.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/** `injury-lab serve`: the page's folder and nothing else, on 127.0.0.1 only. */

function fixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'injury-lab-serve-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>page</title>');
  writeFileSync(join(dir, 'page.js'), 'export {};');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'secret.env'), 'TOKEN=1');
  return dir;
}

function get(port: number, path: string, method = 'GET'): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serve', () => {
  it('gives the page and its scripts, and nothing outside the folder, no folders and no other file types', async () => {
    const dir = fixture();
    expect(fileFor(dir, '/')).toBe(join(dir, 'index.html'));
    expect(fileFor(dir, '/page.js?v=1#x')).toBe(join(dir, 'page.js'));
    for (const bad of ['/../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/sub', '/secret.env', '/missing.js', '/%E0%A4%A', '/page.js%00.html']) expect({ bad, file: fileFor(dir, bad) }).toEqual({ bad, file: undefined });

    const server = await servePage(dir, 0);
    const port = (server.address() as { port: number }).port;
    try {
      expect(await get(port, '/')).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', body: '<!doctype html><title>page</title>' });
      expect(await get(port, '/page.js')).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8' });
      expect((await get(port, '/../secret.env')).status).toBe(404);
      expect((await get(port, '/', 'POST')).status).toBe(405);
      expect(server.address()).toMatchObject({ address: '127.0.0.1' });
    } finally {
      server.close();
    }
  });

  it('answers a path too long 414 and headers too large 431, as a web server does, and goes on serving', async () => {
    const { connect } = await import('node:net');
    const raw = (port: number, text: string) =>
      new Promise<string>((resolve, reject) => {
        let said = '';
        const socket = connect(port, '127.0.0.1', () => socket.end(text));
        socket.on('data', (c) => (said += c.toString('latin1')));
        socket.on('close', () => resolve(said.split('\r\n')[0]!));
        socket.on('error', reject);
      });
    const server = await servePage(fixture(), 0);
    const port = (server.address() as { port: number }).port;
    try {
      expect(await raw(port, `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nhost: x\r\n\r\n`)).toBe('HTTP/1.1 414 URI Too Long');
      expect(await raw(port, `GET / HTTP/1.1\r\nhost: x\r\nx-big: ${'b'.repeat(70_000)}\r\n\r\n`)).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      expect((await get(port, '/')).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it('refuses a bad port in one line, and a port in use with what to do', async () => {
    for (const port of ['x', '-1', '65536', '1.5']) {
      const r = await cliInProcess('serve', '--port', port);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`--port: "${port}" is not allowed; allowed: a whole number from 0 to 65535`);
    }
    const busy = await servePage(fixture(), 0);
    try {
      const port = String((busy.address() as { port: number }).port);
      const r = await cliInProcess('serve', '--port', port);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--port: ${port} is in use on 127.0.0.1; another port, or --port 0 for any free one`);
    } finally {
      busy.close();
    }
  });

  it('prints where the page is and stops on Ctrl-C', async () => {
    const child = spawn(process.execPath, ['dist/src/cli/main.js', 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    expect(line).toMatch(/^injury-lab page: http:\/\/127\.0\.0\.1:\d+\/ \(Ctrl-C to stop\)\n$/);
    const port = Number(/:(\d+)\//.exec(line)![1]);
    expect((await get(port, '/')).status).toBe(200);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
  });

  it('never follows a symbolic link out of the folder; one to a file inside it is that file', () => {
    const dir = fixture();
    const outside = mkdtempSync(join(tmpdir(), 'injury-lab-serve-outside-'));
    writeFileSync(join(outside, 'secret.js'), 'TOKEN');
    symlinkSync(join(outside, 'secret.js'), join(dir, 'link.js'));
    symlinkSync(outside, join(dir, 'linked'));
    symlinkSync(join(dir, 'page.js'), join(dir, 'alias.js'));
    expect(fileFor(dir, '/link.js')).toBeUndefined();
    expect(fileFor(dir, '/linked/secret.js')).toBeUndefined();
    expect(fileFor(dir, '/alias.js')).toBe(join(dir, 'page.js'));
  });

  it('closes the file of every download the client drops mid-way', async () => {
    const dir = fixture();
    const big = join(dir, 'big.js');
    writeFileSync(big, 'x'.repeat(8 * 1024 * 1024));
    // This process's open descriptors on the big file (Linux's /proc): what a dropped download used to leave behind.
    const openOnBig = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === big;
        } catch {
          return false;
        }
      }).length;
    const server = await servePage(dir, 0);
    const port = (server.address() as { port: number }).port;
    try {
      const drops = 40;
      await Promise.all(
        Array.from(
          { length: drops },
          () =>
            new Promise<void>((resolve) => {
              const req = request({ host: '127.0.0.1', port, path: '/big.js' }, (res) => {
                res.once('data', () => {
                  req.destroy();
                  resolve();
                });
              });
              req.on('error', () => resolve());
              req.end();
            }),
        ),
      );
      await waitFor(async () => openOnBig() === 0, 'the dropped downloads\' files to close');
      // And the server still serves.
      expect((await get(port, '/')).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it('answers 500 for a file that fails to read (EIO) and goes on serving', async () => {
    // /proc/self/mem fails with EIO at its first byte (address 0 is never mapped): a disk's read error, on demand.
    const server = createServer((req, res) => sendFile(req, res, req.url === '/mem.js' ? '/proc/self/mem' : join(fixture(), 'index.html')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      expect(await get(port, '/mem.js')).toMatchObject({ status: 500, body: 'the file could not be read\n' });
      expect(await get(port, '/')).toMatchObject({ status: 200, body: '<!doctype html><title>page</title>' });
    } finally {
      server.close();
    }
  });
});
