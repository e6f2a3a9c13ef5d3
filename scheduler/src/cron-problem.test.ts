import { describe, expect, test } from 'vitest';
import { cronProblem } from './occurrences.js';

describe('cronProblem', () => {
  test.each([
    '* * * * *',
    '*/5 9-17 * * MON-FRI',
    '0 8,12,18 * JAN-MAR,dec *',
    '0 0 L * *',
    '0 0 1,15,L * *',
    '0 0 * * 5L',
    '0 0 * * FRI#3',
    '0 0 15W * *',
    '0 0 1W * *',
    '0 0 LW * *',
    '0 0 15W * MON',
    '0 0 ? * 7',
    '*/10 * * * * *',
    '0 0 29 2 *',
    '0 0 31 * *',
    '0 0 30 2 MON',
    '0 0 * * THU',
    '@yearly',
    '@annually',
    '@monthly',
    '@weekly',
    '@daily',
    '@midnight',
    '@hourly',
    '  0 0 * * *  ',
  ])('accepts %j', (expression) => {
    expect(cronProblem(expression)).toBeUndefined();
  });

  test.each([
    { why: 'it is empty', expression: '', reason: 'the expression is empty' },
    { why: 'it is blank', expression: '   ', reason: 'the expression is empty' },
    {
      why: 'it has 4 fields',
      expression: '* * * *',
      reason: 'expected 5 fields (or 6 with a leading seconds field), got 4',
    },
    {
      why: 'it has 7 fields',
      expression: '0 0 0 1 1 * 2026',
      reason: 'expected 5 fields (or 6 with a leading seconds field), got 7',
    },
    {
      why: 'it is a single word',
      expression: 'garbage',
      reason: 'expected 5 fields (or 6 with a leading seconds field), got 1',
    },
    {
      why: 'H is in the minute field',
      expression: 'H * * * *',
      reason: 'minute field "H": H (hashed values) is not supported',
    },
    {
      why: 'H has a range and a step',
      expression: 'H(0-29)/10 * * * *',
      reason: 'minute field "H(0-29)/10": H (hashed values) is not supported',
    },
    {
      why: 'H follows a day name',
      expression: '0 0 * * THUH',
      reason: 'day of week field "THUH": H (hashed values) is not supported',
    },
    {
      why: 'the nickname is @minutely',
      expression: '@minutely',
      reason:
        /^unknown nickname @minutely \(accepted: @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly\)$/,
    },
    { why: 'the nickname is @secondly', expression: '@secondly', reason: /^unknown nickname @secondly/ },
    { why: 'the nickname is @weekdays', expression: '@weekdays', reason: /^unknown nickname @weekdays/ },
    { why: 'the nickname is @weekends', expression: '@weekends', reason: /^unknown nickname @weekends/ },
    { why: 'the nickname is @reboot', expression: '@reboot', reason: /^unknown nickname @reboot/ },
    { why: 'a nickname has extra fields', expression: '@daily 1', reason: /^unknown nickname @daily 1/ },
    {
      why: 'the second is 60',
      expression: '60 0 0 * * *',
      reason: 'second field "60": 60 is out of range: seconds go from 0 to 59',
    },
    {
      why: 'the minute is 60',
      expression: '60 * * * *',
      reason: 'minute field "60": 60 is out of range: minutes go from 0 to 59',
    },
    {
      why: 'the hour is 24',
      expression: '0 24 * * *',
      reason: 'hour field "24": 24 is out of range: hours go from 0 to 23',
    },
    {
      why: 'the day of month is 32',
      expression: '0 0 32 * *',
      reason: 'day of month field "32": 32 is out of range: days of the month go from 1 to 31',
    },
    {
      why: 'the day of month is 0',
      expression: '0 0 0 * *',
      reason: 'day of month field "0": 0 is out of range: days of the month go from 1 to 31',
    },
    {
      why: 'the month is 13',
      expression: '0 0 * 13 *',
      reason: 'month field "13": 13 is out of range: months go from 1 to 12 (or JAN to DEC)',
    },
    {
      why: 'the day of week is 8',
      expression: '0 0 * * 8',
      reason:
        'day of week field "8": 8 is out of range: days of the week go from 0 to 7 (or SUN to SAT); 0 and 7 are both Sunday',
    },
    {
      why: 'a range runs backwards',
      expression: '0 5-1 * * *',
      reason: 'hour field "5-1": the range 5-1 runs backwards: ranges do not wrap around, so write 5-23,0-1',
    },
    {
      why: 'a step is 0',
      expression: '*/0 * * * *',
      reason: 'minute field "*/0": a step of 0 never moves on: use 1 or more, as in */5',
    },
    {
      why: 'a day name is unknown',
      expression: '* * * * MON,banana',
      reason:
        'day of week field "MON,banana": "banana" is not a day of the week: days of the week go from 0 to 7 (or SUN to SAT); 0 and 7 are both Sunday',
    },
    {
      why: 'a month name is unknown',
      expression: '0 0 1 FOO *',
      reason: 'month field "FOO": "FOO" is not a month: months go from 1 to 12 (or JAN to DEC)',
    },
    {
      why: 'a range goes past the field',
      expression: '0 1-70 * * *',
      reason: 'hour field "1-70": 1-70 is out of range: hours go from 0 to 23',
    },
    {
      why: 'a range lacks its start',
      expression: '0 0 L-3 * *',
      reason: 'day of month field "L-3": a range needs a number on each side of the dash, as in 1-5',
    },
    {
      why: 'a day is listed twice',
      expression: '0 0 1,1 * *',
      reason: 'day of month field "1,1": 1 is listed twice',
    },
    {
      why: 'a field has letters',
      expression: 'a b c d e',
      reason:
        'minute field "a": "a" is not allowed here: use numbers, ranges (1-5), lists (1,15), steps (*/10) or *',
    },
    {
      why: '# asks for a sixth weekday',
      expression: '0 0 * * 5#6',
      reason: 'day of week field "5#6": the number after # must be 1 to 5, as in FRI#2 (the second Friday)',
    },
    {
      why: 'L stands alone in the day of week',
      expression: '0 0 * * L',
      reason: 'day of week field "L": L needs a day of the week before it, as in 5L (the last Friday)',
    },
    {
      why: 'W follows a range',
      expression: '0 0 1-5W * *',
      reason: 'day of month field "1-5W": W must follow a single day of the month (e.g. 15W) or L (LW)',
    },
    {
      why: 'W is in a list',
      expression: '0 0 1W,15W * *',
      reason: 'day of month field "1W,15W": W must follow a single day of the month (e.g. 15W) or L (LW)',
    },
    {
      why: 'W stands alone',
      expression: '0 0 W * *',
      reason: 'day of month field "W": W must follow a single day of the month (e.g. 15W) or L (LW)',
    },
    {
      why: 'W follows day 32',
      expression: '0 0 32W * *',
      reason: 'day of month field "32W": 32W is out of range: days of the month go from 1 to 31',
    },
    {
      why: 'W follows day 0',
      expression: '0 0 0W * *',
      reason: 'day of month field "0W": 0W is out of range: days of the month go from 1 to 31',
    },
    {
      why: 'W is in the day of week',
      expression: '0 0 * * 5W',
      reason:
        'day of week field "5W": "5W" is not allowed here: use numbers, ranges (1-5), lists (1,15), steps (*/10), 5L, FRI#2 or *',
    },
    {
      why: 'it never fires (February 30)',
      expression: '0 0 30 2 *',
      reason: 'never fires: day of month "30" does not occur in month "2"',
    },
    {
      why: 'it never fires (the 31st of 30-day months)',
      expression: '0 0 31 4,6,9,11 *',
      reason: 'never fires: day of month "31" does not occur in month "4,6,9,11"',
    },
    {
      why: 'it never fires (30W in February)',
      expression: '0 0 30W FEB *',
      reason: 'never fires: day of month "30W" does not occur in month "FEB"',
    },
  ])('refuses $expression when $why', ({ expression, reason }) => {
    if (typeof reason === 'string') expect(cronProblem(expression)).toBe(reason);
    else expect(cronProblem(expression)).toMatch(reason);
  });
});
