import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether a package.json is injury-lab's. */
function isOurs(packageJson: string): boolean {
  return existsSync(packageJson) && (JSON.parse(readFileSync(packageJson, 'utf8')) as { name?: string }).name === 'injury-lab';
}

/**
 * The project root, found by walking up from this module to injury-lab's package.json. The same code
 * runs from `src/` (vitest) and from `dist/src/` (the built CLI), so a fixed relative path would not do.
 */
export const projectRoot: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    const up = dirname(dir);
    // dist/package.json is tsc's copy (src/version.ts imports package.json): the root is the folder above it.
    if (isOurs(candidate)) return isOurs(join(up, 'package.json')) ? up : dir;
    if (up === dir) throw new Error('injury-lab package.json not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
})();
