import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeEvent } from '../../test/fixtures.js';
import { BASE_URL, server, testClient, useMockApi } from '../../test/msw.js';
import {
  QuotaExceededError,
  RateLimitedError,
  WebhookSchedulerError,
  isQuotaExceededError,
  isRateLimitedError,
  isWebhookSchedulerError,
} from '../index.js';
import { retryAfterMs } from './to-sdk-error.js';

useMockApi();

const EVENT = makeEvent();
const INPUT = { webhook_url: EVENT.webhook_url, scheduled_at: EVENT.scheduled_at };
const rateLimited = { error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded: retry in 1 second' } };
const RATE_HEADERS = { 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '2' };

function counted(method: 'get' | 'post', path: string, answers: (attempt: number) => Response) {
  const counter = { attempts: 0, at: [] as number[] };
  server.use(
    http[method](`${BASE_URL}${path}`, () => {
      counter.attempts += 1;
      counter.at.push(Date.now());
      return answers(counter.attempts);
    }),
  );
  return counter;
}

describe('a 429 RATE_LIMITED', () => {
  it('on a GET is waited out for Retry-After seconds and retried', async () => {
    const counter = counted('get', `/api/v1/events/${EVENT.id}`, (attempt) =>
      attempt === 1
        ? HttpResponse.json(rateLimited, { status: 429, headers: { ...RATE_HEADERS, 'retry-after': '1' } })
        : HttpResponse.json({ data: EVENT }),
    );
    await expect(testClient().events.get(EVENT.id)).resolves.toEqual(EVENT);
    expect(counter.attempts).toBe(2);
    const [first = 0, second = 0] = counter.at;
    expect(second - first).toBeGreaterThanOrEqual(950);
  });

  it('on a create (safe to repeat: it carries an Idempotency-Key) is waited out and retried, then rejects with a RateLimitedError carrying the retry-after', async () => {
    const counter = counted('post', '/api/v1/events', () =>
      HttpResponse.json(rateLimited, { status: 429, headers: { ...RATE_HEADERS, 'retry-after': '2' } }),
    );
    const error: unknown = await testClient()
      .events.create(INPUT)
      .catch((e: unknown) => e);
    expect(counter.attempts).toBe(3);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toBeInstanceOf(WebhookSchedulerError);
    expect(isRateLimitedError(error)).toBe(true);
    expect(isWebhookSchedulerError(error)).toBe(true);
    expect(isQuotaExceededError(error)).toBe(false);
    expect(error).toMatchObject({
      name: 'RateLimitedError',
      status: 429,
      code: 'RATE_LIMITED',
      retryAfterMs: 2000,
      message: 'Rate limit exceeded: retry in 1 second',
    });
  });

  it('rejects with a RateLimitedError once the retries are used up, and without a body too', async () => {
    const counter = counted(
      'get',
      '/api/v1/crons',
      () => new HttpResponse('slow down', { status: 429, headers: { 'retry-after': '0' } }),
    );
    const error: unknown = await testClient()
      .crons.list()
      .catch((e: unknown) => e);
    expect(counter.attempts).toBe(3);
    expect(isRateLimitedError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: 0 });
  });
});

describe('a 403 QUOTA_EXCEEDED', () => {
  it('rejects with a QuotaExceededError naming the quota, its limit and the usage', async () => {
    const counter = counted('post', '/api/v1/crons', () =>
      HttpResponse.json(
        {
          error: {
            code: 'QUOTA_EXCEEDED',
            message: 'Quota exceeded: the team has 1000 active crons and its limit is 1000',
            details: { quota: 'active_crons', limit: 1000, current: 1000 },
          },
        },
        { status: 403 },
      ),
    );
    const error: unknown = await testClient()
      .crons.create({ webhook_url: 'https://example.com', cron_expression: '* * * * *' })
      .catch((e: unknown) => e);
    expect(counter.attempts).toBe(1);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(isQuotaExceededError(error)).toBe(true);
    expect(isRateLimitedError(error)).toBe(false);
    expect(error).toMatchObject({
      name: 'QuotaExceededError',
      status: 403,
      code: 'QUOTA_EXCEEDED',
      quota: 'active_crons',
      limit: 1000,
      current: 1000,
    });
  });
});

describe('retryAfterMs', () => {
  it.each<[string | null, number | undefined]>([
    [null, undefined],
    ['', undefined],
    ['3', 3000],
    [' 0 ', 0],
    ['soon', undefined],
    ['Wed, 01 Jan 2031 00:00:10 GMT', 10_000],
    ['Wed, 01 Jan 2031 00:00:00 GMT', 0],
  ])('reads %j as %j ms', (value, ms) => {
    expect(retryAfterMs(value, Date.parse('2031-01-01T00:00:00Z'))).toBe(ms);
  });
});
