import { scenarioRecord } from '../../input/scenario-core.js';
import type { ExactResult } from '../../exact-result.js';

/*
 * Apart from the exact presenter (src/present/exact.ts, which reaches sweeps and files): the page in a
 * browser prints the same document, bundling only this.
 */

/** The JSON document `exact --format json` prints: flat, with means and extras at the top level. */
export function exactJson(r: ExactResult): Record<string, unknown> {
  return {
    system: r.system,
    edition: r.edition,
    kind: r.kind,
    scenario: scenarioRecord(r.scenario),
    outcomes: r.outcomes,
    ...r.means,
    ...(Object.keys(r.histograms).length ? { histograms: r.histograms } : {}),
    ...r.extra,
    notes: r.notes,
    manifest: r.manifest,
  };
}
