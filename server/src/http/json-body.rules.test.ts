import { describe, expect, it } from 'vitest';
import {
  ChangedNumber,
  jsonBodyProblem,
  markChangedNumbers,
  mayHoldChangedNumbers,
  numberProblem,
  unstorableStringProblem,
} from './json-body.rules.js';

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

describe('unstorableStringProblem', () => {
  it.each([
    ['plain text', 'hello'],
    ['the empty string', ''],
    ['a surrogate pair', '\ud83d\ude00'],
    ['U+FFFD', '\ufffd'],
    ['other control characters', '\u0001\u001f\u007f'],
  ])('accepts %s', (_, value) => {
    expect(unstorableStringProblem(value)).toBeUndefined();
  });

  it.each([
    ['NUL', 'a\u0000b', /NUL/],
    ['a lone high surrogate at the end', 'a\ud800', /surrogate/],
    ['a lone high surrogate before text', '\ud800a', /surrogate/],
    ['a lone low surrogate', '\udc00', /surrogate/],
    ['two high surrogates', '\ud800\ud800\udc00', /surrogate/],
  ])('refuses %s', (_, value, message) => {
    expect(unstorableStringProblem(value)).toMatch(message);
  });
});

describe('numberProblem', () => {
  // Number(source) is the value JSON.parse gives the literal.
  it.each([
    '0',
    '-0',
    '0.0e-400',
    '1.50',
    '1E2',
    '0.1',
    '0.30000000000000004',
    '-9007199254740991',
    '9007199254740992',
    '1152921504606847000',
    '123456789012345680000',
    '1e21',
    '1.7976931348623157e308',
    '5e-324',
    '1234567890.12345',
  ])('accepts %s, which comes back as sent', (source) => {
    expect(numberProblem(Number(source), source)).toBeUndefined();
  });

  it.each([
    ['1e400', /out of range/],
    ['-1e400', /out of range/],
    ['1e-400', /too small/],
    ['-2.5E-999', /too small/],
    ['9007199254740993', /would become 9007199254740992/],
    ['-12345678901234567890', /would become -12345678901234567000/],
    ['1152921504606846976', /would become 1152921504606847000/],
    ['3.14159265358979323846', /would become 3.141592653589793/],
    ['1234567890.1234567890123', /would become/],
  ])('refuses %s', (source, message) => {
    expect(numberProblem(Number(source), source)).toMatch(message);
  });
});

describe('mayHoldChangedNumbers', () => {
  it.each(['{"a":123456789012345}', '{"a":1e99}', '{"a":"x"}', '{"a":1234567890123.5}'])(
    'is false for %s',
    (text) => {
      expect(mayHoldChangedNumbers(text)).toBe(false);
    },
  );

  it.each([
    '{"a":1234567890123456}',
    '{"a":1234567890.1234567}',
    '{"a":1e400}',
    '{"a":1E-400}',
    '{"a":"1234567890123456"}',
  ])('is true for %s', (text) => {
    expect(mayHoldChangedNumbers(text)).toBe(true);
  });
});

describe('jsonBodyProblem on values the database cannot keep', () => {
  const parse = (text: string): unknown => JSON.parse(text, markChangedNumbers);

  it.each<[string, unknown, (string | number)[], RegExp]>([
    ['a NUL string', { payload: ['a\u0000'] }, ['payload', 0], /NUL/],
    [
      'a key with NUL',
      { payload: { 'k\u0000': 1 } },
      ['payload', 'k\u0000'],
      /keys must not contain the NUL/,
    ],
    ['a lone surrogate', { payload: { a: '\udc00' } }, ['payload', 'a'], /surrogate/],
    ['a non-finite number', { payload: { n: Number.POSITIVE_INFINITY } }, ['payload', 'n'], /out of range/],
    ['a rounded integer', parse('{"payload":{"id":12345678901234567890}}'), ['payload', 'id'], /exactly/],
    ['an underflow', parse('{"payload":[1,[1e-400]]}'), ['payload', 1, 0], /too small/],
    ['a NUL string as the whole body', '\u0000', [], /NUL/],
  ])('refuses %s with its path', (_, body, path, message) => {
    expect(jsonBodyProblem(body, 64)).toEqual({ path, message: expect.stringMatching(message) });
  });

  it('leaves numbers the parse kept as they are', () => {
    expect(parse('[9007199254740991,0.1,1e308]')).toEqual([9007199254740991, 0.1, 1e308]);
    expect(parse('[1e309]')).toEqual([new ChangedNumber('1e309 is out of range for a JSON number')]);
  });
});
