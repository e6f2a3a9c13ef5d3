import type { RetryConfig } from '@webhook-scheduler/contract';
import { describe, expect, it } from 'vitest';
import { interruptedOutcome, isMissed, missedOutcome, planRecord } from './attempt.rules.js';
import type { ClaimedAttempt, WebhookOutcome } from './ports.js';

const at = (iso: string) => new Date(`2026-11-23T${iso}Z`);
const HOUR = 3_600_000;

describe('isMissed', () => {
  it.each([
    ['due during downtime, longer than the tolerance before service began', '08:59:59', '10:00:00', true],
    ['due during downtime, exactly the tolerance before service began', '09:00:00', '10:00:00', false],
    [
      'due during downtime, within the tolerance (however long its backlog drains)',
      '09:30:00',
      '10:00:00',
      false,
    ],
    ['due while schedulers ran, waiting for its share for hours', '10:00:00', '09:00:00', false],
    ['due exactly when service began', '10:00:00', '10:00:00', false],
  ])('%s → %s', (_case, scheduledAt, servedSince, missed) => {
    expect(isMissed(at(scheduledAt), HOUR, at(servedSince))).toBe(missed);
  });
});

const linear: RetryConfig = { maxRetries: 2, backoffMs: 1000, backoffType: 'linear' };

function claimed(overrides: Partial<ClaimedAttempt> = {}): ClaimedAttempt {
  return {
    id: 'attempt-id',
    teamId: 'team',
    cronId: 'cron',
    originalId: 'attempt-id',
    attempt: 0,
    scheduledAt: at('10:00:00'),
    webhookUrl: 'https://example.com/hook',
    method: 'PUT',
    headers: { 'x-a': '1' },
    payload: { n: 1 },
    retryConfig: linear,
    timeoutMs: 2500,
    leaseToken: 'token',
    claimCount: 1,
    signingSecrets: ['whsec_a'],
    origin: 'https://example.com',
    traceContext: null,
    sendTraceparent: false,
    dueInMs: 0,
    ...overrides,
  };
}

const retryOf = (attempt: number) => claimed({ id: `retry-${attempt}`, originalId: 'original', attempt });

const startedAt = at('10:00:01');
const ok: WebhookOutcome = {
  ok: true,
  status: 204,
  headers: { server: 'x' },
  body: '',
  durationMs: 120,
  error: null,
  permanent: false,
  startedAt,
};
const failed: WebhookOutcome = { ...ok, ok: false, status: 503, body: 'busy', error: 'HTTP 503' };
const refused: WebhookOutcome = { ...failed, status: null, body: null, error: 'blocked', permanent: true };

