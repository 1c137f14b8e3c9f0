/**
 * How outcomes and fields are shown to a person: labels, colours, verdict phrases. Everything here is
 * keyed by outcome id, not by rule system, so a chart of any system gets the same colour for the same
 * outcome, and a new system's outcomes fall back to readable defaults until they are added here.
 */

/**
 * One fixed colour per outcome id, shared by every chart (bars, lines, legends, heat-map ramps). The
 * colours run from cool (harmless) to dark red (removed from play), so severity reads the same way in
 * every chart; the worst outcome of each system is the same dark red. Ids of different systems that
 * mean the same thing share a colour. Checked for contrast against white and against each neighbour.
 */
export const OUTCOME_COLOURS: Readonly<Record<string, string>> = {
  // Attack did not connect, or a check failed: neutral grey.
  miss: '#a3a3a3',
  fail: '#a3a3a3',
  success: '#4c78a8',
  unharmed: '#9ecae1',
  'no-effect': '#9ecae1',
  wounded: '#74a9cf',
  staggered: '#fee08b',
  'minor-hit': '#f6c141',
  dazed: '#f6c141',
  down: '#e8702a',
  stunned: '#e8702a',
  'out-of-action': '#99141f',
  incapacitated: '#99141f',
  // A duel's outcomes are not a scale of harm: one side's win, the other's, neither (grey, as a miss).
  'a-wins': '#1f4e79',
  'b-wins': '#7b3294',
  undecided: '#a3a3a3',
};

/** Colours for outcome ids not in the table, handed out by a stable hash of the id. */
const SPARE_COLOURS = ['#7b4ea3', '#2a9d8f', '#8c6d31', '#d6616b', '#637939', '#3182bd'];

export function outcomeColour(id: string): string {
  const known = OUTCOME_COLOURS[id];
  if (known) return known;
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) | 0;
  return SPARE_COLOURS[Math.abs(h) % SPARE_COLOURS.length]!;
}

/** Light end of a heat-map ramp that ends in an outcome's colour. */
export const RAMP_START = '#fbf7f2';

/** Whether dark text or white text reads better on a background colour (WCAG relative luminance). */
export function textColourOn(background: string): '#111111' | '#ffffff' {
  const hex = background.replace('#', '');
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const lum = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  // Contrast with black (lum + 0.05) / 0.05 against white 1.05 / (lum + 0.05): equal at lum ~ 0.179.
  return lum > 0.179 ? '#111111' : '#ffffff';
}

/** "out-of-action" -> "out of action". */
export function outcomeLabel(id: string): string {
  return id.replace(/-/g, ' ');
}

/** "down" -> "down or worse": the cumulative view designers ask for ("the chance of at least X"). */
export function orWorseLabel(id: string): string {
  return `${outcomeLabel(id)} or worse`;
}

/**
 * What happens to the subject of a scenario, for verdicts such as "b is out of action 16.7 points less
 * often than a". Unknown ids read as 'ends up "id"'.
 */
const OUTCOME_PHRASES: Readonly<Record<string, string>> = {
  miss: 'is missed',
  'no-effect': 'comes off with no effect',
  'minor-hit': 'takes a minor hit',
  down: 'is down',
  'out-of-action': 'is out of action',
  unharmed: 'is unharmed',
  wounded: 'is wounded',
  staggered: 'is staggered',
  dazed: 'is dazed',
  stunned: 'is stunned',
  incapacitated: 'is incapacitated',
  fail: 'fails',
  success: 'succeeds',
};

/** A duel's or battle's outcomes as a clause of their own, for verdicts "with B, a wins 2.1 points more often than with A". */
const DUEL_CLAUSES: Readonly<Record<string, string>> = {
  'a-wins': 'a wins',
  'b-wins': 'b wins',
  undecided: 'the duel is undecided',
  // A battle's (src/rules/trench-crusade/battle/report.ts): equal victory points, or equal models standing.
  draw: 'the battle is a draw',
};

/** "a wins", "the duel is undecided": an outcome of a kind with sides, said as what happens in the duel or battle. */
export function duelClause(id: string): string {
  return DUEL_CLAUSES[id] ?? `the game ends "${outcomeLabel(id)}"`;
}

/** The same outcomes said of the attack that brings them about, for verdicts about weapons. */
const ATTACKER_PHRASES: Readonly<Record<string, string>> = {
  miss: 'misses',
  'no-effect': 'has no effect on the target',
  'minor-hit': 'gives the target a minor hit',
  down: 'takes the target down',
  'out-of-action': 'takes the target out of action',
  unharmed: 'leaves the target unharmed',
  wounded: 'wounds the target',
  staggered: 'staggers the target',
  dazed: 'dazes the target',
  stunned: 'stuns the target',
  incapacitated: 'incapacitates the target',
  fail: 'fails',
  success: 'succeeds',
};

/** "takes the target out of action (or worse)": an outcome said of the attack, for a weapon's verdict. */
export function attackerPhrase(id: string, cumulative = false): string {
  const base = ATTACKER_PHRASES[id] ?? `leaves the target "${outcomeLabel(id)}"`;
  return cumulative ? `${base} or worse` : base;
}

export function outcomePhrase(id: string, cumulative = false): string {
  const base = OUTCOME_PHRASES[id] ?? `ends up "${outcomeLabel(id)}"`;
  return cumulative ? `${base} or worse` : base;
}

/**
 * An axis title for a scenario field: "heightInches" -> "Height (inches)", "injuryDice" -> "Injury dice".
 * A report can always give its own title; this is the fallback.
 */
export function fieldTitle(name: string): string {
  if (name === 'edition') return 'Edition';
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(' ');
  const units = ['inches', 'inch', 'feet', 'turns', 'attacks', 'rounds'];
  let unit = '';
  if (words.length > 1 && units.includes(words[words.length - 1]!)) unit = words.pop()!;
  const text = words.join(' ');
  const title = text.charAt(0).toUpperCase() + text.slice(1);
  return unit ? `${title} (${unit})` : title;
}

/** A difference in percentage points with its sign: 0.167 -> "+16.7". */
export function points(d: number, digits = 1): string {
  const v = (d * 100).toFixed(digits);
  return d > 0 && Number(v) !== 0 ? `+${v}` : Number(v) === 0 ? (0).toFixed(digits) : v;
}
