import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 51 item 14: the README is a front page (the quick start, one example per command, where the rest
 * is), under 250 lines, its reference in docs/; every relative link of the README and docs/ leads to a
 * file that exists, and a fresh `npm ci` is quiet about install scripts (package.json's allowScripts).
 */

const root = resolve(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The anchors a Markdown page's headings make, as GitHub makes them: lower case, punctuation dropped, spaces as "-". */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  for (const m of text.matchAll(/^#+\s+(.*)$/gm)) anchors.add(m[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-'));
  return anchors;
}

describe('the front door', () => {
  it('the README is under 250 lines, starts with the quick start and says how to run the examples', () => {
    expect(readme.split('\n').length).toBeLessThan(250);
    expect(readme).toContain('npm ci && npm start\nnpm test');
    expect(readme).toMatch(/npx injury-lab/);
    expect(readme).toMatch(/npm link/);
  });

  it.each(pages)('every relative link of %s leads to a file (and heading) that exists', (page) => {
    const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    for (const link of links) {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? join(root, page) : resolve(dirname(join(root, page)), file);
      expect(existsSync(target), `${page}: ${link}`).toBe(true);
      if (anchor && target.endsWith('.md')) expect(anchorsOf(readFileSync(target, 'utf8')).has(anchor), `${page}: ${link}`).toBe(true);
    }
  });

  it("package.json settles every install script npm ci would warn about", () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const scripted = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript).map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(scripted.length).toBeGreaterThan(0);
    for (const name of scripted) expect(typeof pkg.allowScripts?.[name], name).toBe('boolean');
  });
});
