import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream';
import type { CommandModule } from 'yargs';
import { refusal } from '../../messages.js';
import { projectRoot } from '../../project.js';
import { wholeNumber } from '../../sim/run-limits.js';
import { terminalSafe } from '../../terminal-safe.js';

/**
 * `injury-lab serve`: the web page (dist/web, built by `npm run build`) on 127.0.0.1 only, so nobody
 * else on the network reaches it. A module worker cannot start from a file:// page, hence a server at
 * all; any static server of dist/web does the same.
 */

export const DEFAULT_PORT = 8080;
const WEB_DIR = join(projectRoot, 'dist', 'web');

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The file under `dir` a request path names, or undefined: nothing outside it, no folders, no other
 * types. A symbolic link is followed only to a regular file whose real path is inside the folder too:
 * a link in the served folder must not hand out the rest of the disk.
 */
export function fileFor(dir: string, urlPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split(/[?#]/)[0]!);
  } catch {
    return undefined;
  }
  if (path.includes('\0')) return undefined;
  const file = normalize(join(dir, path === '/' ? 'index.html' : path));
  if (!file.startsWith(dir + sep)) return undefined;
  if (TYPES[extname(file)] === undefined) return undefined;
  try {
    const real = realpathSync(file);
    if (!real.startsWith(realpathSync(dir) + sep)) return undefined;
    return statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends a file: opened first, so a file that cannot be opened is a 404 or 500 with nothing half sent;
 * then streamed with pipeline, which closes the file when the client goes away mid-way (a dropped
 * download once kept its descriptor for ever, and enough of them ran the server out) and ends the
 * response on a read error (EIO) instead of throwing it out of the server.
 */
export function sendFile(req: IncomingMessage, res: ServerResponse, file: string): void {
  const stream = createReadStream(file);
  stream.once('error', (err: NodeJS.ErrnoException) => {
    // Before anything is sent, an error is a status; after, only the connection can say it.
    if (res.headersSent) return;
    const missing = err.code === 'ENOENT' || err.code === 'EISDIR';
    res.writeHead(missing ? 404 : 500, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(missing ? 'not found\n' : 'the file could not be read\n');
  });
  stream.once('open', () => {
    // Reading from the first byte tells a file that cannot be read (EIO) before its headers go.
    stream.once('readable', () => {
      if (res.headersSent || res.destroyed) return;
      // The page never changes under a running server but does between builds: no caching to go stale.
      res.writeHead(200, { 'content-type': TYPES[extname(file)]!, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      if (req.method === 'HEAD') {
        stream.destroy();
        res.end();
        return;
      }
      pipeline(stream, res, () => {});
    });
  });
  // A client gone before the first byte: the file is closed all the same.
  res.once('close', () => stream.destroy());
}

/** A request line past this many characters is a URI too long (414), not headers too large (431). */
const MAX_URI_CHARS = 8192;

export function servePage(dir: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const file = req.method === 'GET' || req.method === 'HEAD' ? fileFor(dir, req.url ?? '/') : undefined;
    if (!file) {
      res.writeHead(req.method === 'GET' || req.method === 'HEAD' ? 404 : 405, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('not found\n');
      return;
    }
    sendFile(req, res, file);
  });
  // A client's broken connection is its own affair, never the server's end. A request too big to read
  // (Node's 16 KB of request line and headers) is answered as a web server answers it, 414 where the
  // path alone is past half of that, 431 otherwise, and the server goes on serving.
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (err.code === 'HPE_HEADER_OVERFLOW' && socket.writable) {
      const raw = err.rawPacket?.toString('latin1') ?? '';
      const lineEnd = raw.indexOf('\r\n');
      const status = (lineEnd < 0 ? raw.length : lineEnd) > MAX_URI_CHARS ? 414 : 431;
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

export const serveCommand: CommandModule = {
  command: 'serve',
  describe: 'Serve the web page (exact answers, simulations and permalinks in the browser) on 127.0.0.1',
  builder: (y) =>
    y
      .option('port', { type: 'string', describe: `Port on 127.0.0.1, 0 for any free one (default ${DEFAULT_PORT})` })
      .example('$0 serve', `the page at http://127.0.0.1:${DEFAULT_PORT}/`)
      .example('$0 serve --port 0', 'on any free port (printed)'),
  handler: async (argv) => {
    const port = argv.port === undefined ? DEFAULT_PORT : wholeNumber(argv.port, '--port', 0, 65535, 'a whole number from 0 to 65535 (0: any free port)');
    if (!existsSync(join(WEB_DIR, 'index.html'))) throw refusal('serve', `the page is not built (${terminalSafe(WEB_DIR)} has no index.html)`, 'run npm run build first');
    let server: Server;
    try {
      server = await servePage(WEB_DIR, port);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw refusal('--port', `${port} is in use on 127.0.0.1`, 'another port, or --port 0 for any free one');
      if (code === 'EACCES') throw refusal('--port', `${port} needs more privileges than this user has`, 'a port from 1024 up, or --port 0');
      throw e;
    }
    const address = server.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    process.stdout.write(`injury-lab page: http://127.0.0.1:${actual}/ (Ctrl-C to stop)\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        server.close(() => resolve());
        // A browser keeps its connections open: they would hold the server past Ctrl-C.
        server.closeAllConnections();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  },
};
