import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_ID, bodies, expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { fullCronBody, makeEvent } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { type Receiver, startReceiver } from '../../test/receiver.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function createCron(team: TestTeam, body: object) {
  return expectBody(await app.request('POST', '/api/v1/crons', { key: team.key, body }), 201, bodies.cron)
    .data;
}

const patch = (team: TestTeam, id: string, body: unknown) =>
  app.request('PATCH', `/api/v1/crons/${id}`, { key: team.key, body });

async function pendingOf(cronId: string): Promise<{ id: string; scheduled_at: Date }[]> {
  return app.sql(
    `select id, scheduled_at from events where cron_id = $1 and status = 'pending' order by scheduled_at`,
    [cronId],
  );
}

const full = fullCronBody();

/** A cron as stored: its `next_run_at` moves with the clock (every 10 s for `full`). */
function stored<T extends { next_run_at: unknown }>(cron: T): Omit<T, 'next_run_at'> {
  const { next_run_at: _moves, ...rest } = cron;
  return rest;
}

describe('PATCH /api/v1/crons/{id}', () => {
  it('changes the fields given and keeps the others', async () => {
    const team = await app.createTeam();
    const cron = await createCron(team, full);
    const { data } = expectBody(
      await patch(team, cron.id, { webhook_url: 'https://example.com/moved', payload: null }),
      200,
      bodies.cron,
    );
    expect(stored(data)).toEqual({
      ...stored(cron),
      webhook_url: 'https://example.com/moved',
      payload: null,
      updated_at: data.updated_at,
    });
    expect(Date.parse(data.updated_at)).toBeGreaterThanOrEqual(Date.parse(cron.updated_at));
    const read = await app.request('GET', `/api/v1/crons/${cron.id}`, { key: team.key });
    expect(stored(expectBody(read, 200, bodies.cron).data)).toEqual(stored(data));
  });

  it('replaces the pending events when the schedule changes', async () => {
    const team = await app.createTeam();
    const cron = await createCron(team, full);
    const before = await pendingOf(cron.id);
    expect(before.length).toBeGreaterThan(0);
    expectBody(await patch(team, cron.id, { cron_expression: '*/15 * * * * *' }), 200, bodies.cron);
    const after = await pendingOf(cron.id);
    expect(after.length).toBeGreaterThan(0);
    expect(after.some((event) => before.some((old) => old.id === event.id))).toBe(false);
    for (const event of after) {
      expect(new Date(event.scheduled_at).getUTCSeconds() % 15).toBe(0);
      expect(event.id).toMatch(EVENT_ID);
    }
  });

  it('deletes the pending events when is_active becomes false and resumes when true', async () => {
    const team = await app.createTeam();
    const cron = await createCron(team, full);
    const paused = expectBody(await patch(team, cron.id, { is_active: false }), 200, bodies.cron).data;
    expect(paused).toMatchObject({ is_active: false, webhook_url: full.webhook_url, method: 'PUT' });
    expect(await pendingOf(cron.id)).toEqual([]);
    expectBody(await patch(team, cron.id, { is_active: true }), 200, bodies.cron);
    const resumed = await pendingOf(cron.id);
    expect(resumed.length).toBeGreaterThan(0);
    for (const event of resumed)
      expect(new Date(event.scheduled_at).getTime()).toBeGreaterThan(Date.now() - 1000);
  });

  it('writes nothing when nothing changes', async () => {
    const team = await app.createTeam();
    const cron = await createCron(team, full);
    const before = await pendingOf(cron.id);
    for (const body of [{}, { method: 'PUT', is_active: true, timezone: 'Europe/Paris' }]) {
      const { data } = expectBody(await patch(team, cron.id, body), 200, bodies.cron);
      expect(stored(data)).toEqual(stored(cron));
    }
    expect((await pendingOf(cron.id)).map((event) => event.id)).toEqual(before.map((event) => event.id));
  });

  it.each<[string, unknown, (string | number)[][]]>([
    ['an invalid cron expression', { cron_expression: '61 * * * *' }, [['cron_expression']]],
    ['an invalid URL', { webhook_url: 'not a url' }, [['webhook_url']]],
    ['an unknown field', { is_paused: true }, [['is_paused']]],
    ['a wrong type', { is_active: 'yes' }, [['is_active']]],
    ['a null expression', { cron_expression: null }, [['cron_expression']]],
    [
      'a bad retry_config',
      { retry_config: { maxRetries: 0, backoffMs: 100 } },
      [['retry_config', 'maxRetries']],
    ],
    [
      'two problems',
      { cron_expression: '61 * * * *', timezone: 'Mars/Olympus' },
      [['timezone'], ['cron_expression']],
    ],
  ])('returns 400 VALIDATION_ERROR for %s and changes nothing', async (_, body, paths) => {
    const team = await app.createTeam();
    const cron = await createCron(team, full);
    const issues = expectValidationError(await patch(team, cron.id, body));
    expect(issues.map((issue) => issue.path)).toEqual(paths);
    const read = await app.request('GET', `/api/v1/crons/${cron.id}`, { key: team.key });
    expect(stored(expectBody(read, 200, bodies.cron).data)).toEqual(stored(cron));
  });

  it('returns 404 for another team’s cron and an unknown id', async () => {
    const team = await app.createTeam();
    const other = await app.createTeam();
    const theirs = await createCron(other, full);
    for (const id of [theirs.id, randomUUID()]) {
      expectError(await patch(team, id, { is_active: false }), 404, 'NOT_FOUND');
    }
    expect((await pendingOf(theirs.id)).length).toBeGreaterThan(0);
  });
});

