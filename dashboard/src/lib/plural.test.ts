import { describe, expect, it } from 'vitest';
import { countOf } from './plural.js';

describe('countOf', () => {
  it.each([
    [0, 'retry', 'retries', '0 retries'],
    [1, 'retry', 'retries', '1 retry'],
    [2, 'retry', 'retries', '2 retries'],
    [1, 'key', undefined, '1 key'],
    [3, 'key', undefined, '3 keys'],
  ])('says %i %s as %j', (count, singular, plural, expected) => {
    expect(countOf(count, singular, plural)).toBe(expected);
  });
});
