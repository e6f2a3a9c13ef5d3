import { describe, expect, test } from 'vitest';
import { nextOccurrences } from './occurrences.js';

/** The next `count` occurrences in UTC after `after`, as ISO strings. */
function take(expression: string, after: string, count: number): string[] {
  const from = new Date(after);
  const found = nextOccurrences(expression, null, from, { until: from, min: count, max: count });
  return found.map((date) => date.toISOString());
}

// 2026-01-01 is a Thursday.
const NEW_YEAR = '2026-01-01T00:00:00.000Z';

describe('nextOccurrences: after and the bounds', () => {
  const bounded = (expression: string, after: string, until: string, min: number, max: number): string[] =>
    nextOccurrences(expression, null, new Date(after), { until: new Date(until), min, max }).map((date) =>
      date.toISOString(),
    );

  test('excludes an occurrence exactly at after', () => {
    expect(take('0 * * * *', '2026-01-01T01:00:00.000Z', 1)).toEqual(['2026-01-01T02:00:00.000Z']);
  });

  test('includes an occurrence one millisecond after after', () => {
    expect(take('0 * * * *', '2026-01-01T00:59:59.999Z', 1)).toEqual(['2026-01-01T01:00:00.000Z']);
  });

  test('starts at the next whole second when after has milliseconds', () => {
    expect(take('* * * * * *', '2026-01-01T00:00:00.500Z', 1)).toEqual(['2026-01-01T00:00:01.000Z']);
  });

  test('includes an occurrence exactly at until', () => {
    expect(bounded('*/10 * * * *', NEW_YEAR, '2026-01-01T00:30:00.000Z', 1, 100)).toEqual([
      '2026-01-01T00:10:00.000Z',
      '2026-01-01T00:20:00.000Z',
      '2026-01-01T00:30:00.000Z',
    ]);
  });

  test('continues past until while fewer than min are collected', () => {
    expect(bounded('0 0 * * *', NEW_YEAR, '2026-01-01T00:01:00.000Z', 3, 100)).toEqual([
      '2026-01-02T00:00:00.000Z',
      '2026-01-03T00:00:00.000Z',
      '2026-01-04T00:00:00.000Z',
    ]);
  });

  test('returns the next occurrence past until when min is 1 and none falls before it', () => {
    expect(bounded('0 0 1 1 *', NEW_YEAR, '2026-01-01T00:01:00.000Z', 1, 100)).toEqual([
      '2027-01-01T00:00:00.000Z',
    ]);
  });

  test('returns every second of a one-minute horizon when it is below max', () => {
    const found = bounded('* * * * * *', NEW_YEAR, '2026-01-01T00:01:00.000Z', 1, 100);
    expect(found).toHaveLength(60);
    expect([found[0], found[59]]).toEqual(['2026-01-01T00:00:01.000Z', '2026-01-01T00:01:00.000Z']);
  });

  test('stops at max before until', () => {
    const found = bounded('* * * * * *', NEW_YEAR, '2026-01-01T01:00:00.000Z', 1, 100);
    expect(found).toHaveLength(100);
    expect(found.at(-1)).toBe('2026-01-01T00:01:40.000Z');
  });

  test('stops at max when max is below min', () => {
    expect(bounded('0 0 * * *', NEW_YEAR, NEW_YEAR, 5, 2)).toEqual([
      '2026-01-02T00:00:00.000Z',
      '2026-01-03T00:00:00.000Z',
    ]);
  });

  test('returns nothing when max is 0', () => {
    expect(bounded('* * * * *', NEW_YEAR, '2026-01-02T00:00:00.000Z', 1, 0)).toEqual([]);
  });

  test('returns nothing when min is 0 and nothing falls before until', () => {
    expect(bounded('0 0 1 1 *', NEW_YEAR, '2026-06-01T00:00:00.000Z', 0, 100)).toEqual([]);
  });
});

describe('nextOccurrences: refusals', () => {
  const bounds = { until: new Date(NEW_YEAR), min: 1, max: 1 };

  test.each([
    { expression: 'H * * * *', message: /H \(hashed values\) is not supported/ },
    { expression: '0 0 30 2 *', message: /never fires/ },
    { expression: '* * * *', message: /got 4/ },
  ])('throws a RangeError when the expression is $expression', ({ expression, message }) => {
    expect(() => nextOccurrences(expression, null, new Date(NEW_YEAR), bounds)).toThrow(RangeError);
    expect(() => nextOccurrences(expression, null, new Date(NEW_YEAR), bounds)).toThrow(message);
  });

  test('throws a RangeError when the time zone is unknown', () => {
    expect(() => nextOccurrences('* * * * *', 'Mars/Olympus_Mons', new Date(NEW_YEAR), bounds)).toThrow(
      /unknown time zone: Mars\/Olympus_Mons/,
    );
  });

  test('throws a RangeError when after is an invalid date', () => {
    expect(() => nextOccurrences('* * * * *', null, new Date('not a date'), bounds)).toThrow(RangeError);
  });
});
