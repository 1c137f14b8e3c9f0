import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root, found by walking up from this module to injury-lab's package.json. The same code
 * runs from `src/` (vitest) and from `dist/src/` (the built CLI), so a fixed relative path would not do.
 */
export const projectRoot: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'injury-lab') return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('injury-lab package.json not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
})();

export const toolVersion: string = (
  JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }
).version;
