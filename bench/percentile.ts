/** The value at fraction `p` (0.5, 0.99) of an ascending list; NaN for an empty one. */
export function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : Number.NaN;
}
