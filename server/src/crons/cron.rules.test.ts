import { CronInput } from '@webhook-scheduler/contract';
import { describe, expect, it } from 'vitest';
import {
  type CronFields,
  cronChange,
  cronInputIssues,
  cronPreview,
  cronRequestIssues,
} from './cron.rules.js';

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

describe('cronRequestIssues', () => {
  it('checks the expression of a body the contract refused for other fields', () => {
    expect(cronRequestIssues({ webhook_url: 'not a url', cron_expression: '61 * * * *' })).toEqual([
      { path: ['cron_expression'], message: expect.stringMatching(/^invalid cron expression: minute/) },
    ]);
    expect(cronRequestIssues({ webhook_url: 'not a url', cron_expression: '0 * * * *' })).toEqual([]);
  });

  it.each([
    ['no expression', { webhook_url: 'x' }],
    ['an expression that is no string', { cron_expression: 61 }],
    ['a body that is an array', ['61 * * * *']],
    ['no body', undefined],
  ])('finds nothing to check in %s', (_, sent) => {
    expect(cronRequestIssues(sent)).toEqual([]);
  });
});

describe('cronPreview', () => {
  const now = new Date('2030-03-29T12:00:00Z');
  const iso = (result: ReturnType<typeof cronPreview>) =>
    'occurrences' in result ? result.occurrences.map((date) => date.toISOString()) : result;

  it('returns the next occurrences in UTC when no time zone is given', () => {
    expect(iso(cronPreview('0 9 * * *', null, now, 3))).toEqual([
      '2030-03-30T09:00:00.000Z',
      '2030-03-31T09:00:00.000Z',
      '2030-04-01T09:00:00.000Z',
    ]);
  });

  it('follows the time zone across a DST change', () => {
    // Europe/Paris moves from UTC+1 to UTC+2 on 2030-03-31.
    expect(iso(cronPreview('0 9 * * *', 'Europe/Paris', now, 3))).toEqual([
      '2030-03-30T08:00:00.000Z',
      '2030-03-31T07:00:00.000Z',
      '2030-04-01T07:00:00.000Z',
    ]);
  });

  it('skips a local time the DST gap removes', () => {
    expect(iso(cronPreview('30 2 * * *', 'Europe/Paris', now, 2))).toEqual([
      '2030-03-30T01:30:00.000Z',
      '2030-04-01T00:30:00.000Z',
    ]);
  });

  it('understands the grammar browsers do not: LW and @midnight', () => {
    // The last weekday of March 2030 is Friday the 29th, at midnight, already past at noon.
    expect(iso(cronPreview('0 0 LW * *', null, now, 1))).toEqual(['2030-04-30T00:00:00.000Z']);
    expect(iso(cronPreview('@midnight', null, now, 1))).toEqual(['2030-03-30T00:00:00.000Z']);
  });

  it('returns the problem on cron_expression for an invalid expression', () => {
    expect(cronPreview('61 * * * *', null, now, 5)).toEqual({
      issues: [{ path: ['cron_expression'], message: expect.stringMatching(/^invalid cron expression: /) }],
    });
  });
});

describe('cronChange', () => {
  const cron: CronFields = {
    webhookUrl: 'https://example.com/hook',
    cronExpression: '*/10 * * * * *',
    method: 'POST',
    timezone: 'Europe/Paris',
    headers: { 'x-a': '1' },
    payload: { a: 1, b: [1, 2] },
    retryConfig: { maxRetries: 2, backoffMs: 300, backoffType: 'linear' },
    timeoutMs: null,
    isActive: true,
    pauseAfterFailures: null,
  };

  it.each<[string, Partial<CronFields>]>([
    ['cron_expression', { cronExpression: '*/15 * * * * *' }],
    ['timezone', { timezone: null }],
    ['webhook_url', { webhookUrl: 'https://example.com/other' }],
    ['method', { method: 'PUT' }],
    ['headers', { headers: null }],
    ['payload', { payload: { a: 2, b: [1, 2] } }],
    ['retry_config', { retryConfig: { maxRetries: 3, backoffMs: 300, backoffType: 'linear' } }],
    ['timeout_ms', { timeoutMs: 2000 }],
    ['is_active', { isActive: false }],
  ])('replaces the events when %s changes', (_, change) => {
    expect(cronChange(cron, { ...cron, ...change })).toBe('events');
    expect(cronChange(cron, { ...cron, ...change, pauseAfterFailures: 3 })).toBe('events');
  });

  it('keeps them when only pause_after_failures changes, and sees no change in equal values', () => {
    expect(cronChange(cron, { ...cron, pauseAfterFailures: 3 })).toBe('settings');
    expect(cronChange(cron, structuredClone(cron))).toBe('none');
    expect(cronChange(cron, { ...cron, payload: { b: [1, 2], a: 1 } })).toBe('none');
    expect(cronChange(cron, { ...cron, payload: { a: 1, b: [2, 1] } })).toBe('events');
  });
});
