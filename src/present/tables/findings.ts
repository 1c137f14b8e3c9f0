import type { Cell, CellOutcome, SweepResult } from '../../analysis/cells.js';
import type { Dimension } from '../../analysis/dimension-core.js';
import { outcomeLabel } from '../../labels.js';
import { DEFAULT_DIGITS, digitsFor, honestPercent, percentDigits, percentPlusMinus } from '../../text.js';

/**
 * One sentence per analysis that says its main finding in words, made from the numbers alone, for the
 * report page and results.json: a reader who skips the tables still gets the point, and nothing is
 * said that the numbers do not carry. It reads one outcome: a duel's first (side a wins), otherwise
 * the most severe that happens somewhere in the grid. A grid of one numeric dimension reads as a
 * change from its first value to its last; any other grid names its highest and lowest cells.
 * Exact values are used where a cell has them, estimates (with their 95% intervals) otherwise.
 */

/** A cell's value for the outcome: exact where there is one, else the estimate with its interval. */
interface Reading {
  readonly cell: Cell;
  readonly value: number;
  readonly exact?: string;
  readonly ciLow?: number;
  readonly ciHigh?: number;
  readonly trials?: number;
}

function reading(cell: Cell, o: CellOutcome | undefined): Reading | undefined {
  if (o?.probability !== undefined && o.exact !== undefined) return { cell, value: o.probability, exact: o.exact };
  if (o?.estimate !== undefined) return { cell, value: o.estimate, ciLow: o.ciLow!, ciHigh: o.ciHigh!, trials: cell.sim!.trials };
  return undefined;
}

const readings = (sweep: SweepResult, outcome: string): Reading[] =>
  sweep.cells.flatMap((c) => reading(c, c.outcomes.find((o) => o.outcome === outcome)) ?? []);

/** Its most severe outcome that some cell can reach (a grid where it never happens says little of it). */
function subjectOutcome(sweep: SweepResult): string | undefined {
  if (sweep.cells.some((c) => c.layout.unranked)) return sweep.outcomes[0];
  return [...sweep.outcomes].reverse().find((id) => readings(sweep, id).some((r) => r.value > 0)) ?? sweep.outcomes[sweep.outcomes.length - 1];
}

/**
 * The values as the sentence prints them: exact ones with the decimals that tell them apart and give
 * the smallest above 0 two significant figures (so a ratio said of them can be checked against them),
 * estimates with their intervals. An exact 0 reads "never".
 */
function shown(rs: readonly Reading[]): string[] {
  const exacts = rs.flatMap((r) => (r.exact !== undefined ? [{ probability: r.value, exact: r.exact }] : []));
  const smallest = Math.min(...exacts.filter((e) => e.probability > 0).map((e) => e.probability));
  const twoFigures = Number.isFinite(smallest) ? Math.ceil(-Math.log10(smallest * 100)) + 1 : 0;
  const digits = Math.min(DEFAULT_DIGITS.most, Math.max(digitsFor(exacts), twoFigures));
  return rs.map((r) => {
    if (r.exact === '0') return 'never';
    return r.exact !== undefined ? honestPercent({ probability: r.value, exact: r.exact }, digits) : percentPlusMinus(r.value, r.ciLow!, r.ciHigh!, percentDigits(r.trials!));
  });
}

/** A number of dimensions' values as a place in words: "Machine Armour, injury dice +1", "a: Shield Bearer, b: Heavy". */
function cellName(dims: readonly Dimension[], cell: Cell): string {
  return dims
    .map((d, i) => {
      const label = cell.labels[i]!;
      if (d.side !== undefined) return `${d.side}: ${label}`;
      // A number or a sign ("+1", "-") says nothing without what it counts: "injury dice +1".
      return d.numeric || !/\p{L}/u.test(label) ? `${lowerFirst(d.title)} ${label}` : label;
    })
    .join(', ');
}

// "Injury dice" -> "injury dice" in the middle of a sentence; an acronym ("AP") stays.
const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

const FRACTION_WORDS = ['', '', 'half', 'a third', 'a quarter', 'a fifth', 'a sixth', 'a seventh', 'an eighth', 'a ninth', 'a tenth'];

/** Within this share of a whole number, a ratio under 10 is worded as that number ("about a fifth"). */
const NEAR_WHOLE = 0.05;

/**
 * How often `to` happens next to `from`, in plain words: "exactly a tenth as often", "about twice as
 * often", "about 1.6 times as often", "about 83% as often", "about 1/170 as often". A ratio is worded
 * as a whole number only within NEAR_WHOLE of it, one of 10 or more is given to two significant
 * figures (as close), and "exactly" is said only when both values are exact and the ratio is that
 * number. Neither value may be 0.
 */
