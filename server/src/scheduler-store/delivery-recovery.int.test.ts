import { Timers } from '@webhook-scheduler/scheduler';
import { describe, expect, it } from 'vitest';
import { type EventFixture, endedAttempt, makeEvent } from '../../test/factories.js';
import { deliverySetup } from '../../test/delivery-setup.js';
import { createEventStore } from './event-store.js';

const t = deliverySetup();

/** The scheduler's store, used directly to play a worker whose writes race others. */
const eventStore = () => createEventStore(t.app.orm, new Timers({ shards: 1 }), { circuitFailures: 10 });

describe('recovery', () => {
  /** An event due now unless told otherwise; with a lease, an attempt in flight. */
  async function insertEvent({
    url,
    ...overrides
  }: Partial<EventFixture> & { url: string }): Promise<string> {
    const event = await makeEvent(t.app.orm.em.fork(), t.team.teamId, {
      scheduledAt: new Date(),
      webhookUrl: url,
      ...overrides,
    });
    return event.id;
  }

  it('fails an event missed by longer than the tolerance without calling it', async () => {
    const id = await insertEvent({
      url: `${t.receiver.url}/missed`,
      scheduledAt: new Date(Date.now() - 2 * 3600_000),
    });
    const done = await t.api.settled(id);
    expect(done.status).toBe('failed');
    expect(done.response_error).toMatch(/missed/);
    expect(done.executed_at).toBeNull();
    expect(t.receiver.requests.filter((r) => r.path === '/missed')).toHaveLength(0);
  });

  it('delivers late an overdue event within the tolerance', async () => {
    const id = await insertEvent({
      url: `${t.receiver.url}/late`,
      scheduledAt: new Date(Date.now() - 60_000),
    });
    expect((await t.api.settled(id)).status).toBe('success');
    expect(t.receiver.requests.filter((r) => r.path === '/late')).toHaveLength(1);
  });

  it('re-delivers an attempt whose lease expired', async () => {
    const id = await insertEvent({
      url: `${t.receiver.url}/expired-lease`,
      scheduledAt: new Date(Date.now() - 30_000),
      status: 'processing',
      leaseToken: '00000000-0000-4000-8000-000000000001',
      leaseExpiresAt: new Date(Date.now() - 1000),
      claimCount: 1,
    });
    expect((await t.api.settled(id)).status).toBe('success');
    expect(t.receiver.requests.filter((r) => r.path === '/expired-lease')).toHaveLength(1);
  });

  it('fails an attempt whose lease keeps expiring', async () => {
    const id = await insertEvent({
      url: `${t.receiver.url}/poisoned`,
      scheduledAt: new Date(Date.now() - 30_000),
      status: 'processing',
      leaseToken: '00000000-0000-4000-8000-000000000002',
      leaseExpiresAt: new Date(Date.now() - 1000),
      claimCount: 3,
    });
    const done = await t.api.settled(id);
    expect(done.status).toBe('failed');
    expect(done.response_error).toMatch(/interrupted 3 times/);
    expect(t.receiver.requests.filter((r) => r.path === '/poisoned')).toHaveLength(0);
  });

  it('schedules no further retry once the delivery was ended meanwhile (cron replaced)', async () => {
    const original = await insertEvent({ url: `${t.receiver.url}/ended`, status: 'failed' });
    const attempt = await insertEvent({
      url: `${t.receiver.url}/ended`,
      status: 'processing',
      leaseToken: '00000000-0000-4000-8000-000000000005',
      leaseExpiresAt: new Date(Date.now() + 60_000),
    });
    await t.app.sql('update events set retry_of = $2, attempt = 1 where id = $1', [attempt, original]);
    const store = eventStore();
    const written = await store.record([
      endedAttempt(
        { id: attempt, leaseToken: '00000000-0000-4000-8000-000000000005' },
        {
          status: 'failed',
          responseStatus: 500,
          responseError: 'HTTP 500',
          originalId: original,
          retry: {
            id: '00000000-0000-4000-8000-000000000006',
            attempt: 2,
            scheduledAt: new Date(Date.now() + 60_000),
            teamId: t.team.teamId,
            cronId: null,
            originalId: original,
            webhookUrl: `${t.receiver.url}/ended`,
            method: 'POST',
            headers: null,
            payload: null,
            retryConfig: { maxRetries: 3, backoffMs: 100, backoffType: 'linear' },
            timeoutMs: null,
            traceContext: null,
          },
        },
      ),
    ]);
    expect(written).toEqual([attempt]);
    expect(await t.app.sql('select id from events where retry_of = $1 and attempt = 2', [original])).toEqual(
      [],
    );
  });

  it('does not let a stale worker overwrite the outcome after its lease was taken over', async () => {
    const id = await insertEvent({
      url: `${t.receiver.url}/stale`,
      status: 'processing',
      leaseToken: '00000000-0000-4000-8000-000000000003',
      leaseExpiresAt: new Date(Date.now() + 60_000),
    });
    await t.app.sql(
      `update event_queue set lease_token = '00000000-0000-4000-8000-000000000004' where event_id = $1`,
      [id],
    );
    const store = eventStore();
    const written = await store.record([
      endedAttempt({ id, leaseToken: '00000000-0000-4000-8000-000000000003' }, { responseBody: 'stale' }),
    ]);
    expect(written).toEqual([]);
    expect((await t.api.read(id)).status).toBe('processing');
  });
});
