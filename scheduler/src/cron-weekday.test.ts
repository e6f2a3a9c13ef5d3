import { describe, expect, test } from 'vitest';
import { daysInMonth, weekdayOfMonth, weekdayRule } from './cron-weekday.js';

describe('weekdayRule', () => {
  test.each([
    { field: '15W', rule: { nearest: 15 } },
    { field: '1W', rule: { nearest: 1 } },
    { field: 'LW', rule: { last: true } },
    { field: '15', rule: undefined },
    { field: 'L', rule: undefined },
    { field: '*', rule: undefined },
  ])('reads $field as $rule', ({ field, rule }) => {
    expect(weekdayRule(field)).toEqual(rule);
  });

  test.each(['1-5W', '1W,15W', 'W', 'WL', '15W/2'])('refuses %j with a reason', (field) => {
    expect(weekdayRule(field)).toBe('W must follow a single day of the month (e.g. 15W) or L (LW)');
  });
});

describe('daysInMonth', () => {
  test.each([
    { year: 2026, month: 1, days: 31 },
    { year: 2026, month: 2, days: 28 },
    { year: 2028, month: 2, days: 29 },
    { year: 2100, month: 2, days: 28 },
    { year: 2000, month: 2, days: 29 },
    { year: 2026, month: 4, days: 30 },
    { year: 2026, month: 12, days: 31 },
  ])('counts $days days in $year-$month', ({ year, month, days }) => {
    expect(daysInMonth(year, month)).toBe(days);
  });
});

describe('weekdayOfMonth', () => {
  test.each([
    { why: 'the 15th is a Thursday', field: '15W', year: 2026, month: 1, day: 15 },
    { why: 'the 15th is a Sunday (Monday after)', field: '15W', year: 2026, month: 2, day: 16 },
    { why: 'the 15th is a Saturday (Friday before)', field: '15W', year: 2026, month: 8, day: 14 },
    {
      why: 'the 1st is a Saturday (Monday the 3rd, not the previous month)',
      field: '1W',
      year: 2026,
      month: 8,
      day: 3,
    },
    { why: 'the 1st is a Sunday', field: '1W', year: 2026, month: 11, day: 2 },
    {
      why: 'the 31st is a Sunday and the last day (Friday the 29th, not the next month)',
      field: '31W',
      year: 2026,
      month: 5,
      day: 29,
    },
    { why: 'the 31st is a Saturday', field: '31W', year: 2026, month: 10, day: 30 },
    { why: 'the month has no 31st', field: '31W', year: 2026, month: 6, day: undefined },
    {
      why: 'the 30th is a Sunday in a 31-day month (Monday the 31st)',
      field: '30W',
      year: 2026,
      month: 8,
      day: 31,
    },
    { why: 'February has no 30th', field: '30W', year: 2026, month: 2, day: undefined },
    { why: 'February 29 exists (Tuesday, 2028)', field: '29W', year: 2028, month: 2, day: 29 },
    { why: 'February 29 does not exist (2027)', field: '29W', year: 2027, month: 2, day: undefined },
    { why: 'February 28 is a Saturday and the last day', field: '28W', year: 2026, month: 2, day: 27 },
    { why: 'February 28 is a Sunday and the last day', field: '28W', year: 2027, month: 2, day: 26 },
    { why: 'the last day is a Saturday', field: 'LW', year: 2026, month: 1, day: 30 },
    { why: 'the last day is a Sunday', field: 'LW', year: 2026, month: 5, day: 29 },
    { why: 'the last day is a Tuesday', field: 'LW', year: 2026, month: 3, day: 31 },
    { why: 'the last day is February 29 (Tuesday, 2028)', field: 'LW', year: 2028, month: 2, day: 29 },
  ])('gives $day for $field in $year-$month when $why', ({ field, year, month, day }) => {
    const rule = weekdayRule(field);
    if (typeof rule !== 'object') throw new Error(`not a W rule: ${field}`);
    expect(weekdayOfMonth(rule, year, month)).toBe(day);
  });
});
