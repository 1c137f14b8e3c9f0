import type { ReportLayout } from '../../model/types.js';
import { ATTACK_OUTCOMES, INJURY_OUTCOMES } from './tables.js';

/** What a one-roll kind reports (its tally laid out as src/model/tally.ts says): the system's kinds and its simulator read it here. */
export const bloodMarkersMean = {
  id: 'bloodMarkers',
  jsonKey: 'expectedBloodMarkers',
  label: 'blood markers placed',
  favours: 'attacker',
} as const;

export const injuryLayout: ReportLayout = { outcomes: INJURY_OUTCOMES, means: [bloodMarkersMean], histograms: [] };
export const attackLayout: ReportLayout = { outcomes: ATTACK_OUTCOMES, means: [bloodMarkersMean], histograms: [] };
