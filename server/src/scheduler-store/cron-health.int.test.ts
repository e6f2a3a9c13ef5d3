import { randomUUID } from 'node:crypto';
import { Timers } from '@webhook-scheduler/scheduler';
import type { AttemptRecord } from '@webhook-scheduler/scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAlertMessage } from '../../test/alert-messages.js';
import { bodies, expectBody, expectValidationError } from '../../test/expect.js';
import { cronBody, endedAttempt, makeCron, makeEvent } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { setAlertUrl } from '../teams/team-alerts.service.js';
import { recordOutcomes } from './record-outcomes.js';

// The statement that records a delivery's end, against PostgreSQL: the cron's health and the
// failure alerts it raises.

let app: TestApp;
const timers = new Timers({ shards: 1 });

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** A claimed (processing) original event, as the scheduler holds it. */
async function claimed(team: TestTeam, overrides: Parameters<typeof makeEvent>[2] = {}) {
  return makeEvent(app.orm.em.fork(), team.teamId, {
    status: 'processing',
    leaseToken: randomUUID(),
    leaseExpiresAt: new Date(Date.now() + 60_000),
    ...overrides,
  });
}

const ending = (event: { id: string; leaseToken: string | null }, ok: boolean): AttemptRecord =>
  endedAttempt(event, ok ? {} : { status: 'failed', responseStatus: 500, responseError: 'HTTP 500' });

const record = (records: AttemptRecord[]) => recordOutcomes(app.orm.em.fork(), timers, records);

async function alertsOf(
  teamId: string,
): Promise<{ payload: { type: string; data: Record<string, unknown> } }[]> {
  return app.sql('select payload from events where team_id = $1 and alert order by created_at', [teamId]);
}

async function cronRow(id: string) {
  const [row] = await app.sql<{
    is_active: boolean;
    consecutive_failures: number;
    last_status: string | null;
    paused_reason: string | null;
  }>('select is_active, consecutive_failures, last_status, paused_reason from crons where id = $1', [id]);
  return row;
}

