import { describe, expect, it } from 'vitest';
import {
  cronIntervalIssues,
  headersBytes,
  payloadBytes,
  quotaRefusal,
  requestSizeIssues,
  shortestIntervalMs,
} from './limits.rules.js';
import { effectiveLimits, parseLimitSettings } from './team-limits.rules.js';
import { loadConfig } from '../config.js';

const now = new Date('2030-01-07T09:30:00.000Z');

describe('payloadBytes', () => {
  it.each<[unknown, number]>([
    [null, 0],
    ['x', 3],
    [{ a: 1 }, 7],
    [{ é: 'ü' }, 11],
    [[1, 2, 3], 7],
  ])('counts %j as %i bytes of compact UTF-8 JSON', (payload, bytes) => {
    expect(payloadBytes(payload)).toBe(bytes);
  });
});

describe('headersBytes', () => {
  it('adds every name and value in UTF-8 bytes, and none for null', () => {
    expect(headersBytes(null)).toBe(0);
    expect(headersBytes({ 'X-A': 'bc', 'X-D': 'é' })).toBe(3 + 2 + 3 + 2);
  });
});

describe('requestSizeIssues', () => {
  const limits = { max_payload_bytes: 10, max_headers_bytes: 5 };
  it.each<[string, unknown, Record<string, string> | null, string[]]>([
    ['below both limits', 'abcdef', { a: 'bcd' }, []],
    ['at both limits', 'abcdefgh', { a: 'bcde' }, []],
    ['above the payload limit', 'abcdefghi', null, ['payload']],
    ['above the headers limit', null, { a: 'bcdef' }, ['headers']],
    ['above both', 'abcdefghi', { ab: 'cdef' }, ['payload', 'headers']],
  ])('names the fields %s', (_, payload, headers, paths) => {
    expect(requestSizeIssues({ payload, headers }, limits).map((i) => i.path[0])).toEqual(paths);
  });

  it('says the size and the limit', () => {
    expect(requestSizeIssues({ payload: 'abcdefghi', headers: null }, limits)[0]?.message).toBe(
      'payload is 11 bytes as JSON; the limit is 10 bytes',
    );
  });
});

describe('shortestIntervalMs', () => {
  it.each<[string, string | null, number]>([
    ['* * * * * *', null, 1000],
    ['*/30 * * * * *', null, 30_000],
    ['* * * * *', null, 60_000],
    ['0,1 * * * *', null, 60_000],
    // The spring DST change within the next 200 days makes one day 23 hours long.
    ['0 9 * * *', 'Europe/Paris', 82_800_000],
    ['0 9 * * *', null, 86_400_000],
    ['@hourly', null, 3_600_000],
  ])('of %s (%s) is %i ms', (expression, zone, ms) => {
    expect(shortestIntervalMs(expression, zone, now)).toBe(ms);
  });
});

describe('cronIntervalIssues', () => {
  const expr = (cron_expression: string) => ({ cron_expression, timezone: null });
  it('accepts a schedule at, and above, the shortest interval', () => {
    expect(cronIntervalIssues(expr('* * * * *'), 60_000, now)).toEqual([]);
    expect(cronIntervalIssues(expr('*/2 * * * *'), 60_000, now)).toEqual([]);
  });

  it('refuses a schedule that fires more often than allowed, on cron_expression', () => {
    expect(cronIntervalIssues(expr('*/59 * * * * *'), 60_000, now)).toEqual([
      {
        path: ['cron_expression'],
        message: 'cron_expression fires 1s apart at its closest; the shortest interval allowed is 60s',
      },
    ]);
    expect(cronIntervalIssues(expr('*/30 * * * * *'), 60_000, now)[0]?.path).toEqual(['cron_expression']);
  });

  it('accepts every valid expression at the default 1 s', () => {
    expect(cronIntervalIssues(expr('* * * * * *'), 1000, now)).toEqual([]);
  });
});

