/** How rss-at-exit.ts begins its line, and bench.ts finds it. */
export const RSS_LINE = 'injury-lab-bench peak RSS MB:';