describe('recording the end of a cron occurrence', () => {
  it('counts failed occurrences, resets on a success, and ignores manual runs', async () => {
    const team = await app.createTeam();
    const cron = await makeCron(app.orm.em.fork(), team.teamId, { pauseAfterFailures: 10 });
    const at = (s: number) => new Date(Date.now() + 3_600_000 + s * 1000);
    const [a, b] = [
      await claimed(team, { cronId: cron.id, scheduledAt: at(1) }),
      await claimed(team, { cronId: cron.id, scheduledAt: at(2) }),
    ];
    await record([ending(a, false), ending(b, false)]);
    expect(await cronRow(cron.id)).toMatchObject({
      consecutive_failures: 2,
      last_status: 'failed',
      is_active: true,
    });

    const run = await claimed(team, { cronId: cron.id, scheduledAt: at(3) });
    await app.sql('update events set triggered = true where id = $1', [run.id]);
    await record([ending(run, true)]);
    expect(await cronRow(cron.id)).toMatchObject({ consecutive_failures: 2 });

    const c = await claimed(team, { cronId: cron.id, scheduledAt: at(4) });
    const d = await claimed(team, { cronId: cron.id, scheduledAt: at(5) });
    // In one batch, a success then a failure: the streak is the failures after the last success.
    await record([ending(d, false), ending(c, true)]);
    expect(await cronRow(cron.id)).toMatchObject({ consecutive_failures: 1, last_status: 'failed' });
  });

  it("leaves a healthy cron's row alone when its occurrence succeeds at once, and shows that run as its last", async () => {
    const team = await app.createTeam();
    const cron = await makeCron(app.orm.em.fork(), team.teamId, { pauseAfterFailures: 3 });
    // Occurrences that were due: a cron's last run is read from those.
    const at = (s: number) => new Date(Date.now() - 60_000 + s * 1000);
    const version = async () =>
      (await app.sql<{ v: string }>('select xmin::text as v from crons where id = $1', [cron.id]))[0]?.v;
    const shown = async () => {
      const one = await app.request('GET', `/api/v1/crons/${cron.id}`, { key: team.key });
      const list = await app.request('GET', '/api/v1/crons', { key: team.key });
      expect(list.body.data).toEqual([one.body.data]);
      return one.body.data;
    };
    const endAt = async (s: number, ok: boolean) => {
      const event = await claimed(team, { cronId: cron.id, scheduledAt: at(s) });
      const executedAt = new Date();
      await record([{ ...ending(event, ok), executedAt }]);
      return executedAt.toISOString();
    };

    // Its first success writes it: it had no last status.
    const first = await endAt(1, true);
    expect(await cronRow(cron.id)).toMatchObject({ consecutive_failures: 0, last_status: 'success' });
    const written = await version();
    const second = await endAt(2, true);
    expect(await version()).toBe(written);
    expect(second > first).toBe(true);
    expect(await shown()).toMatchObject({
      last_run_at: second,
      last_status: 'success',
      consecutive_failures: 0,
    });

    // A failure writes it, and so does the success that ends the streak; then it is left alone again.
    const failed = await endAt(3, false);
    expect(await cronRow(cron.id)).toMatchObject({ consecutive_failures: 1, last_status: 'failed' });
    expect(await shown()).toMatchObject({ last_run_at: failed, consecutive_failures: 1 });
    const recovered = await endAt(4, true);
    expect(await shown()).toMatchObject({
      last_run_at: recovered,
      last_status: 'success',
      consecutive_failures: 0,
    });
    const healthy = await version();
    expect(healthy).not.toBe(written);
    const fifth = await endAt(5, true);
    expect(await version()).toBe(healthy);
    expect(await shown()).toMatchObject({ last_run_at: fifth, consecutive_failures: 0 });
  });

  it('counts each cron of a batch of several crons apart', async () => {
    const team = await app.createTeam();
    const em = () => app.orm.em.fork();
    const [x, y, z] = [
      await makeCron(em(), team.teamId, { pauseAfterFailures: 10 }),
      await makeCron(em(), team.teamId, { pauseAfterFailures: 10 }),
      await makeCron(em(), team.teamId, { pauseAfterFailures: 10 }),
    ];
    for (const [cron, streak] of [
      [x, 3],
      [y, 2],
      [z, 1],
    ] as const)
      await app.sql('update crons set consecutive_failures = $2 where id = $1', [cron.id, streak]);
    const at = (s: number) => new Date(Date.now() + 3_600_000 + s * 1000);
    const occurrence = (cronId: string, s: number) => claimed(team, { cronId, scheduledAt: at(s) });
    const ends = [
      ending(await occurrence(x.id, 1), false),
      ending(await occurrence(y.id, 1), true),
      ending(await occurrence(z.id, 1), true),
      ending(await occurrence(x.id, 2), false),
      ending(await occurrence(y.id, 2), false),
    ];
    await record(ends.reverse());
    expect(await cronRow(x.id)).toMatchObject({ consecutive_failures: 5, last_status: 'failed' });
    expect(await cronRow(y.id)).toMatchObject({ consecutive_failures: 1, last_status: 'failed' });
    expect(await cronRow(z.id)).toMatchObject({ consecutive_failures: 0, last_status: 'success' });
  });

  it('pauses once when the streak reaches pause_after_failures, dropping its pending events', async () => {
    const team = await app.createTeam();
    await setAlertUrl(app.orm.em.fork(), team.teamId, 'https://ops.example.com/alerts', new Date());
    const cron = await makeCron(app.orm.em.fork(), team.teamId, { pauseAfterFailures: 2 });
    const pending = await makeEvent(app.orm.em.fork(), team.teamId, { cronId: cron.id });
    const first = await claimed(team, { cronId: cron.id });
    const second = await claimed(team, { cronId: cron.id });
    const third = await claimed(team, { cronId: cron.id });
    await record([ending(first, false)]);
    await record([ending(second, false)]);
    expect(await cronRow(cron.id)).toMatchObject({
      is_active: false,
      paused_reason: 'failures',
      consecutive_failures: 2,
    });
    expect(await app.sql('select id from events where id = $1', [pending.id])).toEqual([]);
    // An occurrence still in flight when the cron paused fails too: no second pause, no second alert.
    await record([ending(third, false)]);
    const alerts = await alertsOf(team.teamId);
    expect(alerts.filter((alert) => alert.payload.type === 'cron.paused')).toHaveLength(1);
    expect(alerts.filter((alert) => alert.payload.type === 'event.failed')).toHaveLength(3);
    for (const alert of alerts) expectAlertMessage(alert.payload);
  });
});

