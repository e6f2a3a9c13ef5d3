import { randomUUID } from 'node:crypto';
import type { RetryConfig } from '@webhook-scheduler/contract';
import { expect, it } from 'vitest';
import { planRecord } from '../attempt.rules.js';
import { type StoreUnderTest, claimOne, claimOptions, outcome, seedEvent } from './store-under-test.js';

const retries: RetryConfig = { maxRetries: 2, backoffMs: 1000, backoffType: 'linear' };

/** Outcomes: recording under the lease's fence, retries written with them, releases. */
export function outcomeSemantics(current: () => StoreUnderTest): void {
  it('records an outcome under a live lease and ends the lease; the same lease cannot record twice', async () => {
    const t = current();
    const attempt = await claimOne(t);
    const record = planRecord(attempt, outcome(t, true), randomUUID);
    expect(await t.store.record([record])).toEqual([attempt.id]);
    expect(await t.read(attempt.id)).toMatchObject({
      status: 'success',
      executedAt: record.executedAt,
      responseStatus: 200,
      responseError: null,
      leaseToken: null,
      leaseOwner: null,
      leaseExpiresAt: null,
    });
    expect(await t.store.record([planRecord(attempt, outcome(t, false), randomUUID)])).toEqual([]);
    expect(await t.read(attempt.id)).toMatchObject({ status: 'success', responseStatus: 200 });
  });

  it('stores an error message quoting NUL with U+FFFD in its place', async () => {
    const t = current();
    const attempt = await claimOne(t);
    const record = planRecord(attempt, { ...outcome(t, false), error: 'bad \u0000 byte' }, randomUUID);
    expect(await t.store.record([record])).toEqual([attempt.id]);
    expect(await t.read(attempt.id)).toMatchObject({ status: 'failed', responseError: 'bad \uFFFD byte' });
  });

  it('refuses the outcome of a lease token that is not the event’s, and plans no retry for it', async () => {
    const t = current();
    const attempt = await claimOne(t, retries);
    const stale = { ...attempt, leaseToken: randomUUID() };
    const record = planRecord(stale, outcome(t, false), randomUUID);
    expect(await t.store.record([record])).toEqual([]);
    expect(await t.read(attempt.id)).toMatchObject({ status: 'processing', leaseToken: attempt.leaseToken });
    expect(record.retry && (await t.read(record.retry.id))).toBeUndefined();
  });

  it('puts a claimed event back only for its own lease token, keeping its claim count', async () => {
    const t = current();
    const attempt = await claimOne(t);
    await t.store.release([{ id: attempt.id, leaseToken: randomUUID() }]);
    expect(await t.read(attempt.id)).toMatchObject({ status: 'processing', leaseToken: attempt.leaseToken });
    await t.store.release([attempt]);
    expect(await t.read(attempt.id)).toMatchObject({ status: 'pending', leaseToken: null, claimCount: 1 });
    const [again] = await t.store.claimBacklog(claimOptions());
    expect(again).toMatchObject({ id: attempt.id, claimCount: 2 });
    await t.store.release([attempt]);
    expect(await t.read(attempt.id)).toMatchObject({ status: 'processing', leaseToken: again?.leaseToken });
  });

  it('keeps the original processing while its retry is pending, and settles it when the retry succeeds', async () => {
    const t = current();
    const original = await claimOne(t, retries);
    const failed = planRecord(original, outcome(t, false), randomUUID);
    expect(await t.store.record([failed])).toEqual([original.id]);
    expect(await t.read(original.id)).toMatchObject({
      status: 'processing',
      leaseToken: null,
      responseStatus: 500,
    });
    const retryId = failed.retry?.id ?? '';
    expect(await t.read(retryId)).toMatchObject({
      status: 'pending',
      retryOf: original.id,
      attempt: 1,
      scheduledAt: failed.retry?.scheduledAt,
      claimCount: 0,
      leaseToken: null,
    });
    const [retry] = await t.store.claimBacklog(claimOptions());
    expect(retry).toMatchObject({ id: retryId, originalId: original.id, attempt: 1, retryConfig: retries });
    if (!retry) return;
    expect(await t.store.record([planRecord(retry, outcome(t, true), randomUUID)])).toEqual([retryId]);
    expect(await t.read(retryId)).toMatchObject({ status: 'success' });
    expect(await t.read(original.id)).toMatchObject({ status: 'success', responseStatus: 500 });
  });

  it('fails the original when its last retry fails, scheduling no more', async () => {
    const t = current();
    let attempt = await claimOne(t, retries);
    const originalId = attempt.id;
    for (let n = 0; n <= retries.maxRetries; n += 1) {
      const record = planRecord(attempt, outcome(t, false), randomUUID);
      expect(await t.store.record([record])).toEqual([attempt.id]);
      expect(await t.read(originalId)).toMatchObject({
        status: n < retries.maxRetries ? 'processing' : 'failed',
      });
      const [next] = await t.store.claimBacklog(claimOptions());
      if (n === retries.maxRetries) expect(next).toBeUndefined();
      if (next) attempt = next;
    }
    expect(attempt.attempt).toBe(retries.maxRetries);
    expect(await t.read(attempt.id)).toMatchObject({ status: 'failed', retryOf: originalId });
  });

  it('schedules no retry for a delivery whose original was settled meanwhile', async () => {
    const t = current();
    const teamId = randomUUID();
    const original = seedEvent(t.now(), teamId, -5000, { status: 'failed', retryConfig: retries });
    const retry = seedEvent(t.now(), teamId, -1000, {
      retryOf: original.id,
      attempt: 1,
      retryConfig: retries,
    });
    await t.seed([original, retry]);
    const [attempt] = await t.store.claimBacklog(claimOptions());
    expect(attempt).toMatchObject({ id: retry.id, originalId: original.id });
    if (!attempt) return;
    const record = planRecord(attempt, outcome(t, false), randomUUID);
    expect(record.retry).not.toBeNull();
    expect(await t.store.record([record])).toEqual([retry.id]);
    expect(await t.read(retry.id)).toMatchObject({ status: 'failed' });
    expect(await t.read(record.retry?.id ?? '')).toBeUndefined();
    expect(await t.read(original.id)).toMatchObject({ status: 'failed' });
  });
}
