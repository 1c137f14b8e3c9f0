/**
 * Where the names beside a scatter's points go, decided here rather than by vega: vega-lite has no
 * collision avoidance for text marks, so near-equal points (five models of one body at 31-155 ducats, the
 * Homunculus entries at 45-75) had their names drawn on top of each other. The placement is computed in
 * pixels of the plot, is deterministic (the same points, the same places) and can be checked without
 * drawing: no two label boxes meet, every box lies inside the plot, and a label that has room beside its
 * point stays there. A label moved away from its point is joined to it by a leader line.
 */

/** A rectangle in the plot's pixels, y downwards as vega draws it. */
export interface Box {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/** A point to be named: its pixel position and the label's size. */
export interface LabelRequest {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** The side the label goes to first: above the point (else below), and rightwards (else leftwards). */
  readonly above: boolean;
  readonly rightwards: boolean;
}

export interface Placement {
  readonly box: Box;
  /** From the point to the nearest point of the box, drawn when the label is not beside its point; else undefined. */
  readonly leader?: { readonly x: number; readonly y: number; readonly x2: number; readonly y2: number };
}

/**
 * The room a point's mark takes: vega draws a circle of size s (90 on the price panel) with radius √s / 2 =
 * 4.74 px, and its 1 px white stroke reaches half a pixel further: 6 keeps a name a pixel clear of it. A
 * label starts GAP from the centre.
 */
export const MARK_RADIUS = 6;
const GAP = 7;
/** Labels are kept this far apart, so two names never touch even where the estimate is exact. */
const MARGIN = 2;
/** The grid, in pixels, a moved label's box is tried on. */
const STEP = 4;
/** What covering another point's mark costs, in pixels of distance from the point: a hidden point is worse than a long leader. */
const COVER_COST = 80;
/** What a leader line crossing a label costs: it reads as pointing at the wrong name. */
const CROSS_COST = 400;

const meets = (a: Box, b: Box, margin: number) =>
  a.left < b.left + b.width + margin && b.left < a.left + a.width + margin && a.top < b.top + b.height + margin && b.top < a.top + a.height + margin;

/** Distance from (x, y) to the nearest point of the box, and that point. */
function nearest(b: Box, x: number, y: number): { d: number; x: number; y: number } {
  const nx = Math.min(Math.max(x, b.left), b.left + b.width);
  const ny = Math.min(Math.max(y, b.top), b.top + b.height);
  return { d: Math.hypot(nx - x, ny - y), x: nx, y: ny };
}

/** Whether a circle of radius r about (x, y) reaches into the box. */
const covers = (b: Box, x: number, y: number, r: number) => nearest(b, x, y).d < r;

/** Whether the segment from (x1, y1) to (x2, y2) passes through the box (Liang-Barsky clipping). */
function crosses(b: Box, x1: number, y1: number, x2: number, y2: number): boolean {
  const dx = x2 - x1;
  const dy = y2 - y1;
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [
    [-dx, x1 - b.left],
    [dx, b.left + b.width - x1],
    [-dy, y1 - b.top],
    [dy, b.top + b.height - y1],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const t = q / p;
      if (p < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
      if (t0 > t1) return false;
    }
  }
  return t1 - t0 > 1e-9;
}

/** The four places beside a point, the preferred one first: the corner away from the diagonal and towards the plot's middle. */
function besides(r: LabelRequest): Box[] {
  const right = r.x + GAP;
  const left = r.x - GAP - r.width;
  // Beside the point, a little above or below it, as a name set at (dx 7, dy -11) would sit.
  const up = r.y - GAP - r.height / 2 - 4;
  const down = r.y + GAP - r.height / 2 + 4;
  const xs = r.rightwards ? [right, left] : [left, right];
  const ys = r.above ? [up, down] : [down, up];
  return [
    [xs[0]!, ys[0]!],
    [xs[1]!, ys[0]!],
    [xs[0]!, ys[1]!],
    [xs[1]!, ys[1]!],
  ].map(([l, t]) => ({ left: l!, top: t!, width: r.width, height: r.height }));
}

/**
 * Labels placed in the order given (the most important first, so it gets the best place), each at the
 * free place nearest its point: one of the four beside it where one is free, else anywhere on a STEP grid
 * over the plot, with a leader line. A place is free when its box lies inside the plot (side × side
 * pixels, (0, 0) top left), meets no label placed before it (MARGIN apart) and not its own point's mark;
 * among free places, covering another point's mark or crossing a leader with a label costs extra. A label
 * with no free place anywhere is `undefined`: the caller says so, never draws it over another.
 *
 * `marks` are every point drawn (labelled or not), centres in pixels.
 */
export function placeLabels(requests: readonly LabelRequest[], marks: readonly { x: number; y: number }[], width: number, height: number): (Placement | undefined)[] {
  const placed: Box[] = [];
  const leaders: { x: number; y: number; x2: number; y2: number }[] = [];
  const inside = (b: Box) => b.left >= 0 && b.top >= 0 && b.left + b.width <= width && b.top + b.height <= height;
  return requests.map((r) => {
    const free = (b: Box) => inside(b) && !covers(b, r.x, r.y, MARK_RADIUS) && placed.every((p) => !meets(b, p, MARGIN));
    const cost = (b: Box, leader: boolean) => {
      const near = nearest(b, r.x, r.y);
      let c = near.d;
      for (const m of marks) if ((m.x !== r.x || m.y !== r.y) && covers(b, m.x, m.y, MARK_RADIUS)) c += COVER_COST;
      for (const l of leaders) if (crosses(b, l.x, l.y, l.x2, l.y2)) c += CROSS_COST;
      if (leader) for (const p of placed) if (crosses(p, r.x, r.y, near.x, near.y)) c += CROSS_COST;
      return c;
    };
    let best: Box | undefined;
    let bestCost = Infinity;
    // Beside the point, where a place there is free and hides no other point: no leader needed.
    for (const b of besides(r)) {
      if (!free(b)) continue;
      const c = cost(b, false);
      if (c < COVER_COST) {
        best = b;
        bestCost = c;
        break;
      }
    }
    if (best === undefined) {
      for (let top = 0; top + r.height <= height; top += STEP) {
        for (let left = 0; left + r.width <= width; left += STEP) {
          const b = { left, top, width: r.width, height: r.height };
          if (!free(b)) continue;
          const c = cost(b, true);
          if (c < bestCost) {
            best = b;
            bestCost = c;
          }
        }
      }
    }
    if (best === undefined) return undefined;
    placed.push(best);
    const near = nearest(best, r.x, r.y);
    // Beside the point (within GAP and the few pixels a beside place sits up or down) the name needs no line to its point.
    if (near.d <= GAP + 6) return { box: best };
    const leader = { x: r.x, y: r.y, x2: near.x, y2: near.y };
    leaders.push(leader);
    return { box: best, leader };
  });
}

export const boxesMeet = (a: Box, b: Box) => meets(a, b, 0);
