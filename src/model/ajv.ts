import type { Ajv } from 'ajv';

type AjvClass = typeof import('ajv').Ajv;

let shared: Ajv | undefined;
let given: AjvClass | undefined;

/**
 * Gives the ajv class to use, for a bundle that has no Node require (src/web/engine.ts imports ajv and
 * hands it here). The CLI never calls this: it loads ajv on first use (schemaValidator).
 */
export function useAjv(ajv: AjvClass): void {
  given = ajv;
}

/**
 * The one ajv instance, loaded on first use rather than at start: ajv is about a hundred CommonJS files,
 * and a run that ends before validating anything (help, a misspelt flag, an unreadable file) should not
 * pay for them (a static import costs each start 25-40 ms, measured on `--help`). The test suite starts
 * the CLI a few hundred times. Node's require is reached through process.getBuiltinModule, not an
 * import of node:module, so the same module bundles for a browser (where useAjv gives the class).
 */
export function schemaValidator(): Ajv {
  if (!shared) {
    const AjvClass = given ?? (process.getBuiltinModule('node:module').createRequire(import.meta.url)('ajv') as typeof import('ajv')).Ajv;
    // A referenced schema is compiled once and called (inlineRefs false), never copied into every place
    // that refers to it: a variant's keywords all refer to one effects schema (rule-variant.ts).
    shared = new AjvClass({ allErrors: false, strict: false, inlineRefs: false });
  }
  return shared;
}
