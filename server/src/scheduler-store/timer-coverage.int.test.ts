import { WRITER_HORIZON_MS } from '@webhook-scheduler/scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronBody, eventBody } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';

// Every way an event becomes pending, by an insert or by a new time, gives its second a timer job in
// the same transaction (Timers.schedule): within the writers' horizon none waits without one. No
// scheduler runs here, so nothing is claimed and every pending event stays to be checked.

let app: TestApp;
let team: TestTeam;
beforeAll(async () => {
  app = await startTestApp();
  team = await app.createTeam('timers');
});
afterAll(() => app.close());

/** A time `minutes` ahead, at `ms` past a whole second: each write below lands in its own second. */
const ahead = (minutes: number, ms: number) =>
  new Date(Math.floor((Date.now() + minutes * 60_000) / 1000) * 1000 + ms).toISOString();

/** The pending events due within the writers' horizon whose second has no timer job. */
async function withoutTimer(): Promise<{ event_id: string; scheduled_at: Date }[]> {
  return app.sql(
    `select q.event_id, q.scheduled_at from event_queue q
     where q.scheduled_at < $1
       and not exists (select 1 from agenda_jobs j
                       where j.name = 'deliver-slot'
                         and (j.data ->> 'slot')::bigint = floor(extract(epoch from q.scheduled_at)))`,
    [new Date(Date.now() + WRITER_HORIZON_MS - 30_000)],
  );
}

async function expectStatus(response: Promise<{ status: number }>, status: number): Promise<void> {
  expect((await response).status).toBe(status);
}

describe('the timer of a pending event', () => {
  it('is written by every write that makes an event pending or gives it a new time', async () => {
    const request = (method: string, path: string, body?: unknown) =>
      app.request(method, `/api/v1${path}`, { key: team.key, body });
    const created = await request('POST', '/events', eventBody({ scheduled_at: ahead(2, 100) }));
    expect(created.status).toBe(201);
    const id = (created.body as { data: { id: string } }).data.id;
    await expectStatus(
      request('POST', '/events/batch', {
        events: [eventBody({ scheduled_at: ahead(2, 200) }), eventBody({ scheduled_at: ahead(3, 300) })],
      }),
      201,
    );
    await expectStatus(request('PUT', `/events/${id}`, eventBody({ scheduled_at: ahead(3, 400) })), 200);
    await expectStatus(request('PUT', `/events/${id}`, eventBody({ scheduled_at: ahead(4, 500) })), 200);
    const cron = await request('POST', '/crons', cronBody({ cron_expression: '*/20 * * * * *' }));
    expect(cron.status).toBe(201);
    const cronId = (cron.body as { data: { id: string } }).data.id;
    await expectStatus(request('POST', `/crons/${cronId}/trigger`), 201);
    await expectStatus(request('PATCH', `/crons/${cronId}`, { cron_expression: '*/15 * * * * *' }), 200);
    await expectStatus(
      request('PUT', `/crons/${cronId}`, cronBody({ cron_expression: '7-59/20 * * * * *' })),
      200,
    );

    const [pending] = await app.sql<{ n: string }>(
      'select count(*) as n from event_queue q join events e on e.id = q.event_id where e.team_id = $1',
      [team.teamId],
    );
    expect(Number(pending?.n)).toBeGreaterThanOrEqual(6);
    expect(await withoutTimer()).toEqual([]);
  });
});
