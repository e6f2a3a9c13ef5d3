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
      reason: 'second field "60": Constraint error, got value 60 expected range 0-59',
    },
    {
      why: 'the minute is 60',
      expression: '60 * * * *',
      reason: 'minute field "60": Constraint error, got value 60 expected range 0-59',
    },
    {
      why: 'the hour is 24',
      expression: '0 24 * * *',
      reason: 'hour field "24": Constraint error, got value 24 expected range 0-23',
    },
    {
      why: 'the day of month is 32',
      expression: '0 0 32 * *',
      reason: 'day of month field "32": Constraint error, got value 32 expected range 1-31',
    },
    {
      why: 'the day of month is 0',
      expression: '0 0 0 * *',
      reason: 'day of month field "0": Constraint error, got value 0 expected range 1-31',
    },
    {
      why: 'the month is 13',
      expression: '0 0 * 13 *',
      reason: 'month field "13": Constraint error, got value 13 expected range 1-12',
    },
    {
      why: 'the day of week is 8',
      expression: '0 0 * * 8',
      reason: 'day of week field "8": Constraint error, got value 8 expected range 0-7',
    },
    {
      why: 'a range runs backwards',
      expression: '0 5-1 * * *',
      reason: 'hour field "5-1": Invalid range: 5-1, min(5) > max(1)',
    },
    {
      why: 'a step is 0',
      expression: '*/0 * * * *',
      reason: 'minute field "*/0": Constraint error, cannot repeat at every 0 time.',
    },
    { why: 'a day name is unknown', expression: '* * * * banana', reason: /^day of week field "banana": / },
    { why: 'a field has letters', expression: 'a b c d e', reason: /^minute field "a": / },
    {
      why: '# asks for a sixth weekday',
      expression: '0 0 * * 5#6',
      reason: /^day of week field "5#6": .*occurrence number/,
    },
    { why: 'L stands alone in the day of week', expression: '0 0 * * L', reason: /^day of week field "L": / },
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
      reason: 'day of month field "32W": got value 32W, expected a day in range 1-31',
    },
    {
      why: 'W follows day 0',
      expression: '0 0 0W * *',
      reason: 'day of month field "0W": got value 0W, expected a day in range 1-31',
    },
    { why: 'W is in the day of week', expression: '0 0 * * 5W', reason: /^day of week field "5W": / },
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
