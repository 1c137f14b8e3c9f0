import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { exactJson as cliExactJson } from '../src/present/exact-json.js';
import { parseVariant } from '../src/input/variant.js';
import { UsageError } from '../src/errors.js';
import { evaluateParsed, exactJson, pageScenario, parseJsonText, type ScenarioFiles, unopenedFiles } from '../src/web/engine.js';

/**
 * The web page bundles the engine (src/web/engine.ts) for the browser: the same modules the CLI runs,
 * none of them reaching Node (node:fs, node:path, ...). Bundled here as the page's build does; and in
 * Node, the engine's parser (another files reader) gives what the CLI's gives.
 */

const ENTRY = 'src/web/engine.ts';
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
/** The engine is about 1 MB unminified today (ajv, fast-xml-parser, the rules); 3 MB says something heavy came in. */
const MAX_BYTES = 3 * 1024 * 1024;

describe('the engine bundles for a browser', () => {
  it('builds with no Node module among its inputs, and stays under 3 MB', async () => {
    const result = await build({ entryPoints: [ENTRY], bundle: true, platform: 'browser', format: 'esm', write: false, metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.filter((i) => i.startsWith('node:') || builtins.has(i))).toEqual([]);
    const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path));
    expect(imports.filter((p) => p.startsWith('node:') || builtins.has(p))).toEqual([]);
    const bytes = result.outputFiles[0]!.contents.length;
    console.log(`src/web/engine.ts bundled: ${(bytes / 1e6).toFixed(2)} MB, ${inputs.length} inputs`);
    expect(bytes).toBeLessThan(MAX_BYTES);
  }, 60_000);
});

describe("the engine's parser gives the CLI's answers", () => {
  const scenarios: Record<string, unknown>[] = [
    {},
    { kind: 'attack', injuryDice: 1 },
    { kind: 'fall', heightInches: 6 },
    { system: 'd20-warband', kind: 'attack' },
    { system: 'd20-warband', kind: 'injury-roll' },
    { system: 'd20-warband', kind: 'fall' },
  ];
  for (const raw of scenarios) {
    it(`${JSON.stringify(raw)}: the same exact fractions and JSON`, () => {
      const cli = evaluateExact(raw);
      const page = evaluateParsed(pageScenario(raw));
      expect(page.outcomes.map((o) => o.exact)).toEqual(cli.outcomes.map((o) => o.exact));
      expect(exactJson(page)).toEqual(cliExactJson(cli));
    });
  }

  it('a variant file the page opened is read through its reader, as the CLI reads it from disk', () => {
    const path = 'examples/variants/out-of-action-on-10.json';
    const opened: ScenarioFiles = {
      ...unopenedFiles,
      variant: (p) => parseVariant(parseJsonText(readFileSync(p, 'utf8'), `variant file "${p}"`).value, `variant file "${p}"`, 'out-of-action-on-10'),
    };
    const raw = { rules: path };
    expect(exactJson(evaluateParsed(pageScenario(raw, opened)))).toEqual(cliExactJson(evaluateExact(raw)));
  });

  it('a file not opened in the page is refused in one line naming the field', () => {
    expect(() => pageScenario({ rules: 'x.json' })).toThrow(UsageError);
    expect(() => pageScenario({ rules: 'x.json' })).toThrow(/^rules: "x\.json" has not been opened in this page/);
    expect(() => pageScenario({ catalogue: ['a.cat', 'b.gst'] })).toThrow(/^catalogue: .*has not been opened in this page/);
  });
});
