import { describe, expect, it } from 'vitest';
import {
  LAST_BUCKET,
  LATENESS_RELATIVE_ERROR,
  bucketBounds,
  bucketValue,
  latenessBucket,
  latenessQuantile,
  mergeHistograms,
} from './lateness.rules.js';

describe('latenessBucket', () => {
  it.each([
    [-40, 0],
    [0, 0],
    [0.999, 0],
    [1, 1],
    [1.189, 1],
    [1.19, 2],
    [2, 5],
    [3.9, 8],
    [4, 9],
    [1000, 40],
    [2 ** 24 - 1, LAST_BUCKET - 1],
    [2 ** 24, LAST_BUCKET],
    [1e12, LAST_BUCKET],
    [Number.NaN, 0],
  ])('puts %d ms in bucket %d', (ms, bucket) => {
    expect(latenessBucket(ms)).toBe(bucket);
  });

  it('puts every lateness inside its bucket’s bounds', () => {
    for (let ms = 1; ms < 2 ** 25; ms *= 1.0137) {
      const { low, high } = bucketBounds(latenessBucket(ms));
      expect(ms).toBeGreaterThanOrEqual(low);
      expect(ms).toBeLessThan(high);
    }
  });
});

describe('bucketValue', () => {
  it('is within the stated relative error of every lateness of its bucket', () => {
    for (let bucket = 1; bucket < LAST_BUCKET; bucket += 1) {
      const { low, high } = bucketBounds(bucket);
      const value = bucketValue(bucket);
      expect(value / low - 1).toBeLessThanOrEqual(LATENESS_RELATIVE_ERROR + 1e-12);
      expect(1 - value / high).toBeLessThanOrEqual(LATENESS_RELATIVE_ERROR + 1e-12);
    }
    expect(LATENESS_RELATIVE_ERROR).toBeCloseTo(0.0905, 4);
  });
});

/** The histogram of some latenesses, as the rollup keeps it. */
const histogramOf = (values: number[]) =>
  mergeHistograms(values.map((ms) => new Map([[latenessBucket(ms), 1]])));

const nearestRank = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.max(1, Math.ceil(q * values.length)) - 1] ?? 0;

describe('latenessQuantile', () => {
  it('is null for no call', () => {
    expect(latenessQuantile(new Map(), 0.5)).toBeNull();
  });

  it('reads 0 when the calls started within a millisecond', () => {
    expect(latenessQuantile(histogramOf([0.2, 0.4, -3]), 0.99)).toBe(0);
  });

  it('is within the stated error of the true percentile, for p50 and p99', () => {
    // A deterministic spread from 1 ms to ~30 s: a linear congruential sequence.
    let seed = 7;
    const values = Array.from({ length: 5000 }, () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return 1 + (seed / 2 ** 31) ** 3 * 30_000;
    });
    const histogram = histogramOf(values);
    for (const q of [0.5, 0.99]) {
      const truth = nearestRank(values, q);
      const reported = latenessQuantile(histogram, q) ?? Number.NaN;
      // Rounded to 0.1 ms on top of the bucket's error.
      expect(Math.abs(reported - truth)).toBeLessThanOrEqual(truth * LATENESS_RELATIVE_ERROR + 0.05);
    }
  });

  it('takes the nearest rank: one slow call in a hundred is p99, not p50', () => {
    const values = [...Array.from({ length: 99 }, () => 2), 5000];
    const histogram = histogramOf(values);
    expect(latenessQuantile(histogram, 0.5)).toBe(Math.round(bucketValue(latenessBucket(2)) * 10) / 10);
    expect(latenessQuantile(histogram, 0.99)).toBe(Math.round(bucketValue(latenessBucket(2)) * 10) / 10);
    expect(latenessQuantile(histogram, 1)).toBe(Math.round(bucketValue(latenessBucket(5000)) * 10) / 10);
  });
});
