import { describe, expect, it } from 'vitest';
import * as lib from '../src/index.js';

describe('library surface', () => {
  it('evaluates a scenario exactly from plain fields', () => {
    const r = lib.evaluateExact({ kind: 'injury' });
    expect(r.outcomes.find((o) => o.outcome === 'out-of-action')!.exact).toBe('5/18');
  });
  it('rejects bad fields with a UsageError', () => {
    expect(() => lib.evaluateExact({ armour: 'plate' })).toThrow(lib.UsageError);
  });
});
