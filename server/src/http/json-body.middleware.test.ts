import { describe, expect, it } from 'vitest';
import { jsonBodyProblem } from './json-body.middleware.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('jsonBodyProblem', () => {
  it.each<[string, unknown, number]>([
    ['a scalar', 'x', 0],
    ['null', null, 0],
    ['an empty object at limit 1', {}, 1],
    ['3 levels at limit 3', nested(3), 3],
    ['a wide, shallow object', Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [i, i])), 1],
    ['keys that merely look special', JSON.parse('{"constructor":1,"prototype":{"proto":2}}'), 3],
  ])('accepts %s', (_, value, max) => {
    expect(jsonBodyProblem(value, max)).toBeUndefined();
  });

  it.each<[string, unknown, number, (string | number)[]]>([
    ['an empty object at limit 0', {}, 0, []],
    ['4 levels at limit 3', nested(4), 3, [0]],
    ['a deep branch beside shallow ones', { a: 1, b: [2], c: nested(10) }, 10, ['c']],
  ])('refuses %s as too deep, blaming the top-level field', (_, value, max, path) => {
    expect(jsonBodyProblem(value, max)).toEqual({ path, message: expect.stringMatching(/nest/) });
  });

  it.each<[string, string, (string | number)[]]>([
    ['at the top', '{"__proto__":{}}', ['__proto__']],
    ['in an object', '{"payload":{"a":1,"__proto__":{"x":1}}}', ['payload', '__proto__']],
    ['inside an array', '{"payload":[0,{"__proto__":1}]}', ['payload', 1, '__proto__']],
  ])('refuses a __proto__ key %s, with its path', (_, json, path) => {
    expect(jsonBodyProblem(JSON.parse(json), 64)).toEqual({
      path,
      message: expect.stringContaining('__proto__'),
    });
  });

  it('handles a million levels without overflowing the stack', () => {
    expect(jsonBodyProblem(nested(1_000_000), 64)).toBeDefined();
  });
});
