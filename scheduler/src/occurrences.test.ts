import { describe, expect, test } from 'vitest';
import { nextOccurrences } from './occurrences.js';

/** The next `count` occurrences in UTC after `after`, as ISO strings. */
function take(expression: string, after: string, count: number): string[] {
  const from = new Date(after);
  const found = nextOccurrences(expression, null, from, { until: from, min: count, max: count });
  return found.map((date) => date.toISOString());
}

// 2026-01-01 is a Thursday; 2026-03-01 a Sunday.
const NEW_YEAR = '2026-01-01T00:00:00.000Z';

describe('nextOccurrences: grammar (UTC)', () => {
  test.each([
    {
      name: 'steps',
      expression: '*/15 * * * *',
      after: NEW_YEAR,
      expected: ['2026-01-01T00:15:00.000Z', '2026-01-01T00:30:00.000Z', '2026-01-01T00:45:00.000Z'],
    },
    {
      name: 'ranges',
      expression: '0 9-11 * * *',
      after: NEW_YEAR,
      expected: [
        '2026-01-01T09:00:00.000Z',
        '2026-01-01T10:00:00.000Z',
        '2026-01-01T11:00:00.000Z',
        '2026-01-02T09:00:00.000Z',
      ],
    },
    {
      name: 'lists',
      expression: '0 8,12,18 * * *',
      after: NEW_YEAR,
      expected: [
        '2026-01-01T08:00:00.000Z',
        '2026-01-01T12:00:00.000Z',
        '2026-01-01T18:00:00.000Z',
        '2026-01-02T08:00:00.000Z',
      ],
    },
    {
      name: 'stepped ranges',
      expression: '10-30/10 * * * *',
      after: NEW_YEAR,
      expected: [
        '2026-01-01T00:10:00.000Z',
        '2026-01-01T00:20:00.000Z',
        '2026-01-01T00:30:00.000Z',
        '2026-01-01T01:10:00.000Z',
      ],
    },
    {
      name: 'day names in a range',
      expression: '0 0 * * MON-FRI',
      after: NEW_YEAR,
      expected: ['2026-01-02T00:00:00.000Z', '2026-01-05T00:00:00.000Z', '2026-01-06T00:00:00.000Z'],
    },
    {
      name: 'month names in any case',
      expression: '0 0 1 JAN,jul *',
      after: NEW_YEAR,
      expected: ['2026-07-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    },
    {
      name: 'day of week 7 as Sunday',
      expression: '0 0 * * 7',
      after: NEW_YEAR,
      expected: ['2026-01-04T00:00:00.000Z', '2026-01-11T00:00:00.000Z'],
    },
    {
      name: '? as any day',
      expression: '0 0 ? * MON',
      after: NEW_YEAR,
      expected: ['2026-01-05T00:00:00.000Z', '2026-01-12T00:00:00.000Z'],
    },
    {
      name: 'L in the day of month',
      expression: '0 0 L * *',
      after: NEW_YEAR,
      expected: [
        '2026-01-31T00:00:00.000Z',
        '2026-02-28T00:00:00.000Z',
        '2026-03-31T00:00:00.000Z',
        '2026-04-30T00:00:00.000Z',
      ],
    },
    {
      name: 'L in the day of week (5L, last Friday)',
      expression: '0 0 * * 5L',
      after: NEW_YEAR,
      expected: ['2026-01-30T00:00:00.000Z', '2026-02-27T00:00:00.000Z', '2026-03-27T00:00:00.000Z'],
    },
    {
      name: '# (second Monday)',
      expression: '0 0 * * MON#2',
      after: NEW_YEAR,
      expected: ['2026-01-12T00:00:00.000Z', '2026-02-09T00:00:00.000Z', '2026-03-09T00:00:00.000Z'],
    },
    {
      name: '# skipping months without a fifth Friday',
      expression: '0 0 * * 5#5',
      after: NEW_YEAR,
      expected: ['2026-01-30T00:00:00.000Z', '2026-05-29T00:00:00.000Z', '2026-07-31T00:00:00.000Z'],
    },
    {
      name: 'day of month OR day of week when both are set',
      expression: '0 0 13 * MON',
      after: '2026-02-01T00:00:00.000Z',
      expected: [
        '2026-02-02T00:00:00.000Z',
        '2026-02-09T00:00:00.000Z',
        '2026-02-13T00:00:00.000Z',
        '2026-02-16T00:00:00.000Z',
        '2026-02-23T00:00:00.000Z',
      ],
    },
    {
      name: 'a leading seconds field with a step',
      expression: '*/20 * * * * *',
      after: NEW_YEAR,
      expected: ['2026-01-01T00:00:20.000Z', '2026-01-01T00:00:40.000Z', '2026-01-01T00:01:00.000Z'],
    },
    {
      name: 'a leading seconds field with a value',
      expression: '30 0 12 * * *',
      after: NEW_YEAR,
      expected: ['2026-01-01T12:00:30.000Z', '2026-01-02T12:00:30.000Z'],
    },
  ])('fires on $name: $expression', ({ expression, after, expected }) => {
    expect(take(expression, after, expected.length)).toEqual(expected);
  });

  test.each([
    { expression: '@yearly', expected: ['2027-01-01T00:00:00.000Z', '2028-01-01T00:00:00.000Z'] },
    { expression: '@annually', expected: ['2027-01-01T00:00:00.000Z', '2028-01-01T00:00:00.000Z'] },
    { expression: '@monthly', expected: ['2026-04-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z'] },
    { expression: '@weekly', expected: ['2026-03-08T00:00:00.000Z', '2026-03-15T00:00:00.000Z'] },
    { expression: '@daily', expected: ['2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z'] },
    { expression: '@midnight', expected: ['2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z'] },
    { expression: '@hourly', expected: ['2026-03-01T01:00:00.000Z', '2026-03-01T02:00:00.000Z'] },
    { expression: '@DAILY', expected: ['2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z'] },
  ])('fires on the nickname $expression after Sunday 2026-03-01 00:00', ({ expression, expected }) => {
    expect(take(expression, '2026-03-01T00:00:00.000Z', expected.length)).toEqual(expected);
  });
});

describe('nextOccurrences: W (nearest weekday)', () => {
  test.each([
    {
      name: '15W on a weekday, a Sunday, a Sunday',
      expression: '0 0 15W * *',
      after: NEW_YEAR,
      expected: ['2026-01-15T00:00:00.000Z', '2026-02-16T00:00:00.000Z', '2026-03-16T00:00:00.000Z'],
    },
    {
      name: '15W on a Saturday (Friday the 14th)',
      expression: '0 0 15W * *',
      after: '2026-08-01T00:00:00.000Z',
      expected: ['2026-08-14T00:00:00.000Z'],
    },
    {
      name: '1W on a Saturday (Monday the 3rd, never the previous month)',
      expression: '0 0 1W * *',
      after: '2026-07-15T00:00:00.000Z',
      expected: [
        '2026-08-03T00:00:00.000Z',
        '2026-09-01T00:00:00.000Z',
        '2026-10-01T00:00:00.000Z',
        '2026-11-02T00:00:00.000Z',
      ],
    },
    {
      name: '31W on a Sunday (Friday the 29th), skipping months without a 31st',
      expression: '0 0 31W * *',
      after: '2026-04-15T00:00:00.000Z',
      expected: ['2026-05-29T00:00:00.000Z', '2026-07-31T00:00:00.000Z', '2026-08-31T00:00:00.000Z'],
    },
    {
      name: 'LW (last weekday, back from a Saturday or a Sunday)',
      expression: '0 0 LW * *',
      after: NEW_YEAR,
      expected: [
        '2026-01-30T00:00:00.000Z',
        '2026-02-27T00:00:00.000Z',
        '2026-03-31T00:00:00.000Z',
        '2026-04-30T00:00:00.000Z',
        '2026-05-29T00:00:00.000Z',
      ],
    },
    {
      name: 'W in a restricted month',
      expression: '0 12 1W 8 *',
      after: NEW_YEAR,
      expected: ['2026-08-03T12:00:00.000Z', '2027-08-02T12:00:00.000Z'],
    },
    {
      name: 'W OR a restricted day of week',
      expression: '0 0 15W * SUN',
      after: '2026-02-01T00:00:00.000Z',
      expected: [
        '2026-02-08T00:00:00.000Z',
        '2026-02-15T00:00:00.000Z',
        '2026-02-16T00:00:00.000Z',
        '2026-02-22T00:00:00.000Z',
        '2026-03-01T00:00:00.000Z',
      ],
    },
    {
      name: 'the day of week alone in a month without the W day',
      expression: '0 0 30W 2 MON',
      after: NEW_YEAR,
      expected: [
        '2026-02-02T00:00:00.000Z',
        '2026-02-09T00:00:00.000Z',
        '2026-02-16T00:00:00.000Z',
        '2026-02-23T00:00:00.000Z',
        '2027-02-01T00:00:00.000Z',
      ],
    },
    {
      name: 'several times on the W day',
      expression: '0 */12 LW * *',
      after: NEW_YEAR,
      expected: ['2026-01-30T00:00:00.000Z', '2026-01-30T12:00:00.000Z', '2026-02-27T00:00:00.000Z'],
    },
  ])('fires on $name: $expression', ({ expression, after, expected }) => {
    expect(take(expression, after, expected.length)).toEqual(expected);
  });
});

describe('nextOccurrences: calendar edges (UTC)', () => {
  test.each([
    {
      name: 'February 29 only in leap years',
      expression: '0 0 29 2 *',
      after: NEW_YEAR,
      expected: ['2028-02-29T00:00:00.000Z', '2032-02-29T00:00:00.000Z'],
    },
    {
      name: 'February 29 skipping 2100, not a leap year',
      expression: '0 0 29 2 *',
      after: '2096-03-01T00:00:00.000Z',
      expected: ['2104-02-29T00:00:00.000Z'],
    },
    {
      name: 'the last day of February in and out of leap years',
      expression: '0 0 L 2 *',
      after: '2027-03-01T00:00:00.000Z',
      expected: ['2028-02-29T00:00:00.000Z', '2029-02-28T00:00:00.000Z'],
    },
    {
      name: 'the 31st only in months that have one',
      expression: '0 0 31 * *',
      after: '2026-01-31T00:00:00.000Z',
      expected: [
        '2026-03-31T00:00:00.000Z',
        '2026-05-31T00:00:00.000Z',
        '2026-07-31T00:00:00.000Z',
        '2026-08-31T00:00:00.000Z',
      ],
    },
    {
      name: 'the 30th, skipping February',
      expression: '0 0 30 * *',
      after: '2026-01-30T00:00:00.000Z',
      expected: ['2026-03-30T00:00:00.000Z', '2026-04-30T00:00:00.000Z'],
    },
    {
      name: 'New Year across the year boundary',
      expression: '59 23 31 12 *',
      after: '2026-12-31T23:59:00.000Z',
      expected: ['2027-12-31T23:59:00.000Z'],
    },
  ])('fires on $name: $expression', ({ expression, after, expected }) => {
    expect(take(expression, after, expected.length)).toEqual(expected);
  });
});
