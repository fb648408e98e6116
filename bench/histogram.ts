/**
 * Latencies counted in fixed buckets instead of kept one by one: 10,000 streams each receiving every event make
 * millions of arrivals, too many to store and sort. A quarter of a millisecond per bucket up to 30 s, then one
 * bucket for everything later.
 */
const WIDTH_MS = 0.25;
const BUCKETS = 120_000;

export class Histogram {
  readonly counts = new Uint32Array(BUCKETS + 1);
  count = 0;
  /** Values below 0 (an arrival before its reference moment), counted as 0. */
  negative = 0;
  max = Number.NaN;

  add(ms: number, times = 1): void {
    if (ms < 0) {
      this.negative += times;
      ms = 0;
    }
    this.counts[Math.min(BUCKETS, Math.floor(ms / WIDTH_MS))]! += times;
    this.count += times;
    if (!(ms <= this.max)) this.max = ms;
  }

  /** The non-empty buckets as `[bucket, count]`: what crosses a process boundary. */
  buckets(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    this.counts.forEach((n, i) => {
      if (n > 0) out.push([i, n]);
    });
    return out;
  }

  /** Adds buckets counted elsewhere (`[bucket, count]`, another process's histogram), each value less `shiftMs`. */
  addBuckets(buckets: Iterable<[number, number]>, shiftMs: number): void {
    for (const [i, n] of buckets) this.add((i + 0.5) * WIDTH_MS - shiftMs, n);
  }

  /** The value at fraction `p` (0.5, 0.99), to the bucket's middle; NaN when empty. */
  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.min(this.count - 1, Math.floor(p * this.count));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i]!;
      if (seen > rank) return i === BUCKETS ? this.max : (i + 0.5) * WIDTH_MS;
    }
    return this.max;
  }
}
