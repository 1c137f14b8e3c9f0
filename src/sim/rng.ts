/**
 * xoshiro128** (Blackman & Vigna, 2018): four 32-bit words of state, updated in place with shifts,
 * xors and Math.imul only, so a draw allocates nothing and V8 keeps everything in registers. It passes
 * BigCrush, has period 2^128 - 1, and its 32-bit arithmetic is native to JavaScript (a 64-bit generator
 * such as PCG64 or xoshiro256 would need BigInt or split halves, several times slower).
 */
export class Rng {
  /**
   * The four state words live in an Int32Array rather than four fields: V8 keeps 32-bit values that do
   * not fit a small integer (31 bits) in fields as boxed doubles, so every draw would load and store
   * through a box; typed-array elements are raw int32 loads and stores (about 15% more d6 per second).
   */
  private readonly s = new Int32Array(4);

  static readonly generatorName = 'xoshiro128**';

  /** The stream for one chunk of a run: a pure function of (seed, chunk), whoever runs the chunk. */
  static forChunk(seed: number, chunk: number): Rng {
    const r = new Rng();
    r.reseed(seed, chunk);
    return r;
  }

  /**
   * Seeds the four words from (seed, chunk) through SplitMix32-style mixing (Murmur3's fmix32
   * finaliser on a Weyl sequence), so neighbouring seeds and chunk indices give unrelated streams.
   * The seed may be any whole number below 2^53: its high and low 32 bits are both mixed in.
   */
  reseed(seed: number, chunk: number): void {
    const lo = seed >>> 0;
    const hi = Math.floor(seed / 4294967296) >>> 0;
    let h = fmix32(lo ^ 0x9e3779b9);
    h = fmix32(h ^ hi ^ 0x85ebca6b);
    h = fmix32(h ^ (chunk >>> 0) ^ 0xc2b2ae35);
    h = fmix32(h ^ Math.floor(chunk / 4294967296));
    const s = this.s;
    let weyl = h;
    weyl = (weyl + 0x9e3779b9) | 0;
    s[0] = fmix32(weyl);
    weyl = (weyl + 0x9e3779b9) | 0;
    s[1] = fmix32(weyl);
    weyl = (weyl + 0x9e3779b9) | 0;
    s[2] = fmix32(weyl);
    weyl = (weyl + 0x9e3779b9) | 0;
    s[3] = fmix32(weyl);
    if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1; // the one forbidden state
  }

  /** Next 32 random bits as an unsigned integer in [0, 2^32). */
  nextUint32(): number {
    const s = this.s;
    const s0 = s[0]!;
    const s1 = s[1]!;
    const s2 = s[2]!;
    const s3 = s[3]!;
    const r = Math.imul(rotl(Math.imul(s1, 5), 7), 9);
    const t = s1 << 9;
    const n2 = s2 ^ s0;
    const n3 = s3 ^ s1;
    s[1] = s1 ^ n2;
    s[0] = s0 ^ n3;
    s[2] = n2 ^ t;
    s[3] = rotl(n3, 11);
    return r >>> 0;
  }

  /**
   * A fair d6, 1..6. Rejection sampling: draws in the top 4 of the 2^32 values (the remainder of
   * 2^32 / 6) are redrawn, so each face covers exactly floor(2^32 / 6) values and there is no modulo
   * bias. A redraw happens about once in a billion draws.
   */
  d6(): number {
    let x = this.nextUint32();
    while (x >= D6_LIMIT) x = this.nextUint32();
    return ((x / D6_SPAN) | 0) + 1;
  }

  /** A fair d20, 1..20, by the same rejection rule. */
  d20(): number {
    let x = this.nextUint32();
    while (x >= D20_LIMIT) x = this.nextUint32();
    return ((x / D20_SPAN) | 0) + 1;
  }

  /** True with chance threshold / 2^32: one draw below the threshold. */
  below(threshold: number): boolean {
    return this.nextUint32() < threshold;
  }

  /** A fair die with any number of sides (slower path for rare dice sizes). */
  die(sides: number): number {
    const span = Math.floor(4294967296 / sides);
    const limit = span * sides;
    let x = this.nextUint32();
    while (x >= limit) x = this.nextUint32();
    return Math.floor(x / span) + 1;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Murmur3's 32-bit finaliser: a bijection with full avalanche. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

const D6_SPAN = Math.floor(4294967296 / 6);
const D6_LIMIT = D6_SPAN * 6;
const D20_SPAN = Math.floor(4294967296 / 20);
const D20_LIMIT = D20_SPAN * 20;
