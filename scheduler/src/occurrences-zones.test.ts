import { describe, expect, test } from 'vitest';
import { nextOccurrences } from './occurrences.js';

/** The next `count` occurrences after `after`, as ISO strings. */
function take(expression: string, timezone: string | null, after: string, count: number): string[] {
  const from = new Date(after);
  const found = nextOccurrences(expression, timezone, from, { until: from, min: count, max: count });
  return found.map((date) => date.toISOString());
}

// 2026 transitions (UTC instants):
// Europe/Paris         03-29 01:00 +1→+2 (02:00–02:59 skipped)   10-25 01:00 +2→+1 (02:00–02:59 twice)
// America/New_York     03-08 07:00 −5→−4 (02:00–02:59 skipped)   11-01 06:00 −4→−5 (01:00–01:59 twice)
// Australia/Lord_Howe  10-03 15:30 +10:30→+11 (02:00–02:29 skipped) 04-04 15:00 +11→+10:30 (01:30–01:59 twice)
// Pacific/Chatham      09-26 14:00 +12:45→+13:45 (02:45–03:44 skipped) 04-04 14:00 +13:45→+12:45 (02:45–03:44 twice)
describe('nextOccurrences: time zones', () => {
  test.each([
    {
      name: 'UTC when the zone is null',
      expression: '0 9 * * *',
      timezone: null,
      after: '2026-01-01T00:00:00.000Z',
      expected: ['2026-01-01T09:00:00.000Z'],
    },
    {
      name: 'UTC when the zone is UTC',
      expression: '0 9 * * *',
      timezone: 'UTC',
      after: '2026-01-01T00:00:00.000Z',
      expected: ['2026-01-01T09:00:00.000Z'],
    },
    {
      name: 'New York in winter (−05:00)',
      expression: '0 9 * * *',
      timezone: 'America/New_York',
      after: '2026-01-01T00:00:00.000Z',
      expected: ['2026-01-01T14:00:00.000Z', '2026-01-02T14:00:00.000Z'],
    },
    {
      name: 'New York in summer (−04:00)',
      expression: '0 9 * * *',
      timezone: 'America/New_York',
      after: '2026-07-01T00:00:00.000Z',
      expected: ['2026-07-01T13:00:00.000Z'],
    },
    {
      name: 'Paris in winter (+01:00)',
      expression: '0 9 * * *',
      timezone: 'Europe/Paris',
      after: '2026-01-01T00:00:00.000Z',
      expected: ['2026-01-01T08:00:00.000Z'],
    },
    {
      name: 'Paris in summer (+02:00)',
      expression: '0 9 * * *',
      timezone: 'Europe/Paris',
      after: '2026-07-01T00:00:00.000Z',
      expected: ['2026-07-01T07:00:00.000Z'],
    },
    {
      name: 'Kolkata (+05:30)',
      expression: '0 9 * * *',
      timezone: 'Asia/Kolkata',
      after: '2026-01-01T00:00:00.000Z',
      expected: ['2026-01-01T03:30:00.000Z', '2026-01-02T03:30:00.000Z'],
    },
    {
      name: 'Kolkata late evening (+05:30)',
      expression: '30 23 * * *',
      timezone: 'Asia/Kolkata',
      after: '2026-01-01T00:00:00.000Z',
      expected: ['2026-01-01T18:00:00.000Z'],
    },
    {
      name: 'Lord Howe in summer (+11:00)',
      expression: '0 9 * * *',
      timezone: 'Australia/Lord_Howe',
      after: '2026-01-01T00:00:00.000Z',
      expected: ['2026-01-01T22:00:00.000Z'],
    },
    {
      name: 'Lord Howe in winter (+10:30)',
      expression: '0 9 * * *',
      timezone: 'Australia/Lord_Howe',
      after: '2026-07-01T00:00:00.000Z',
      expected: ['2026-07-01T22:30:00.000Z'],
    },
    {
      name: 'Chatham in summer (+13:45)',
      expression: '0 9 * * *',
      timezone: 'Pacific/Chatham',
      after: '2026-01-01T00:00:00.000Z',
      expected: ['2026-01-01T19:15:00.000Z'],
    },
    {
      name: 'Chatham in winter (+12:45)',
      expression: '0 9 * * *',
      timezone: 'Pacific/Chatham',
      after: '2026-07-01T00:00:00.000Z',
      expected: ['2026-07-01T20:15:00.000Z'],
    },
    {
      name: 'LW on the local calendar of Kolkata',
      expression: '0 9 LW * *',
      timezone: 'Asia/Kolkata',
      after: '2026-01-01T00:00:00.000Z',
      expected: ['2026-01-30T03:30:00.000Z'],
    },
    {
      name: '1W on the local calendar of Chatham, the day before in UTC',
      expression: '0 1 1W * *',
      timezone: 'Pacific/Chatham',
      after: '2026-07-15T00:00:00.000Z',
      expected: ['2026-08-02T12:15:00.000Z'],
    },
    {
      name: 'the first day of the month in New York, the evening before in UTC',
      expression: '0 0 1 * *',
      timezone: 'America/New_York',
      after: '2026-01-15T00:00:00.000Z',
      expected: ['2026-02-01T05:00:00.000Z'],
    },
  ])('fires in $name: $expression', ({ expression, timezone, after, expected }) => {
    expect(take(expression, timezone, after, expected.length)).toEqual(expected);
  });
});

