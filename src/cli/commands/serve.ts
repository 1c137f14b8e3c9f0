import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
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

/** The file under `dir` a request path names, or undefined: nothing outside it, no folders, no other types. */
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
    return statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

export function servePage(dir: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const file = req.method === 'GET' || req.method === 'HEAD' ? fileFor(dir, req.url ?? '/') : undefined;
    if (!file) {
      res.writeHead(req.method === 'GET' || req.method === 'HEAD' ? 404 : 405, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('not found\n');
      return;
    }
    // The page never changes under a running server but does between builds: no caching to go stale.
    res.writeHead(200, { 'content-type': TYPES[extname(file)]!, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
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
