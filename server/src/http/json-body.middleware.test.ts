import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-body.middleware.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('nestsDeeperThan', () => {
  it.each<[string, unknown, number, boolean]>([
    ['a scalar', 'x', 0, false],
    ['null', null, 0, false],
    ['an empty object at limit 1', {}, 1, false],
    ['an empty object at limit 0', {}, 0, true],
    ['3 levels at limit 3', nested(3), 3, false],
    ['4 levels at limit 3', nested(4), 3, true],
    ['a wide, shallow object', Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [i, i])), 1, false],
    ['a deep branch beside shallow ones', { a: 1, b: [2], c: nested(10) }, 10, true],
  ])('%s → %s', (_, value, max, expected) => {
    expect(nestsDeeperThan(value, max)).toBe(expected);
  });

  it('handles a million levels without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(1_000_000), 64)).toBe(true);
  });
});
