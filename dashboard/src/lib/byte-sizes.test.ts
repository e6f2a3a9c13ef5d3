import { describe, expect, it } from 'vitest';
import { formatLimitBytes, formatUsedBytes } from './byte-sizes.js';

describe('formatLimitBytes', () => {
  it.each([
    [65_536, '64 KiB'],
    [16_384, '16 KiB'],
    [1024 ** 3, '1 GiB'],
    [5 * 1024 ** 3, '5 GiB'],
    [1536 * 1024 ** 2, '1,536 MiB'],
    [1000, '1,000 bytes'],
  ])('says %d as %j', (value, expected) => {
    expect(formatLimitBytes(value)).toBe(expected);
  });
});

describe('formatUsedBytes', () => {
  it.each([
    [0, '0 bytes'],
    [1023, '1,023 bytes'],
    [1536, '1.5 KiB'],
    [734_003_200, '700 MiB'],
    [1024 ** 3 - 1, '1,024 MiB'],
  ])('says %d as %j', (value, expected) => {
    expect(formatUsedBytes(value)).toBe(expected);
  });
});
