import { describe, expect, it } from 'vitest';
import { isPageOutOfRange } from './pagination.rules.js';

describe('isPageOutOfRange', () => {
  it.each([
    [0, 100, 0, false],
    [0, 10, 5, false],
    [1, 10, 5, true],
    [1, 10, 10, true],
    [1, 10, 11, false],
    [2, 10, 20, true],
    [3, 1, 4, false],
    [4, 1, 4, true],
  ])('page %i, limit %i, total %i → %s', (page, limit, total, expected) => {
    expect(isPageOutOfRange(page, limit, total)).toBe(expected);
  });
});