export function asOften(from: number, to: number, bothExact: boolean): string {
  const ratio = to / from;
  const up = ratio >= 1;
  const times = up ? ratio : 1 / ratio;
  const equals = (n: number) => Math.abs(times - n) <= 1e-9 * times;
  if (equals(1)) return `${bothExact ? 'exactly' : 'about'} as often`;
  const whole = Math.round(times);
  const rounded = times >= 10 ? Number(times.toPrecision(2)) : whole >= 2 && Math.abs(times / whole - 1) <= NEAR_WHOLE ? whole : undefined;
  if (rounded !== undefined) {
    const hedge = bothExact && equals(rounded) ? 'exactly' : 'about';
    if (up) return `${hedge} ${rounded === 2 ? 'twice' : `${rounded} times`} as often`;
    return `${hedge} ${rounded <= 10 ? FRACTION_WORDS[rounded] : `1/${rounded}`} as often`;
  }
  return up ? `about ${Number(times.toPrecision(2))} times as often` : `about ${Number((ratio * 100).toPrecision(2))}% as often`;
}

/**
 * How the second reading compares with the first: a ratio where both are above 0 and, for estimates,
 * their intervals do not overlap (otherwise the simulation cannot tell them apart, and says so).
 */
function comparison(from: Reading, to: Reading): string {
  const simulated = from.exact === undefined || to.exact === undefined;
  if (simulated && intervalsOverlap(from, to)) return 'the simulation cannot tell them apart';
  if (from.value === 0 || to.value === 0) return '';
  return asOften(from.value, to.value, !simulated);
}

const bounds = (r: Reading) => (r.exact !== undefined ? [r.value, r.value] : [r.ciLow!, r.ciHigh!]);

function intervalsOverlap(a: Reading, b: Reading): boolean {
  const [al, ah] = bounds(a);
  const [bl, bh] = bounds(b);
  return al! <= bh! && bl! <= ah!;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The finding of a sweep, or undefined when no cell has a value for the outcome it would read. */
export function findingOf(sweep: SweepResult): string | undefined {
  const outcome = subjectOutcome(sweep);
  if (outcome === undefined) return undefined;
  const rs = readings(sweep, outcome);
  if (rs.length === 0) return undefined;
  const duel = sweep.cells.some((c) => c.layout.unranked);
  const what = duel && outcome === 'a-wins' ? 'Side a wins' : capitalised(outcomeLabel(outcome));
  if (rs.length === 1) return `${what}: ${shown(rs)[0]}.`;
  // Nothing to compare: every cell reads the same.
  if (rs.every((r) => r.value === rs[0]!.value)) return `${what}: ${shown([rs[0]!])[0]} in every cell.`;
  return lineFinding(sweep, what, rs) ?? extremesFinding(sweep, what, rs, duel);
}

/**
 * A grid of one numeric dimension, every value computed: the change from its first value to its
 * last, and whether it moves one way all along ("rises steadily") or not.
 */
function lineFinding(sweep: SweepResult, what: string, rs: readonly Reading[]): string | undefined {
  const [d] = sweep.dimensions;
  if (sweep.dimensions.length !== 1 || !d!.numeric || rs.length !== d!.values.length) return undefined;
  const first = rs[0]!;
  const last = rs[rs.length - 1]!;
  const steps = rs.slice(1).map((r, i) => Math.sign(r.value - rs[i]!.value));
  const direction = last.value > first.value ? 1 : last.value < first.value ? -1 : 0;
  if (direction === 0) return undefined;
  const steady = steps.every((s) => s === direction || s === 0);
  const verb = `${direction > 0 ? 'rises' : 'falls'}${steady ? ' steadily' : ', not steadily,'}`;
  const [a, b] = shown([first, last]);
  const compared = comparison(first, last);
  const name = (r: Reading) => cellName(sweep.dimensions, r.cell);
  return `${what} ${verb} from ${a} at ${name(first)} to ${b} at ${name(last)}${compared ? `: ${compared}` : ''}.`;
}

/** Any other grid: the cell with the highest value and the one with the lowest, and how they compare. */
function extremesFinding(sweep: SweepResult, what: string, rs: readonly Reading[], duel: boolean): string {
  const highest = rs.reduce((best, r) => (r.value > best.value ? r : best));
  const lowest = rs.reduce((best, r) => (r.value < best.value ? r : best));
  const tiedWith = (r: Reading) => rs.filter((x) => x !== r && x.value === r.value).length;
  const name = (r: Reading) => {
    const ties = tiedWith(r);
    return `${cellName(sweep.dimensions, r.cell)}${ties ? ` (and ${ties} other cell${ties > 1 ? 's' : ''})` : ''}`;
  };
  const [a, b] = shown([highest, lowest]);
  const [most, least] = duel ? ['most often', 'least often'] : ['is most likely', 'least likely'];
  const compared = comparison(highest, lowest);
  return `${what} ${most} with ${name(highest)} (${a}) and ${least} with ${name(lowest)} (${b})${compared ? `: ${compared}` : ''}.`;
}