describe('quotaRefusal', () => {
  it('allows below the limit and refuses at it, with quota, limit and current', () => {
    expect(quotaRefusal('active_crons', 3, 2)).toBeUndefined();
    expect(quotaRefusal('active_crons', 3, 3)?.details).toEqual({
      quota: 'active_crons',
      limit: 3,
      current: 3,
    });
    expect(quotaRefusal('pending_events', 3, 4)?.details.current).toBe(4);
  });

  it.each([
    ['api_keys', 'Quota exceeded: the team has 100 active API keys and its limit is 100'],
    ['pending_invites', 'Quota exceeded: the team has 100 pending invites and its limit is 100'],
    ['teams', 'Quota exceeded: the user belongs to 100 teams and its limit is 100'],
  ] as const)('says what the %s quota counts, and whose it is', (quota, message) => {
    expect(quotaRefusal(quota, 100, 100)?.message).toBe(message);
  });

  it('refuses what would pass the limit, and says what the request adds', () => {
    expect(quotaRefusal('pending_events', 10, 7, 3)).toBeUndefined();
    const refused = quotaRefusal('pending_events', 10, 8, 3);
    expect(refused).toEqual({
      message:
        'Quota exceeded: the team has 8 pending events created through the API, its limit is 10, and this request adds 3',
      details: { quota: 'pending_events', limit: 10, current: 8 },
    });
    expect(quotaRefusal('pending_bytes', 1000, 900, 101)?.message).toBe(
      'Quota exceeded: the team has 900 bytes of payloads and headers in its pending events, its limit is 1000, and this request adds 101',
    );
    expect(quotaRefusal('pending_bytes', 1000, 900, 100)).toBeUndefined();
  });
});

describe('parseLimitSettings', () => {
  it('reads counts and durations, and default clears', () => {
    expect(
      parseLimitSettings([
        'max_active_crons=50',
        'min_cron_interval=60s',
        'event_retention=7d',
        'request_burst=default',
      ]),
    ).toEqual({
      overrides: {
        max_active_crons: 50,
        min_cron_interval_ms: 60_000,
        event_retention_ms: 7 * 86_400_000,
        request_burst: null,
      },
      problems: [],
    });
    expect(parseLimitSettings(['event_retention=0']).overrides).toEqual({ event_retention_ms: 0 });
    expect(parseLimitSettings(['max_api_keys=3']).overrides).toEqual({ max_api_keys: 3 });
  });

  it('reads a byte count above 2 GiB for max_pending_bytes, and refuses 0 or a fraction', () => {
    expect(parseLimitSettings(['max_pending_bytes=5368709120']).overrides).toEqual({
      max_pending_bytes: 5 * 1024 ** 3,
    });
    const { problems } = parseLimitSettings(['max_pending_bytes=0', 'max_pending_bytes=1.5']);
    expect(problems).toEqual([
      expect.stringMatching(/^max_pending_bytes: must be a whole number of bytes/),
      expect.stringMatching(/^max_pending_bytes: must be a whole number of bytes/),
    ]);
  });

  it('names every bad setting', () => {
    const { problems } = parseLimitSettings([
      'max_crons=5',
      'max_active_crons=0',
      'min_cron_interval=500ms',
      'event_retention=soon',
      'request_burst',
    ]);
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/unknown limit "max_crons"/);
    expect(problems[1]).toMatch(/^max_active_crons: must be a whole number/);
  });
});

describe('effectiveLimits', () => {
  it('takes each override the team has, and the default elsewhere', () => {
    const defaults = loadConfig({}).teamLimits;
    expect(effectiveLimits(defaults, { max_active_crons: 5, request_burst: null })).toEqual({
      ...defaults,
      max_active_crons: 5,
    });
    expect(loadConfig({ MAX_PENDING_BYTES: '5368709120' }).teamLimits.max_pending_bytes).toBe(5 * 1024 ** 3);
    expect(defaults).toEqual({
      max_payload_bytes: 65_536,
      max_headers_bytes: 16_384,
      max_active_crons: 1000,
      max_pending_events: 1_000_000,
      max_pending_bytes: 1024 ** 3,
      min_cron_interval_ms: 1000,
      requests_per_second: 100,
      request_burst: 200,
      event_retention_ms: 30 * 86_400_000,
      max_api_keys: 100,
    });
  });
});
