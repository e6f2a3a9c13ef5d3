/**
 * Lateness (a call's start minus its `scheduled_at`) kept as counts per fixed log-scale bucket, so
 * that the percentiles of any window are read from summed counts instead of from the calls.
 *
 * Bucket 0 holds everything under 1 ms (an early start included); bucket b (1 ≤ b < LAST) holds
 * [2^((b−1)/4), 2^(b/4)) ms, four buckets per doubling; LAST holds everything from 2^24 ms (4.7 h) on.
 * A percentile is reported as its bucket's geometric middle, so it is within
 * {@link LATENESS_RELATIVE_ERROR} of the true value (nearest rank) above 1 ms, and reads 0 below it.
 */

/** Buckets per doubling of the lateness. */
export const BUCKETS_PER_DOUBLING = 4;
/** The open-ended last bucket: lateness of 2^24 ms and more. */
export const LAST_BUCKET = 24 * BUCKETS_PER_DOUBLING + 1;
/** The largest relative error of a reported percentile above 1 ms: 2^(1/8) − 1 ≈ 9.05 %. */
export const LATENESS_RELATIVE_ERROR = 2 ** (1 / (2 * BUCKETS_PER_DOUBLING)) - 1;

/** Where each bucket from 1 on starts, in order: bucket b at `BUCKET_STARTS[b − 1]` ms. */
const BUCKET_STARTS = Array.from({ length: LAST_BUCKET }, (_, i) => 2 ** (i / BUCKETS_PER_DOUBLING));

/** The bucket of a lateness in milliseconds: how many buckets start at or below it. */
export function latenessBucket(ms: number): number {
  let below = 0;
  let above = BUCKET_STARTS.length;
  while (below < above) {
    const middle = (below + above) >> 1;
    if ((BUCKET_STARTS[middle] ?? Infinity) <= ms) below = middle + 1;
    else above = middle;
  }
  return below;
}

/**
 * The same rule in SQL, for an expression of milliseconds (null stays null): `width_bucket` counts
 * the same starts. It replaced `log(2.0, x)` in numeric arithmetic, which cost ~8 µs a call, a
 * tenth of PostgreSQL's time per delivery (bench/README.md, 2026-11-29).
 */
export function latenessBucketSql(ms: string): string {
  return `width_bucket((${ms})::float8, '{${BUCKET_STARTS.join(',')}}'::float8[])`;
}

/** The bounds of a bucket in milliseconds: [low, high), high Infinity for the last. */
export function bucketBounds(bucket: number): { low: number; high: number } {
  if (bucket <= 0) return { low: 0, high: 1 };
  const last = Math.min(bucket, LAST_BUCKET);
  return { low: BUCKET_STARTS[last - 1] ?? Infinity, high: BUCKET_STARTS[last] ?? Infinity };
}

/** What a bucket reports: 0 under 1 ms, the geometric middle, the lower bound of the last. */
export function bucketValue(bucket: number): number {
  if (bucket <= 0) return 0;
  if (bucket >= LAST_BUCKET) return bucketBounds(bucket).low;
  return 2 ** ((2 * bucket - 1) / (2 * BUCKETS_PER_DOUBLING));
}

/** Counts per bucket: bucket number to how many calls fell in it. */
export type LatenessHistogram = ReadonlyMap<number, number>;

/** Sums histograms. */
export function mergeHistograms(histograms: Iterable<LatenessHistogram>): Map<number, number> {
  const merged = new Map<number, number>();
  for (const histogram of histograms) {
    for (const [bucket, n] of histogram) merged.set(bucket, (merged.get(bucket) ?? 0) + n);
  }
  return merged;
}

/**
 * The q-quantile (0 < q ≤ 1, nearest rank: the ⌈q·N⌉-th smallest) of the histogram in
 * milliseconds, rounded to 0.1 ms; null when it holds no call.
 */
export function latenessQuantile(histogram: LatenessHistogram, q: number): number | null {
  const total = [...histogram.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket) ?? 0;
    if (seen >= rank) return Math.round(bucketValue(bucket) * 10) / 10;
  }
  return null;
}
