import { verifyWebhook } from '@webhook-scheduler/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_ID, bodies, expectBody } from '../../test/expect.js';
import {
  type TestApp,
  type TestDatabase,
  type TestTeam,
  createTestDatabase,
  databaseUrl,
  startTestApp,
} from '../../test/harness.js';
import { expectAlertMessage } from '../../test/alert-messages.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';
import { type ServiceProcess, startServiceProcess } from '../../test/service-process.js';
import { setAlertUrl } from '../teams/team-alerts.service.js';
import { getSigningSecrets } from '../teams/teams.service.js';

// Two real scheduler processes share the deliveries of one per-second cron whose receiver always
// answers 500: the cron must pause after exactly `pause_after_failures` failed occurrences, and the
// team's alert URL must get exactly one signed cron.paused message.

let receiver: Receiver;
let db: TestDatabase;
let app: TestApp;
let team: TestTeam;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  db = await createTestDatabase();
  app = await startTestApp({ database: db });
  team = await app.createTeam();
  await setAlertUrl(app.orm.em.fork(), team.teamId, `${receiver.url}/alerts`, new Date());
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.stop()));
});
afterAll(async () => {
  await app.close();
  await db.drop();
  await receiver.close();
});

const cronOf = async (id: string) =>
  expectBody(await app.request('GET', `/api/v1/crons/${id}`, { key: team.key }), 200, bodies.cron).data;

async function occurrenceStatuses(cronId: string): Promise<Record<string, number>> {
  const rows = await app.sql<{ status: string; n: number }>(
    `select status, count(*)::int as n from events where cron_id = $1 and retry_of is null group by status`,
    [cronId],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

describe('pause_after_failures with two scheduler processes', () => {
  it('pauses after exactly 3 failed occurrences, alerts once (signed), and resumes on is_active: true', async () => {
    receiver.reply('/always-500', { status: 500 });
    const url = databaseUrl(db.connection);
    for (let i = 0; i < 2; i++)
      running.push(await startServiceProcess('scheduler', url, { LEASE_GRACE: '1s' }));

    const created = await app.request('POST', '/api/v1/crons', {
      key: team.key,
      body: {
        webhook_url: `${receiver.url}/always-500`,
        cron_expression: '* * * * * *',
        pause_after_failures: 3,
      },
    });
    const cron = expectBody(created, 201, bodies.cron).data;
    expect(cron).toMatchObject({ pause_after_failures: 3, consecutive_failures: 0, paused_reason: null });

    const paused = await eventually(
      () => cronOf(cron.id),
      (current) => !current.is_active,
      20_000,
    );
    expect(paused).toMatchObject({
      is_active: false,
      paused_reason: 'failures',
      consecutive_failures: 3,
      last_status: 'failed',
      next_run_at: null,
    });
    expect(paused.last_run_at).not.toBeNull();

    const [alert] = await receiver.waitFor(
      1,
      (request) => request.path === '/alerts' && request.body.includes('"cron.paused"'),
      10_000,
    );
    // Long enough for a second process's alert, or a 4th occurrence, to show up.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await occurrenceStatuses(cron.id)).toEqual({ failed: 3 });
    expect(receiver.requests.filter((request) => request.path === '/always-500')).toHaveLength(3);
    const pausedAlerts = receiver.requests.filter(
      (request) => request.path === '/alerts' && request.body.includes('"cron.paused"'),
    );
    expect(pausedAlerts).toHaveLength(1);

    const { current: secret } = await getSigningSecrets(app.orm.em.fork(), team.teamId, new Date());
    const verified = await verifyWebhook({ secret, headers: alert?.headers ?? {}, body: alert?.body ?? '' });
    expect(verified.id).toBeTruthy();
    expect(verified.alert?.type).toBe('cron.paused');
    // Each message as the contract describes it: the same fields, no others.
    expect(expectAlertMessage(alert?.body ?? '')).toMatchObject({
      type: 'cron.paused',
      data: {
        cron_id: cron.id,
        webhook_url: cron.webhook_url,
        consecutive_failures: 3,
        paused_reason: 'failures',
      },
    });
    // Each failed occurrence raised its own event.failed alert; no alert is about an alert.
    const failedAlerts = receiver.requests.filter(
      (request) => request.path === '/alerts' && request.body.includes('"event.failed"'),
    );
    expect(failedAlerts).toHaveLength(3);
    for (const alert of failedAlerts) {
      expect(alert.headers['webhook-id']).toMatch(EVENT_ID);
      expect(expectAlertMessage(alert.body)).toMatchObject({
        type: 'event.failed',
        data: { cron_id: cron.id, webhook_url: cron.webhook_url, response_status: 500 },
      });
    }

    const resumed = await app.request('PATCH', `/api/v1/crons/${cron.id}`, {
      key: team.key,
      body: { is_active: true },
    });
    expect(expectBody(resumed, 200, bodies.cron).data).toMatchObject({
      is_active: true,
      paused_reason: null,
      consecutive_failures: 0,
    });
    await receiver.waitFor(4, (request) => request.path === '/always-500', 10_000);
    await app.request('DELETE', `/api/v1/crons/${cron.id}`, { key: team.key });
  }, 60_000);
});
