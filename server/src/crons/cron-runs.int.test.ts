import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';
import { deleteExpiredChains } from '../events/store/expiry.js';
import { teamUsage } from '../usage/team-usage.js';

// A manual run of an inactive cron is a delivery like any other: sent when due, retried, counted
// against the team's pending quotas while it waits (its retries too), and removed by retention once
// finished — no run is left waiting or kept for good.

let receiver: Receiver;
let app: TestApp;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ scheduler: { webhookTimeoutMs: 2000 } });
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

describe('a manual run of an inactive cron', () => {
  it('is delivered and retried, counts while pending, and goes with retention once finished', async () => {
    receiver.reply('/flaky', (_, count) => ({ status: count === 1 ? 500 : 200 }));
    const team = await app.createTeam();
    const cron = expectBody(
      await app.request('POST', '/api/v1/crons', {
        key: team.key,
        body: {
          webhook_url: `${receiver.url}/flaky`,
          cron_expression: '0 0 1 1 *',
          payload: 'x'.repeat(98),
          retry_config: { maxRetries: 1, backoffMs: 2000, backoffType: 'linear' },
          is_active: false,
        },
      }),
      201,
      bodies.cron,
    ).data;
    const run = expectBody(
      await app.request('POST', `/api/v1/crons/${cron.id}/trigger`, { key: team.key }),
      201,
      bodies.event,
    ).data;
    expect(await teamUsage(app.orm.em.fork(), team.teamId)).toMatchObject({
      pending_events: 1,
      pending_bytes: 100,
    });

    // The first call fails: its retry waits, marked as the run's and counted like it.
    await receiver.waitFor(1, (request) => request.path === '/flaky', 10_000);
    const [retry] = await eventually(
      () =>
        app.sql<{ status: string; triggered: boolean }>(
          'select status, triggered from events where retry_of = $1',
          [run.id],
        ),
      (rows) => rows.length === 1,
    );
    expect(retry).toEqual({ status: 'pending', triggered: true });
    expect(await teamUsage(app.orm.em.fork(), team.teamId)).toMatchObject({
      pending_events: 1,
      pending_bytes: 100,
    });

    await eventually(
      () => app.request('GET', `/api/v1/events/${run.id}`, { key: team.key }),
      (response) => response.body.data.status === 'success',
    );
    expect(await teamUsage(app.orm.em.fork(), team.teamId)).toMatchObject({
      pending_events: 0,
      pending_bytes: 0,
    });
    const expired = await deleteExpiredChains(app.orm.em.fork(), {
      teamId: team.teamId,
      cutoff: new Date(Date.now() + 1000),
      chains: 10,
    });
    expect(expired).toEqual({ chains: 1, rows: 2 });
  });
});
