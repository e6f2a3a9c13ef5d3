import { verifyWebhook } from '@webhook-scheduler/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueSoon } from '../../test/due-soon.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { expectAlertMessage } from '../../test/alert-messages.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';
import { setAlertUrl } from '../teams/team-alerts.service.js';
import { getSigningSecrets } from '../teams/teams.service.js';

let app: TestApp;
let team: TestTeam;
let down: Receiver;
let alerts: Receiver;
let up = false;

beforeAll(async () => {
  down = await startReceiver();
  alerts = await startReceiver();
  app = await startTestApp({
    scheduler: { webhookTimeoutMs: 2000, circuitFailures: 3, circuitCooldownMs: 1000 },
  });
  team = await app.createTeam();
  await setAlertUrl(app.orm.em.fork(), team.teamId, `${alerts.url}/alerts`, new Date());
  down.reply('/hook', () => (up ? {} : { status: 503, body: 'down' }));
});
afterAll(async () => {
  await app.close();
  await down.close();
  await alerts.close();
});

const destination = () =>
  app.request('GET', `/api/v1/destinations/${encodeURIComponent(down.url)}`, { key: team.key });

async function schedule(count: number): Promise<string[]> {
  const created = await dueSoon(async (at) => {
    const response = await app.request('POST', '/api/v1/events/batch', {
      key: team.key,
      body: {
        events: Array.from({ length: count }, () => ({
          webhook_url: `${down.url}/hook`,
          scheduled_at: at,
          retry_config: { maxRetries: 3, backoffMs: 100, backoffType: 'linear' },
        })),
      },
    });
    expect(response.status, response.text).toBe(201);
    return response;
  }, 300);
  return created.body.data.map((event: { id: string }) => event.id);
}

const alertsOf = (type: string) => alerts.requests.filter((request) => request.body.includes(`"${type}"`));

describe('the circuit breaker', () => {
  it('opens after consecutive failures, spends no attempt while open, probes once per cool-down, and closes on success', async () => {
    const ids = await schedule(3);
    const opened = await eventually(
      destination,
      (response) => response.body.data.circuit !== 'closed',
      15_000,
    );
    expect(opened.body.data.circuit).toBe('open');
    expect(opened.body.data.open_until).not.toBeNull();
    const [openedAlert] = await alerts.waitFor(1, (request) =>
      request.body.includes('"destination.circuit_opened"'),
    );
    const { current: secret } = await getSigningSecrets(app.orm.em.fork(), team.teamId, new Date());
    expect(
      (await verifyWebhook({ secret, headers: openedAlert!.headers, body: openedAlert!.body })).id,
    ).toBeTruthy();
    const message = expectAlertMessage(openedAlert!.body);
    expect(message).toMatchObject({ type: 'destination.circuit_opened', data: { origin: down.url } });
    // At least the three that opened it: retries failing in the same batch count on.
    expect(
      message.type === 'destination.circuit_opened' && message.data.consecutive_failures,
    ).toBeGreaterThanOrEqual(3);

    // While open: the retries and new events wait; only probes reach the origin, one per cool-down.
    // (Retries claimed before the third failure was recorded may still have been under way.)
    await new Promise((resolve) => setTimeout(resolve, 300));
    const callsWhenOpened = down.requests.length;
    expect(callsWhenOpened).toBeLessThanOrEqual(6);
    await schedule(2);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const probes = down.requests.length - callsWhenOpened;
    expect(probes).toBeGreaterThanOrEqual(1);
    expect(probes).toBeLessThanOrEqual(2);
    const failed = await app.sql<{ n: string }>(
      `select count(*) as n from events where team_id = $1 and retry_of is null and status = 'failed'`,
      [team.teamId],
    );
    expect(Number(failed[0]?.n)).toBe(0);

    up = true;
    await eventually(destination, (response) => response.body.data.circuit === 'closed', 15_000);
    const [closedAlert] = await alerts.waitFor(
      1,
      (request) => request.body.includes('"destination.circuit_closed"'),
      10_000,
    );
    expect(expectAlertMessage(closedAlert?.body ?? '')).toMatchObject({
      type: 'destination.circuit_closed',
      data: { origin: down.url },
    });
    await eventually(
      () => app.sql<{ status: string }>('select status from events where id = any($1)', [ids]),
      (rows) => rows.every((row) => row.status === 'success'),
      15_000,
    );
    const settled = await eventually(destination, (response) => response.body.data.pending === 0, 15_000);
    expect(settled.body.data).toMatchObject({ circuit: 'closed', open_until: null, last_status: 'success' });
    expect(alertsOf('destination.circuit_opened')).toHaveLength(1);
    expect(alertsOf('destination.circuit_closed')).toHaveLength(1);
  });
});
