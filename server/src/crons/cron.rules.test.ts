import { CronInput } from '@webhook-scheduler/contract';
import { describe, expect, it } from 'vitest';
import { cronInputIssues } from './cron.rules.js';

const input = (cron_expression: string) =>
  CronInput.parse({ webhook_url: 'https://example.com/hook', cron_expression });

describe('cronInputIssues', () => {
  it.each([
    '* * * * *',
    '*/5 * * * *',
    '0 0 * * *',
    '30 */2 * * * *',
    '0 9-17 * * MON-FRI',
    '0 0 1 JAN,APR,JUL,OCT *',
    '0 0 L * *',
    '0 0 * * 5L',
    '0 12 * * 2#3',
    '0 0 29 2 *',
    '0 0 * * 7',
    '  0 0 * * *  ',
    '@yearly',
    '@annually',
    '@monthly',
    '@weekly',
    '@daily',
    '@midnight',
    '@hourly',
  ])('accepts %j', (expression) => {
    expect(cronInputIssues(input(expression))).toEqual([]);
  });

  it.each([
    ['4 fields', '* * * *'],
    ['7 fields', '* * * * * * *'],
    ['blank', '   '],
    ['minute 60', '60 * * * *'],
    ['hour 24', '0 24 * * *'],
    ['day of month 0', '0 0 0 * *'],
    ['month 13', '0 0 1 13 *'],
    ['weekday 8', '0 0 * * 8'],
    ['a step of 0', '*/0 * * * *'],
    ['a reversed range', '5-1 * * * *'],
    ['a date that never comes', '0 0 30 2 *'],
    ['letters', 'a b c d e'],
    ['an unknown nickname', '@reboot'],
    ['an interval nickname', '@every 5m'],
    ['prose', 'every day at noon'],
  ])('refuses %s on the cron_expression field with the reason', (_, expression) => {
    expect(cronInputIssues(input(expression))).toEqual([
      { path: ['cron_expression'], message: expect.stringMatching(/^invalid cron expression: .+/) },
    ]);
  });
});