describe('failure alerts', () => {
  it('alerts once about a manual event whose final attempt failed, and never about an alert', async () => {
    const team = await app.createTeam();
    await setAlertUrl(app.orm.em.fork(), team.teamId, 'https://ops.example.com/alerts', new Date());
    const event = await claimed(team, { webhookUrl: 'https://example.com/broken' });
    await record([ending(event, false)]);
    const [alert] = await alertsOf(team.teamId);
    expect(expectAlertMessage(alert?.payload)).toMatchObject({
      type: 'event.failed',
      data: {
        event_id: event.id,
        cron_id: null,
        webhook_url: 'https://example.com/broken',
        response_status: 500,
      },
    });

    const [alertRow] = await app.sql<{ id: string }>('select id from events where team_id = $1 and alert', [
      team.teamId,
    ]);
    const leaseToken = randomUUID();
    await app.sql(`update event_queue set lease_token = $2 where event_id = $1`, [alertRow?.id, leaseToken]);
    await record([ending({ id: alertRow?.id ?? '', leaseToken }, false)]);
    expect(await alertsOf(team.teamId)).toHaveLength(1);
  });

  it('sends nothing when the team has no alert URL', async () => {
    const team = await app.createTeam();
    await record([ending(await claimed(team), false)]);
    expect(await alertsOf(team.teamId)).toEqual([]);
  });
});

describe('the read-only cron fields', () => {
  it('shows the next run of an active cron, null when inactive, and no history yet', async () => {
    const team = await app.createTeam();
    const body = cronBody({ cron_expression: '0 3 * * *' });
    const active = expectBody(
      await app.request('POST', '/api/v1/crons', { key: team.key, body }),
      201,
      bodies.cron,
    ).data;
    const next = new Date();
    next.setUTCHours(3, 0, 0, 0);
    if (next.getTime() <= Date.now()) next.setUTCDate(next.getUTCDate() + 1);
    expect(active).toMatchObject({
      next_run_at: next.toISOString(),
      last_run_at: null,
      last_status: null,
      consecutive_failures: 0,
      paused_reason: null,
      pause_after_failures: null,
    });
    const inactive = await app.request('POST', '/api/v1/crons', {
      key: team.key,
      body: { ...body, is_active: false },
    });
    expect(expectBody(inactive, 201, bodies.cron).data.next_run_at).toBeNull();
  });

  it.each([0, 1001, 1.5, '3'])('refuses pause_after_failures %j with 400 naming it', async (value) => {
    const team = await app.createTeam();
    const issues = expectValidationError(
      await app.request('POST', '/api/v1/crons', {
        key: team.key,
        body: cronBody({ pause_after_failures: value as number }),
      }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([['pause_after_failures']]);
  });

  it.each([1, 1000, null])('accepts pause_after_failures %j', async (value) => {
    const team = await app.createTeam();
    const cron = await app.request('POST', '/api/v1/crons', {
      key: team.key,
      body: cronBody({ pause_after_failures: value }),
    });
    expect(expectBody(cron, 201, bodies.cron).data.pause_after_failures).toBe(value);
  });

  it('refuses a read-only field in a body', async () => {
    const team = await app.createTeam();
    const issues = expectValidationError(
      await app.request('POST', '/api/v1/crons', {
        key: team.key,
        body: { ...cronBody(), consecutive_failures: 0 },
      }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([['consecutive_failures']]);
  });
});
