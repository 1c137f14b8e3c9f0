/**
 * What a duel reports: who won, or neither within the rounds; the activations made; and the round each
 * side won in (whose running sums are `decidedWithin`). The exact chain and the simulator both fill it;
 * it is every system's duel report (../../duel-report.ts).
 */
export { A_WINS, A_WON_IN, B_WINS, B_WON_IN, DUEL_OUTCOMES, NOT_WON_BIN, UNDECIDED, activationsMean, duelLayout } from '../../duel-report.js';
