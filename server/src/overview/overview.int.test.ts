import type { UpcomingOverview } from '@webhook-scheduler/contract';
import { createClient } from '@webhook-scheduler/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueSoon } from '../../test/due-soon.js';
import { expectError } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';
import { type TestUser, as, signUp } from '../../test/sessions.js';
import { createApiKey } from '../teams/teams.service.js';
import { foldDeliveryMinutes } from './store/delivery-minutes.js';

// The Overview's figures from real deliveries: the in-process scheduler calls a receiver on
// loopback, and the outcome statement appends the rollup the routes read.

let app: TestApp;
let receiver: Receiver;
let user: TestUser;

const soon = (ms: number) => new Date(Date.now() + ms).toISOString();
const deliveries = (window = '1h', who: TestUser = user, teamId = user.teamId) =>
  app.request('GET', `/api/dashboard/teams/${teamId}/overview/deliveries?window=${window}`, as(who));
const upcoming = (who: TestUser = user, teamId = user.teamId) =>
  app.request('GET', `/api/dashboard/teams/${teamId}/overview/upcoming`, as(who));

beforeAll(async () => {
  app = await startTestApp({ scheduler: {} });
  receiver = await startReceiver();
  receiver.reply('/down', { status: 503, body: 'down' });
  user = await signUp(app);
}, 30_000);
afterAll(async () => {
  await receiver?.close();
  await app?.close();
});

describe('the deliveries overview', () => {
  it('counts every call by outcome in its minute, with lateness percentiles, and folding changes nothing', async () => {
    const { key } = await createApiKey(app.orm.em.fork(), user.teamId, { name: 'overview' }, new Date());
    const client = createClient({ baseUrl: app.url, apiKey: key });
    for (let i = 0; i < 3; i += 1)
      await dueSoon((at) => client.events.create({ webhook_url: `${receiver.url}/ok`, scheduled_at: at }));
    // Two failed calls that planned a retry, then one that ended the delivery; and one with no retry.
    await dueSoon((at) =>
      client.events.create({
        webhook_url: `${receiver.url}/down`,
        scheduled_at: at,
        retry_config: { maxRetries: 2, backoffMs: 100, backoffType: 'linear' },
      }),
    );
    await dueSoon((at) => client.events.create({ webhook_url: `${receiver.url}/down`, scheduled_at: at }));

    const expected = { succeeded: 3, retrying: 2, failed: 2 };
    const response = await eventually(
      () => deliveries(),
      (answer) =>
        answer.status === 200 && JSON.stringify(pick(answer.body.data.totals)) === JSON.stringify(expected),
    );
    const data = response.body.data;
    expect(data).toMatchObject({ window: '1h', bin_seconds: 60, lateness_relative_error: 0.0905 });
    expect(data.bins).toHaveLength(60);
    const sums = (key: 'succeeded' | 'retrying' | 'failed') =>
      data.bins.reduce((total: number, bin: Record<string, number>) => total + (bin[key] ?? 0), 0);
    expect({ succeeded: sums('succeeded'), retrying: sums('retrying'), failed: sums('failed') }).toEqual(
      expected,
    );
    expect(data.totals.lateness_p50_ms).toBeGreaterThanOrEqual(0);
    expect(data.totals.lateness_p99_ms).toBeGreaterThanOrEqual(data.totals.lateness_p50_ms);
    expect(Date.parse(data.bins.at(-1).at)).toBeLessThanOrEqual(Date.parse(data.to));

    // A day's and a week's windows read the same calls.
    for (const window of ['24h', '7d']) {
      const wider = await deliveries(window);
      expect(pick(wider.body.data.totals)).toEqual(expected);
    }

    const rowsBefore = await app.sql<{ n: number }>(
      'select count(*)::int as n from delivery_minutes where team_id = $1',
      [user.teamId],
    );
    expect(rowsBefore[0]?.n).toBeGreaterThan(0);
    await foldDeliveryMinutes(app.orm.em.fork(), 1000);
    const keys = await app.sql<{ rows: number; folded: boolean }>(
      'select count(*)::int as rows, bool_and(folded) as folded from delivery_minutes where team_id = $1 group by minute',
      [user.teamId],
    );
    expect(keys.every((key) => key.rows === 1 && key.folded)).toBe(true);
    expect((await deliveries()).body.data.totals).toEqual(data.totals);
  }, 30_000);

  it('answers empty bins for a team without calls', async () => {
    const other = await signUp(app);
    const response = await deliveries('24h', other, other.teamId);
    expect(response.status).toBe(200);
    expect(response.body.data.bins).toHaveLength(96);
    expect(response.body.data.totals).toEqual({
      succeeded: 0,
      retrying: 0,
      failed: 0,
      lateness_p50_ms: null,
      lateness_p99_ms: null,
    });
  });

  it('answers 404 NOT_FOUND for a team the user is not in, and 400 for an unknown window', async () => {
    const stranger = await signUp(app);
    expectError(await deliveries('1h', stranger, user.teamId), 404, 'NOT_FOUND');
    expectError(await upcoming(stranger, user.teamId), 404, 'NOT_FOUND');
    expectError(await deliveries('30d'), 400, 'VALIDATION_ERROR');
  });
});

describe('the upcoming overview', () => {
  it('counts the next hour’s pending events and cron runs per minute, each run once', async () => {
    const owner = await signUp(app);
    const { key } = await createApiKey(app.orm.em.fork(), owner.teamId, { name: 'overview' }, new Date());
    const client = createClient({ baseUrl: app.url, apiKey: key });
    await client.events.create({ webhook_url: `${receiver.url}/later`, scheduled_at: soon(20 * 60_000) });
    await client.events.create({
      webhook_url: `${receiver.url}/much-later`,
      scheduled_at: soon(2 * 3_600_000),
    });
    await client.crons.create({ webhook_url: `${receiver.url}/tick`, cron_expression: '*/10 * * * * *' });
    await client.crons.create({
      webhook_url: `${receiver.url}/off`,
      cron_expression: '* * * * * *',
      is_active: false,
    });

    const response = await upcoming(owner, owner.teamId);
    expect(response.status).toBe(200);
    const data = response.body.data as UpcomingOverview;
    expect(data.minutes).toHaveLength(61);
    // Every run of the cron in the next hour, as a pending event already or not yet: 360.
    const ticks = data.events - 1 + data.cron_runs;
    expect(ticks).toBeGreaterThanOrEqual(359);
    expect(ticks).toBeLessThanOrEqual(360);
    expect(data.events).toBeGreaterThanOrEqual(2);
    const perMinute = data.minutes.reduce((total, minute) => total + minute.events + minute.cron_runs, 0);
    expect(perMinute).toBe(data.events + data.cron_runs);
    expect(data).toMatchObject({ waiting_capped: false });
  });
});

function pick(totals: Record<string, unknown>) {
  return { succeeded: totals.succeeded, retrying: totals.retrying, failed: totals.failed };
}
