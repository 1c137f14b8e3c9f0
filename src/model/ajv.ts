import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';

const require = createRequire(import.meta.url);
let shared: Ajv | undefined;

/**
 * The one ajv instance, loaded on first use rather than at start: ajv is about a hundred CommonJS files,
 * and a run that ends before validating anything (help, a misspelt flag, an unreadable file) should not
 * pay for them. The test suite starts the CLI a few hundred times.
 */
export function schemaValidator(): Ajv {
  if (!shared) {
    const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
    shared = new AjvClass({ allErrors: false, strict: false });
  }
  return shared;
}
