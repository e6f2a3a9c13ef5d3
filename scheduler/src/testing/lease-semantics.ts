import { randomUUID } from 'node:crypto';
import type { RetryConfig } from '@webhook-scheduler/contract';
import { expect, it } from 'vitest';
import { MAX_CLAIMS, interruptedOutcome, isMissed, missedOutcome, planRecord } from '../attempt.rules.js';
import type { ClaimedAttempt } from '../ports.js';
import { type StoreUnderTest, claimOptions, outcome, seedEvent } from './store-under-test.js';

/** Short enough to let it run out in a test on the real clock. */
const SHORT_LEASE_MS = 50;
const PAST_SHORT_LEASE_MS = 120;
const HOUR = 3_600_000;
const retries: RetryConfig = { maxRetries: 1, backoffMs: 1000, backoffType: 'exponential' };

/** Leases: expiry, dead owners, fencing of an outcome after a re-claim, interrupted and missed attempts. */
export function leaseSemantics(current: () => StoreUnderTest): void {
  it('finds the leases that expired and those of dead owners, soonest expiry first, up to the limit', async () => {
    const t = current();
    const [a, b, c] = [-3000, -2000, -1000].map((ms) => seedEvent(t.now(), randomUUID(), ms));
    if (!a || !b || !c) return;
    await t.seed([a, b, c]);
    await t.store.claimBacklog(claimOptions({ limit: 1, owner: 1, leaseMs: SHORT_LEASE_MS }));
    await t.store.claimBacklog(claimOptions({ limit: 1, owner: 2, leaseMs: HOUR }));
    await t.store.claimBacklog(claimOptions({ limit: 1, owner: 3, leaseMs: HOUR }));
    await t.advance(PAST_SHORT_LEASE_MS);
    const expired = await t.store.expiredLeases(10, []);
    expect(expired.map((x) => x.id)).toEqual([a.id]);
    expect(expired[0]).toMatchObject({ claimCount: 1, leaseToken: (await t.read(a.id))?.leaseToken });
    expect((await t.store.expiredLeases(10, [3])).map((x) => x.id)).toEqual([a.id, c.id]);
    expect((await t.store.expiredLeases(1, [2, 3])).map((x) => x.id)).toEqual([a.id]);
  });

  it('refuses the outcome of a lease that expired and was claimed again, and records the new one', async () => {
    const t = current();
    await t.seed([seedEvent(t.now(), randomUUID(), -1000, { retryConfig: retries })]);
    const [first] = await t.store.claimBacklog(claimOptions({ leaseMs: SHORT_LEASE_MS }));
    if (!first) throw new Error('not claimed');
    await t.advance(PAST_SHORT_LEASE_MS);
    // A recovery while the first worker stalled: the attempt goes back and another worker takes it.
    await t.store.release(await t.store.expiredLeases(10, []));
    const [second] = await t.store.claimBacklog(claimOptions({ owner: 2 }));
    expect(second).toMatchObject({ id: first.id, claimCount: 2 });
    if (!second) return;
    const late = planRecord(first, outcome(t, false), randomUUID);
    expect(await t.store.record([late])).toEqual([]);
    expect(await t.read(late.retry?.id ?? '')).toBeUndefined();
    expect(await t.read(first.id)).toMatchObject({ status: 'processing', leaseToken: second.leaseToken });
    expect(await t.store.record([planRecord(second, outcome(t, true), randomUUID)])).toEqual([first.id]);
    expect(await t.read(first.id)).toMatchObject({ status: 'success', claimCount: 2 });
  });

  it(`records an attempt whose lease expired ${MAX_CLAIMS} times as interrupted, and retries it`, async () => {
    const t = current();
    await t.seed([seedEvent(t.now(), randomUUID(), -1000, { retryConfig: retries })]);
    let expired: ClaimedAttempt[] = [];
    for (let claim = 1; claim <= MAX_CLAIMS; claim += 1) {
      await t.store.release(expired);
      expect(await t.store.claimBacklog(claimOptions({ leaseMs: SHORT_LEASE_MS }))).toHaveLength(1);
      await t.advance(PAST_SHORT_LEASE_MS);
      expired = await t.store.expiredLeases(10, []);
    }
    const [attempt] = expired;
    expect(attempt?.claimCount).toBe(MAX_CLAIMS);
    if (!attempt) return;
    const record = planRecord(attempt, interruptedOutcome(attempt, t.now()), randomUUID);
    expect(await t.store.record([record])).toEqual([attempt.id]);
    expect(await t.read(attempt.id)).toMatchObject({ status: 'processing', leaseToken: null });
    expect((await t.read(attempt.id))?.responseError).toMatch(/interrupted 3 times/);
    expect(await t.read(record.retry?.id ?? '')).toMatchObject({ status: 'pending', attempt: 1 });
  });

  it('fails an event missed during downtime without a call and without retries', async () => {
    const t = current();
    const missed = seedEvent(t.now(), randomUUID(), -2 * HOUR, { retryConfig: retries });
    await t.seed([missed]);
    const [attempt] = await t.store.claimBacklog(claimOptions());
    expect(attempt).toMatchObject({ id: missed.id, retryConfig: retries });
    if (!attempt) return;
    const now = t.now();
    expect(isMissed(attempt.scheduledAt, HOUR, now)).toBe(true);
    const record = planRecord(attempt, missedOutcome(attempt, now, HOUR), randomUUID, { executed: false });
    expect(await t.store.record([record])).toEqual([attempt.id]);
    const stored = await t.read(attempt.id);
    expect(stored).toMatchObject({ status: 'failed', executedAt: null, responseStatus: null });
    expect(stored?.responseError).toMatch(/^missed: it was due 120 min ago/);
    expect(await t.store.dueBacklog()).toBe(0);
    expect(await t.store.claimBacklog(claimOptions())).toEqual([]);
  });
}