describe('nextOccurrences: DST gaps (a skipped local time does not fire)', () => {
  test.each([
    {
      name: 'Paris skips 02:30 on March 29',
      expression: '30 2 * * *',
      timezone: 'Europe/Paris',
      after: '2026-03-27T12:00:00.000Z',
      expected: ['2026-03-28T01:30:00.000Z', '2026-03-30T00:30:00.000Z'],
    },
    {
      name: 'New York skips 02:30 on March 8',
      expression: '30 2 * * *',
      timezone: 'America/New_York',
      after: '2026-03-07T12:00:00.000Z',
      expected: ['2026-03-09T06:30:00.000Z', '2026-03-10T06:30:00.000Z'],
    },
    {
      name: 'New York hourly skips 02:00 without firing 03:00 twice',
      expression: '0 * * * *',
      timezone: 'America/New_York',
      after: '2026-03-08T05:30:00.000Z',
      expected: ['2026-03-08T06:00:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-08T08:00:00.000Z'],
    },
    {
      name: 'Paris every minute runs from 01:59 to 03:00',
      expression: '* * * * *',
      timezone: 'Europe/Paris',
      after: '2026-03-29T00:58:00.000Z',
      expected: [
        '2026-03-29T00:59:00.000Z',
        '2026-03-29T01:00:00.000Z',
        '2026-03-29T01:01:00.000Z',
        '2026-03-29T01:02:00.000Z',
      ],
    },
    {
      name: 'Paris every second runs from 01:59:59 to 03:00:00',
      expression: '* * * * * *',
      timezone: 'Europe/Paris',
      after: '2026-03-29T00:59:58.000Z',
      expected: ['2026-03-29T00:59:59.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T01:00:01.000Z'],
    },
    {
      name: 'Lord Howe skips 02:15 on October 4 (30-minute shift)',
      expression: '15 2 * * *',
      timezone: 'Australia/Lord_Howe',
      after: '2026-10-02T12:00:00.000Z',
      expected: ['2026-10-02T15:45:00.000Z', '2026-10-04T15:15:00.000Z'],
    },
    {
      name: 'Lord Howe keeps 02:45 on October 4, after its 30-minute gap',
      expression: '45 2 * * *',
      timezone: 'Australia/Lord_Howe',
      after: '2026-10-03T12:00:00.000Z',
      expected: ['2026-10-03T15:45:00.000Z'],
    },
    {
      name: 'Chatham skips 03:00 on September 27',
      expression: '0 3 * * *',
      timezone: 'Pacific/Chatham',
      after: '2026-09-25T12:00:00.000Z',
      expected: ['2026-09-25T14:15:00.000Z', '2026-09-27T13:15:00.000Z'],
    },
    {
      name: 'Chatham every 15 minutes runs from 02:30 to 03:45',
      expression: '*/15 * * * *',
      timezone: 'Pacific/Chatham',
      after: '2026-09-26T13:40:00.000Z',
      expected: ['2026-09-26T13:45:00.000Z', '2026-09-26T14:00:00.000Z', '2026-09-26T14:15:00.000Z'],
    },
  ])('$name: $expression', ({ expression, timezone, after, expected }) => {
    expect(take(expression, timezone, after, expected.length)).toEqual(expected);
  });

  test('returns nothing when every local time of the schedule falls in a gap', () => {
    // The last Sunday of March at 02:30 never exists in Paris.
    expect(take('30 2 * 3 0L', 'Europe/Paris', '2026-01-01T00:00:00.000Z', 1)).toEqual([]);
  });
});