describe('POST /api/v1/crons/{id}/trigger', () => {
  it('returns 201 with an event due now from the cron’s definition, leaving the schedule alone', async () => {
    const team = await app.createTeam();
    const cron = await createCron(team, full);
    const before = await pendingOf(cron.id);
    const [{ until } = { until: null }] = await app.sql<{ until: Date | null }>(
      'select materialized_until as until from crons where id = $1',
      [cron.id],
    );
    const started = Date.now();
    const { data } = expectBody(
      await app.request('POST', `/api/v1/crons/${cron.id}/trigger`, { key: team.key }),
      201,
      bodies.event,
    );
    expect(data).toMatchObject({
      cron_id: cron.id,
      retry_of: null,
      replay_of: null,
      status: 'pending',
      webhook_url: full.webhook_url,
      method: 'PUT',
      headers: { 'x-a': '1' },
      payload: { a: 1 },
      retry_config: full.retry_config,
    });
    expect(data.id).toMatch(EVENT_ID);
    expect(Date.parse(data.scheduled_at)).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(data.scheduled_at)).toBeLessThanOrEqual(Date.now());
    const after = await pendingOf(cron.id);
    expect(after.filter((event) => event.id !== data.id)).toEqual(before);
    const [{ until: untilAfter } = { until: null }] = await app.sql<{ until: Date | null }>(
      'select materialized_until as until from crons where id = $1',
      [cron.id],
    );
    expect(untilAfter).toEqual(until);
  });

  it('runs an inactive cron', async () => {
    const team = await app.createTeam();
    const cron = await createCron(team, { ...full, is_active: false });
    const { data } = expectBody(
      await app.request('POST', `/api/v1/crons/${cron.id}/trigger`, { key: team.key }),
      201,
      bodies.event,
    );
    expect(data.cron_id).toBe(cron.id);
    expect((await pendingOf(cron.id)).map((event) => event.id)).toEqual([data.id]);
  });

  it('returns 404 for another team’s cron and an unknown id', async () => {
    const team = await app.createTeam();
    const other = await app.createTeam();
    const theirs = await createCron(other, full);
    for (const id of [theirs.id, randomUUID()]) {
      expectError(
        await app.request('POST', `/api/v1/crons/${id}/trigger`, { key: team.key }),
        404,
        'NOT_FOUND',
      );
    }
  });

  it('creates its event at the very instant of a scheduled occurrence, beside it', async () => {
    const instant = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000);
    const frozen = await startTestApp({ now: () => instant });
    try {
      const team = await frozen.createTeam();
      const created = await frozen.request('POST', '/api/v1/crons', {
        key: team.key,
        body: { ...full, is_active: false },
      });
      const cronId: string = created.body.data.id;
      const occurrence = await makeEvent(frozen.orm.em.fork(), team.teamId, { cronId, scheduledAt: instant });
      const { data } = expectBody(
        await frozen.request('POST', `/api/v1/crons/${cronId}/trigger`, { key: team.key }),
        201,
        bodies.event,
      );
      expect(data.scheduled_at).toBe(instant.toISOString());
      const rows = await frozen.sql<{ id: string }>(
        'select id from events where cron_id = $1 and scheduled_at = $2 order by id',
        [cronId, instant],
      );
      expect(rows.map((row) => row.id).sort()).toEqual([occurrence.id, data.id].sort());
    } finally {
      await frozen.close();
    }
  });
});

describe('a triggered run, delivered', () => {
  let receiver: Receiver;
  let live: TestApp;

  beforeAll(async () => {
    receiver = await startReceiver();
    live = await startTestApp({ scheduler: { webhookTimeoutMs: 1000 } });
  });
  afterAll(async () => {
    await live.close();
    await receiver.close();
  });

  it('is called exactly once beside a per-second cron’s occurrences', async () => {
    const team = await live.createTeam();
    const created = await live.request('POST', '/api/v1/crons', {
      key: team.key,
      body: { webhook_url: `${receiver.url}/run-now`, cron_expression: '* * * * * *' },
    });
    const cronId: string = created.body.data.id;
    const trigger = await live.request('POST', `/api/v1/crons/${cronId}/trigger`, { key: team.key });
    const eventId: string = expectBody(trigger, 201, bodies.event).data.id;
    await receiver.waitFor(1, (request) => request.headers['webhook-id'] === eventId, 5000);
    // Two more occurrences of the cron: the run had every chance to be sent again.
    const seen = receiver.requests.filter((request) => request.path === '/run-now').length;
    await receiver.waitFor(seen + 2, (request) => request.path === '/run-now', 5000);
    await live.request('DELETE', `/api/v1/crons/${cronId}`, { key: team.key });
    expect(receiver.requests.filter((request) => request.headers['webhook-id'] === eventId)).toHaveLength(1);
  });
});