describe('planRecord', () => {
  it.each([
    // case, attempt, outcome, status, originalStatus, retry number (null: none), retry delay
    ['a successful original', claimed(), ok, 'success', null, null, 0],
    [
      'a failed original without retry config',
      claimed({ retryConfig: null }),
      failed,
      'failed',
      null,
      null,
      0,
    ],
    ['a failed original with retries to come', claimed(), failed, 'processing', null, 1, 1000],
    ['a permanently failed original', claimed(), refused, 'failed', null, null, 0],
    ['a failed retry with another to come', retryOf(1), failed, 'failed', null, 2, 2000],
    ['a failed last retry', retryOf(2), failed, 'failed', 'failed', null, 0],
    ['a permanently failed retry', retryOf(1), refused, 'failed', 'failed', null, 0],
    ['a successful retry', retryOf(1), ok, 'success', 'success', null, 0],
  ] as const)(
    'records %s as %s, settling the original as %s, retry %s',
    (_case, attempt, outcome, status, originalStatus, retryNumber, delay) => {
      const record = planRecord(attempt, outcome, () => 'new-id');
      expect(record).toMatchObject({
        id: attempt.id,
        leaseToken: 'token',
        status,
        originalStatus,
        originalId: attempt.originalId,
      });
      if (retryNumber === null) {
        expect(record.retry).toBeNull();
        return;
      }
      expect(record.retry).toEqual({
        id: 'new-id',
        attempt: retryNumber,
        scheduledAt: new Date(startedAt.getTime() + outcome.durationMs + delay),
        teamId: 'team',
        cronId: 'cron',
        originalId: attempt.originalId,
        webhookUrl: 'https://example.com/hook',
        method: 'PUT',
        headers: { 'x-a': '1' },
        payload: { n: 1 },
        retryConfig: linear,
        timeoutMs: 2500,
        traceContext: null,
      });
    },
  );

  it('gives a retry the trace context of the request that created its original', () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const record = planRecord(claimed({ traceContext: traceparent }), failed, () => 'new-id');
    expect(record.retry?.traceContext).toBe(traceparent);
  });

  it('copies the response of the call into the record', () => {
    expect(planRecord(claimed(), failed, () => 'new-id')).toMatchObject({
      executedAt: startedAt,
      responseStatus: 503,
      responseHeaders: { server: 'x' },
      responseBody: 'busy',
      responseDuration: 120,
      responseError: 'HTTP 503',
    });
  });

  it('leaves executedAt empty for an attempt decided without a call', () => {
    expect(planRecord(claimed(), refused, () => 'new-id', { executed: false }).executedAt).toBeNull();
  });

  it('says where the call went, and no call for an attempt decided without one', () => {
    const attempt = claimed();
    expect(planRecord(attempt, failed, () => 'r').call).toEqual({
      teamId: attempt.teamId,
      origin: attempt.origin,
      retryAfter: null,
    });
    expect(planRecord(attempt, refused, () => 'r', { executed: false }).call).toBeNull();
  });

  it('times the retry no earlier than a 429 or 503 asked with Retry-After, and passes the time on', () => {
    const busy: WebhookOutcome = { ...failed, status: 429, headers: { 'retry-after': '60' } };
    const answeredAt = startedAt.getTime() + busy.durationMs;
    const record = planRecord(claimed(), busy, () => 'r1');
    expect(record.retry?.scheduledAt).toEqual(new Date(answeredAt + 60_000));
    expect(record.call?.retryAfter).toEqual(new Date(answeredAt + 60_000));
    // A backoff longer than what the receiver asked for is kept.
    const soon = planRecord(claimed(), { ...busy, headers: { 'retry-after': '0' } }, () => 'r2');
    expect(soon.retry?.scheduledAt).toEqual(new Date(answeredAt + 1000));
  });
});

describe('missedOutcome', () => {
  it('fails the attempt permanently without a call, saying how late it was and the tolerance', () => {
    const now = at('12:30:00');
    expect(missedOutcome(claimed(), now, HOUR)).toEqual({
      ok: false,
      status: null,
      headers: null,
      body: null,
      durationMs: 0,
      error:
        'missed: it was due 150 min ago, longer than MISSED_EVENT_TOLERANCE (3600 s), so it was not sent',
      permanent: true,
      startedAt: now,
    });
  });

  it('plans no retry even when the event has a retry config, and no execution time', () => {
    const now = at('12:30:00');
    const record = planRecord(claimed(), missedOutcome(claimed(), now, HOUR), () => 'new-id', {
      executed: false,
    });
    expect(record).toMatchObject({ status: 'failed', retry: null, executedAt: null, responseStatus: null });
  });
});

describe('interruptedOutcome', () => {
  it('fails the attempt (not permanently) saying how many times its worker stopped', () => {
    const now = at('10:05:00');
    expect(interruptedOutcome(claimed({ claimCount: 3 }), now)).toEqual({
      ok: false,
      status: null,
      headers: null,
      body: null,
      durationMs: 0,
      error: 'delivery was interrupted 3 times (the worker stopped during the call)',
      permanent: false,
      startedAt: now,
    });
  });

  it('plans a retry per the policy, timed from when the attempt was given up', () => {
    const now = at('10:05:00');
    const record = planRecord(claimed({ claimCount: 3 }), interruptedOutcome(claimed(), now), () => 'r1');
    expect(record.status).toBe('processing');
    expect(record.retry).toMatchObject({ id: 'r1', attempt: 1, scheduledAt: at('10:05:01') });
  });
});
