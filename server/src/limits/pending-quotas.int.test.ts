import { Event } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bodies, expectBody } from '../../test/expect.js';
import { cronBody, eventBody, makeEvent } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { expectQuota, payloadOf, teamWithLimits } from '../../test/limits.js';
import type { LimitOverrides } from './team-limits.rules.js';
import { setTeamLimits } from './team-limits.service.js';
import { teamUsage } from '../usage/team-usage.js';

// The pending quotas on every path that adds a team's own pending work: creates, batches, replays,
// manual runs of crons and a PUT that makes an event larger (docs/reference/behaviour.md#quotas).

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const teamWith = (overrides: LimitOverrides) => teamWithLimits(app, overrides);

const post = (team: TestTeam, path: string, body?: unknown) =>
  app.request('POST', path, { key: team.key, ...(body === undefined ? {} : { body }) });

async function eventsOf(team: TestTeam): Promise<number> {
  const [row] = await app.sql<{ n: number }>('select count(*)::int as n from events where team_id = $1', [
    team.teamId,
  ]);
  return row?.n ?? 0;
}

const batchBody = z.object({ data: z.array(Event.strict()) }).strict();

const usage = (team: TestTeam) => teamUsage(app.orm.em.fork(), team.teamId);

describe('the pending bytes quota', () => {
  it('accepts payloads and headers below and up to the limit, then refuses with 403 and creates nothing', async () => {
    const team = await teamWith({ max_pending_bytes: 300 });
    expectBody(await post(team, '/api/v1/events', eventBody({ payload: payloadOf(100) })), 201, bodies.event);
    // Header names and values count too: 4 + 96 bytes.
    const headers = { 'x-ab': 'v'.repeat(96) };
    expectBody(await post(team, '/api/v1/events', eventBody({ headers, payload: null })), 201, bodies.event);
    expectBody(await post(team, '/api/v1/events', eventBody({ payload: payloadOf(100) })), 201, bodies.event);
    expect(await usage(team)).toMatchObject({ pending_events: 3, pending_bytes: 300 });
    const refused = expectQuota(await post(team, '/api/v1/events', eventBody({ payload: payloadOf(2) })), {
      quota: 'pending_bytes',
      limit: 300,
      current: 300,
    });
    expect(refused.message).toBe(
      'Quota exceeded: the team has 300 bytes of payloads and headers in its pending events, its limit is 300, and this request adds 2',
    );
    // An event without payload or headers holds no bytes.
    expectBody(await post(team, '/api/v1/events', eventBody()), 201, bodies.event);
    expect(await eventsOf(team)).toBe(4);
  });

  it('refuses a batch whose bytes would pass it, all of it, and frees the bytes of a deleted event', async () => {
    const team = await teamWith({ max_pending_bytes: 1000 });
    const first = expectBody(
      await post(team, '/api/v1/events', eventBody({ payload: payloadOf(400) })),
      201,
      bodies.event,
    ).data;
    const batch = {
      events: [eventBody({ payload: payloadOf(300) }), eventBody({ payload: payloadOf(301) })],
    };
    expect(
      expectQuota(await post(team, '/api/v1/events/batch', batch), {
        quota: 'pending_bytes',
        limit: 1000,
        current: 400,
      }).message,
    ).toMatch(/and this request adds 601$/);
    expect(await eventsOf(team)).toBe(1);
    expect((await app.request('DELETE', `/api/v1/events/${first.id}`, { key: team.key })).status).toBe(200);
    expectBody(await post(team, '/api/v1/events/batch', batch), 201, batchBody);
    expect(await usage(team)).toMatchObject({ pending_events: 2, pending_bytes: 601 });
  });

  it('counts a PUT that makes an event larger, and lets one at the limit shrink', async () => {
    const team = await teamWith({ max_pending_bytes: 500 });
    const event = expectBody(
      await post(team, '/api/v1/events', eventBody({ payload: payloadOf(300) })),
      201,
      bodies.event,
    ).data;
    const put = (bytes: number) =>
      app.request('PUT', `/api/v1/events/${event.id}`, {
        key: team.key,
        body: eventBody({ payload: payloadOf(bytes) }),
      });
    expectBody(await put(500), 200, bodies.event);
    expectQuota(await put(501), { quota: 'pending_bytes', limit: 500, current: 500 });
    const [stored] = await app.sql<{ bytes: number }>(
      'select request_bytes as bytes from events where id = $1',
      [event.id],
    );
    expect(stored?.bytes).toBe(500);
    // Over the limit (it was lowered), a PUT that adds nothing still goes through.
    await setTeamLimits(app.orm.em.fork(), team.teamId, { max_pending_bytes: 100 }, new Date());
    expectBody(await put(500), 200, bodies.event);
    expectBody(await put(200), 200, bodies.event);
    expect(await usage(team)).toMatchObject({ pending_bytes: 200 });
  });
});

describe('manual runs and replays', () => {
  it('count against the pending events and bytes like creates, on an inactive cron too', async () => {
    const team = await teamWith({ max_pending_events: 2 });
    const cron = expectBody(
      await post(team, '/api/v1/crons', cronBody({ is_active: false, payload: payloadOf(50) })),
      201,
      bodies.cron,
    ).data;
    const trigger = () => post(team, `/api/v1/crons/${cron.id}/trigger`);
    expectBody(await trigger(), 201, bodies.event);
    expectBody(await trigger(), 201, bodies.event);
    expect(await usage(team)).toMatchObject({ pending_events: 2, pending_bytes: 100 });
    expectQuota(await trigger(), { quota: 'pending_events', limit: 2, current: 2 });

    await setTeamLimits(
      app.orm.em.fork(),
      team.teamId,
      { max_pending_events: 10, max_pending_bytes: 120 },
      new Date(),
    );
    expectQuota(await trigger(), { quota: 'pending_bytes', limit: 120, current: 100 });
    const done = await makeEvent(app.orm.em.fork(), team.teamId, {
      status: 'success',
      payload: payloadOf(20),
    });
    expectBody(await post(team, `/api/v1/events/${done.id}/replay`), 201, bodies.event);
    expectQuota(await post(team, `/api/v1/events/${done.id}/replay`), {
      quota: 'pending_bytes',
      limit: 120,
      current: 120,
    });
    expect(await usage(team)).toMatchObject({ pending_events: 3, pending_bytes: 120 });
  });

  it('do not count a cron’s scheduled occurrences, nor the service’s alerts', async () => {
    const team = await teamWith({ max_pending_events: 1 });
    expectBody(
      await post(team, '/api/v1/crons', cronBody({ cron_expression: '* * * * * *', payload: payloadOf(50) })),
      201,
      bodies.cron,
    );
    await app.sql(
      `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, alert,
                           request_bytes, created_at, updated_at)
       values (gen_random_uuid(), $1, 0, now() + interval '1 hour', 'pending', 'https://example.com/alerts',
               'https://example.com', 'POST', true, 100, now(), now())`,
      [team.teamId],
    );
    expect(await usage(team)).toMatchObject({ pending_events: 0, pending_bytes: 0 });
    expectBody(await post(team, '/api/v1/events', eventBody()), 201, bodies.event);
  });
});