describe('nextOccurrences: DST folds (a repeated local time fires once, at its first instant)', () => {
  test.each([
    {
      name: 'Paris fires 02:30 once on October 25',
      expression: '30 2 * * *',
      timezone: 'Europe/Paris',
      after: '2026-10-24T12:00:00.000Z',
      expected: ['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z'],
    },
    {
      name: 'New York fires 01:30 once on November 1',
      expression: '30 1 * * *',
      timezone: 'America/New_York',
      after: '2026-10-31T12:00:00.000Z',
      expected: ['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'],
    },
    {
      name: 'New York hourly fires 01:00 once',
      expression: '0 * * * *',
      timezone: 'America/New_York',
      after: '2026-11-01T04:30:00.000Z',
      expected: ['2026-11-01T05:00:00.000Z', '2026-11-01T07:00:00.000Z', '2026-11-01T08:00:00.000Z'],
    },
    {
      name: 'Paris every 30 minutes skips the repeated hour',
      expression: '*/30 * * * *',
      timezone: 'Europe/Paris',
      after: '2026-10-24T23:45:00.000Z',
      expected: [
        '2026-10-25T00:00:00.000Z',
        '2026-10-25T00:30:00.000Z',
        '2026-10-25T02:00:00.000Z',
        '2026-10-25T02:30:00.000Z',
      ],
    },
    {
      name: 'Paris every second runs from 02:59:59 CEST to 03:00:00 CET',
      expression: '* * * * * *',
      timezone: 'Europe/Paris',
      after: '2026-10-25T00:59:58.000Z',
      expected: ['2026-10-25T00:59:59.000Z', '2026-10-25T02:00:00.000Z', '2026-10-25T02:00:01.000Z'],
    },
    {
      name: 'Lord Howe fires 01:45 once on April 5 (30-minute fold)',
      expression: '45 1 * * *',
      timezone: 'Australia/Lord_Howe',
      after: '2026-04-03T12:00:00.000Z',
      expected: ['2026-04-03T14:45:00.000Z', '2026-04-04T14:45:00.000Z', '2026-04-05T15:15:00.000Z'],
    },
    {
      name: 'Lord Howe every 15 minutes skips the repeated half hour',
      expression: '*/15 * * * *',
      timezone: 'Australia/Lord_Howe',
      after: '2026-04-04T14:00:00.000Z',
      expected: [
        '2026-04-04T14:15:00.000Z',
        '2026-04-04T14:30:00.000Z',
        '2026-04-04T14:45:00.000Z',
        '2026-04-04T15:30:00.000Z',
        '2026-04-04T15:45:00.000Z',
      ],
    },
    {
      name: 'Chatham fires 03:00 once on April 5',
      expression: '0 3 * * *',
      timezone: 'Pacific/Chatham',
      after: '2026-04-03T12:00:00.000Z',
      expected: ['2026-04-03T13:15:00.000Z', '2026-04-04T13:15:00.000Z', '2026-04-05T14:15:00.000Z'],
    },
  ])('$name: $expression', ({ expression, timezone, after, expected }) => {
    expect(take(expression, timezone, after, expected.length)).toEqual(expected);
  });

  test.each([
    { name: 'in the second pass of the fold', after: '2026-11-01T06:10:00.000Z' },
    { name: 'at the end of the first pass', after: '2026-11-01T05:50:00.000Z' },
    { name: 'at the start of the second pass', after: '2026-11-01T06:00:00.000Z' },
  ])('resumes after the fold when after is $name', ({ after }) => {
    expect(take('*/20 * * * *', 'America/New_York', after, 2)).toEqual([
      '2026-11-01T07:00:00.000Z',
      '2026-11-01T07:20:00.000Z',
    ]);
  });

  test('fires the rest of the first pass when after is inside it', () => {
    expect(take('*/20 * * * *', 'America/New_York', '2026-11-01T05:30:00.000Z', 2)).toEqual([
      '2026-11-01T05:40:00.000Z',
      '2026-11-01T07:00:00.000Z',
    ]);
  });
});
