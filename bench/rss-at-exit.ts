/**
 * Loaded with `node --import` before the CLI by the benchmark's memory figure (bench.ts, peakMemory): at
 * exit, the process's peak resident memory (worker threads included) as one line on stderr, so the figure
 * is the CLI's own as a user runs it, with nothing of the benchmark's imports in it.
 */
import { RSS_LINE } from './rss-line.js';

process.on('exit', () => {
  process.stderr.write(`${RSS_LINE} ${process.resourceUsage().maxRSS / 1024}\n`);
});
