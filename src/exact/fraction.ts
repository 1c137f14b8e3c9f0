/** Exact rational numbers over BigInt, always kept reduced with a positive denominator. */
export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

export function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

export function lcm(a: bigint, b: bigint): bigint {
  return (a / gcd(a, b)) * b;
}

export function fraction(num: bigint | number, den: bigint | number = 1n): Fraction {
  let n = BigInt(num);
  let d = BigInt(den);
  if (d === 0n) throw new RangeError('fraction with zero denominator');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = gcd(n, d);
  return g > 1n ? { num: n / g, den: d / g } : { num: n, den: d };
}

export const ZERO: Fraction = { num: 0n, den: 1n };
export const ONE: Fraction = { num: 1n, den: 1n };

export const add = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.den + b.num * a.den, a.den * b.den);
export const sub = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.den - b.num * a.den, a.den * b.den);
export const mul = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.num, a.den * b.den);
export const div = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.den, a.den * b.num);
export const compare = (a: Fraction, b: Fraction): number => {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
};

/** "p/q", or "p" when the denominator is 1: the form the JSON output uses. */
export function formatFraction(f: Fraction): string {
  return f.den === 1n ? f.num.toString() : `${f.num}/${f.den}`;
}

/**
 * The double nearest num/den, to an ulp or two. Number(num)/Number(den) loses precision once either side passes 2^53 (and
 * overflows to Infinity past 2^1024), so keep the top 64 bits of each side, divide, and put the dropped
 * powers of two back; the quotient is then within an ulp or two of the true value, tiny values included.
 */
export function toNumber(f: Fraction): number {
  const { num, den } = f;
  const numDrop = Math.max(0, bitLength(num < 0n ? -num : num) - 64);
  const denDrop = Math.max(0, bitLength(den) - 64);
  const ratio = Number(num >> BigInt(numDrop)) / Number(den >> BigInt(denDrop));
  const exponent = numDrop - denDrop;
  // Two steps so that 2^exponent itself never overflows or underflows on the way.
  const half = Math.trunc(exponent / 2);
  return ratio * 2 ** half * 2 ** (exponent - half);
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/**
 * num / den, not reduced, as a double without a gcd: both are shifted down together so that neither
 * passes 1000 bits, then divided, which is within a few ulps. The sequence chain's policy search reads
 * its whole-number values this way. toNumber is the careful conversion, for printed answers. The two
 * can differ in the last bit, and such a bit can decide which of two exactly equal options the search
 * keeps, so they stay two functions and no optimal policy found so far changes.
 */
export function approxRatio(num: bigint, den: bigint): number {
  // Below 1000 bits both are divided as they are: no need to measure them first (the hot case, one roll's weights).
  if (num < THOUSAND_BITS && num > -THOUSAND_BITS && den < THOUSAND_BITS && den > -THOUSAND_BITS) return Number(num) / Number(den);
  const bits = Math.max(hexBitLength(num), hexBitLength(den));
  if (bits > 1000) {
    const shift = BigInt(bits - 1000);
    num >>= shift;
    den >>= shift;
  }
  return Number(num) / Number(den);
}

const THOUSAND_BITS = 1n << 996n;

/** Bit length rounded up to a whole hex digit: enough to decide the shift above, cheaper than base 2. */
function hexBitLength(x: bigint): number {
  if (x < 0n) x = -x;
  return x === 0n ? 0 : x.toString(16).length * 4;
}
