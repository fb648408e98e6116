/**
 * Seeded randomness for the data generator: the same seed writes the same file byte for byte, so two runs of
 * the benchmark (or two machines) measure the same data and their results can be compared.
 */

/** mulberry32: tiny, fast and good enough to draw samples (not for secrets). Returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * murmur3's finalizer: a stateless integer hash, so an attribute of an entity (a repository's owner, whether
 * it is private) is a function of its rank and the seed, and nothing per entity has to be kept in memory.
 */
export function hash32(value: number, seed: number): number {
  let h = (value ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Zipf-distributed ranks in 1..n (P(k) proportional to 1/k^s) by rejection-inversion (Hörmann and Derflinger,
 * 1996; the algorithm of Apache Commons RNG): O(1) time and memory per draw, with no n-sized table, so ten
 * million events with millions of actors still generate in constant memory.
 */
export class Zipf {
  private readonly hIntegralX1: number;
  private readonly hIntegralN: number;
  private readonly threshold: number;

  constructor(
    private readonly n: number,
    private readonly s: number,
  ) {
    if (!(n >= 1) || !(s > 0)) throw new Error(`Zipf needs n >= 1 and s > 0, got n=${n}, s=${s}`);
    this.hIntegralX1 = this.hIntegral(1.5) - 1;
    this.hIntegralN = this.hIntegral(n + 0.5);
    this.threshold = 2 - this.hIntegralInverse(this.hIntegral(2.5) - this.h(2));
  }

  sample(random: () => number): number {
    for (;;) {
      const u = this.hIntegralN + random() * (this.hIntegralX1 - this.hIntegralN);
      const x = this.hIntegralInverse(u);
      const k = Math.min(this.n, Math.max(1, Math.floor(x + 0.5)));
      if (k - x <= this.threshold || u >= this.hIntegral(k + 0.5) - this.h(k)) return k;
    }
  }

  /** `n` distinct ranks, popular ones more likely: whom a user follows, what they watch. */
  distinct(count: number, random: () => number): number[] {
    if (count > this.n) throw new Error(`cannot draw ${count} distinct ranks out of ${this.n}`);
    const seen = new Set<number>();
    while (seen.size < count) seen.add(this.sample(random));
    return [...seen];
  }

  private h(x: number): number {
    return Math.exp(-this.s * Math.log(x));
  }

  /** The integral of h, (x^(1-s) - 1) / (1 - s), written to stay exact at s = 1. */
  private hIntegral(x: number): number {
    const logX = Math.log(x);
    return helper2((1 - this.s) * logX) * logX;
  }

  private hIntegralInverse(x: number): number {
    const t = Math.max(-1, x * (1 - this.s));
    return Math.exp(helper1(t) * x);
  }
}

/** log1p(x) / x, continuous at 0. */
function helper1(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1 / 3 - 0.25 * x));
}

/** expm1(x) / x, continuous at 0. */
function helper2(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x * 0.5 * (1 + (x / 3) * (1 + 0.25 * x));
}
