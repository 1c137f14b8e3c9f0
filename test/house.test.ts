import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 23: the house's rules, read from the source's own import lines (type-only imports left out: they
 * vanish from the JavaScript). A change that breaks one fails here, whatever its tests say.
 */

const SRC = 'src';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.c?ts$/.test(e.name))
    .map((e) => normalize(join(e.parentPath, e.name)));
}

/** The value imports of a file: `node:` modules as written, project files as repository paths (.ts). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)) {
    const spec = m[1]!;
    if (spec.startsWith('.')) out.push(normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts').replace(/\.cjs$/, '.cts'));
    else out.push(spec);
  }
  return out;
}

/** Every project file `start` loads, itself included. */
function closure(start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [normalize(start)];
  for (let f = stack.pop(); f !== undefined; f = stack.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    for (const i of importsOf(f)) if (!i.startsWith('node:') && i.endsWith('ts')) stack.push(i);
  }
  return seen;
}

describe('the house', () => {
  it('the engine folders (rules, exact dice, simulation kernels) import nothing of node:, so a browser bundle can take them', () => {
    const engines = ['rules', 'exact', 'sim'].flatMap((d) => sourceFiles(join(SRC, d)));
    expect(engines.length).toBeGreaterThan(30);
    const offending = engines.flatMap((f) => importsOf(f).filter((i) => i.startsWith('node:')).map((i) => `${f}: ${i}`));
    expect(offending).toEqual([]);
  });

  it('a simulation worker loads the kernels and layouts, never the registry, the input readers or the d20 exact engine', () => {
    const loaded = [...closure('workers/simulate.ts')].map((f) => relative('.', f));
    expect(loaded).toContain(normalize('src/rules/simulations.ts'));
    expect(loaded).toContain(normalize('src/rules/d20-warband/simulate.ts'));
    for (const f of loaded) {
      expect(f).not.toMatch(/^src[\\/](input|import|analysis|present|cli|pool)[\\/]/);
      expect(f).not.toBe(normalize('src/labels.ts'));
      expect(f).not.toBe(normalize('src/rules/registry.ts'));
      expect(f).not.toBe(normalize('src/rules/d20-warband/exact.ts'));
    }
  });

  it('an exact worker loads the exact engines and the answer\'s shape, never the input readers (the scenario comes parsed), the registry or a simulator', () => {
    const loaded = [...closure('workers/exact.ts')].map((f) => relative('.', f));
    expect(loaded).toContain(normalize('src/exact-result.ts'));
    expect(loaded).toContain(normalize('src/rules/exact-kinds.ts'));
    expect(loaded).toContain(normalize('src/rules/trench-crusade/sequence/chain.ts'));
    for (const f of loaded) {
      expect(f).not.toMatch(/^src[\\/](input|import|analysis|present|cli|pool|sim)[\\/]/);
      expect(f).not.toBe(normalize('src/labels.ts'));
      expect(f).not.toMatch(/(simulate|simulation|registry|rule-spec|diff-grid)\.ts$/);
    }
  });

  it('the analysis room (src/analysis/) imports nothing of the output room (src/present/) or the CLI, type imports and import() included, nor loads any of it through another room', () => {
    const analysis = sourceFiles(join(SRC, 'analysis'));
    expect(analysis.length).toBeGreaterThanOrEqual(5);
    const above = /^src[\\/](present|cli)[\\/]|^src[\\/]index\.ts$/;
    const direct = analysis.flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      const specs = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms), ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((m) => m[1]!);
      return specs.map((s) => relative('.', normalize(join(dirname(f), s)))).filter((t) => above.test(t)).map((t) => `${f}: ${t}`);
    });
    expect(direct).toEqual([]);
    const loaded = [...new Set(analysis.flatMap((f) => [...closure(f)].map((g) => relative('.', g))))];
    expect(loaded.filter((g) => above.test(g))).toEqual([]);
  });

  it('no circle between rooms (a folder of src/, or a file directly in it), type imports included: so every arrow can point down', () => {
    /** The room of a source file: its folder under src/ (rules/trench-crusade is rules), or the file itself. */
    const room = (f: string) => {
      const parts = relative(SRC, f).split(/[\\/]/);
      return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.c?ts$/, '');
    };
    const arrows = new Map<string, Set<string>>();
    for (const f of sourceFiles(SRC)) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)) {
        const target = normalize(join(dirname(f), m[1]!));
        if (!target.startsWith(normalize(SRC))) continue;
        const [a, b] = [room(f), room(target.replace(/\.js$/, '.ts'))];
        if (a !== b) arrows.set(a, (arrows.get(a) ?? new Set()).add(b));
      }
    }
    expect(arrows.size).toBeGreaterThan(10);
    // Depth-first search for a way back to a room on the current path.
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (r: string, path: string[]) => {
      state.set(r, 'open');
      for (const next of arrows.get(r) ?? []) {
        if (state.get(next) === 'open') circles.push([...path, r, next].slice(path.indexOf(next) >= 0 ? path.indexOf(next) : path.length).join(' -> '));
        else if (!state.has(next)) visit(next, [...path, r]);
      }
      state.set(r, 'done');
    };
    for (const r of arrows.keys()) if (!state.has(r)) visit(r, []);
    expect(circles).toEqual([]);
  });
});

