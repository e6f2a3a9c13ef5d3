import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { cronBody, eventBody } from '../../test/factories.js';
import { type ApiResponse, type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const post = (team: TestTeam, path: string, body: unknown, key?: string) =>
  app.request('POST', path, {
    key: team.key,
    body,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

const replayed = (response: ApiResponse) => response.headers.get('idempotent-replayed');

async function countEvents(teamId: string): Promise<number> {
  const [row] = await app.sql<{ n: number }>('select count(*)::int as n from events where team_id = $1', [
    teamId,
  ]);
  return row?.n ?? 0;
}

/** Waits until a transaction of this database holds an advisory lock (a create is inside its key). */
async function untilKeyHeld(): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const [row] = await app.sql<{ n: number }>(
      `select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
       where l.locktype = 'advisory' and l.granted and d.datname = current_database()`,
    );
    if ((row?.n ?? 0) > 0) return;
    if (Date.now() > deadline) throw new Error('no request took its key in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('Idempotency-Key on POST /api/v1/events', () => {
  it('answers a repeat with the first response, marked replayed, and creates one event', async () => {
    const team = await app.createTeam();
    const body = eventBody({ payload: { order: 1, items: ['a'] } });
    const first = expectBody(await post(team, '/api/v1/events', body, 'order-1'), 201, bodies.event);
    const again = await post(team, '/api/v1/events', body, 'order-1');
    expect(expectBody(again, 201, bodies.event)).toEqual(first);
    expect(replayed(again)).toBe('true');
    expect(await countEvents(team.teamId)).toBe(1);
  });

  it('does not mark a first answer as replayed', async () => {
    const team = await app.createTeam();
    const first = await post(team, '/api/v1/events', eventBody(), 'fresh');
    expectBody(first, 201, bodies.event);
    expect(replayed(first)).toBeNull();
  });

  it('treats a body with its keys in another order as the same request', async () => {
    const team = await app.createTeam();
    const body = eventBody({ method: 'PUT', payload: { a: 1, b: 2 } });
    const reordered = {
      payload: { b: 2, a: 1 },
      method: 'PUT',
      scheduled_at: body.scheduled_at,
      webhook_url: body.webhook_url,
    };
    const first = expectBody(await post(team, '/api/v1/events', body, 'k'), 201, bodies.event);
    const again = await post(team, '/api/v1/events', reordered, 'k');
    expect(expectBody(again, 201, bodies.event).data.id).toBe(first.data.id);
  });

  it('returns 422 IDEMPOTENCY_KEY_MISMATCH for the same key with another body, creating nothing', async () => {
    const team = await app.createTeam();
    await post(team, '/api/v1/events', eventBody({ payload: 1 }), 'k');
    const other = await post(team, '/api/v1/events', eventBody({ payload: 2 }), 'k');
    expectError(other, 422, 'IDEMPOTENCY_KEY_MISMATCH');
    expect(await countEvents(team.teamId)).toBe(1);
  });

  it('returns 422 IDEMPOTENCY_KEY_MISMATCH for the same key on another create route', async () => {
    const team = await app.createTeam();
    expectBody(await post(team, '/api/v1/events', eventBody(), 'shared'), 201, bodies.event);
    expectError(await post(team, '/api/v1/crons', cronBody(), 'shared'), 422, 'IDEMPOTENCY_KEY_MISMATCH');
  });

  it('scopes a key to its team', async () => {
    const team = await app.createTeam();
    const other = await app.createTeam();
    const body = eventBody();
    const mine = expectBody(await post(team, '/api/v1/events', body, 'same'), 201, bodies.event);
    const theirs = await post(other, '/api/v1/events', body, 'same');
    expect(expectBody(theirs, 201, bodies.event).data.id).not.toBe(mine.data.id);
    expect(replayed(theirs)).toBeNull();
  });

  it('remembers a 4xx the service gave and replays it', async () => {
    const team = await app.createTeam();
    const past = eventBody({ scheduled_at: new Date(Date.now() - 60_000).toISOString() });
    const first = await post(team, '/api/v1/events', past, 'late');
    const issues = expectValidationError(first);
    expect(replayed(first)).toBeNull();
    const again = await post(team, '/api/v1/events', past, 'late');
    expect(expectValidationError(again)).toEqual(issues);
    expect(replayed(again)).toBe('true');
    expect(await countEvents(team.teamId)).toBe(0);
  });

  it('forgets a key after 24 hours', async () => {
    const team = await app.createTeam();
    const first = expectBody(
      await post(team, '/api/v1/events', eventBody({ payload: 1 }), 'old'),
      201,
      bodies.event,
    );
    await app.sql(`update idempotency_keys set expires_at = now() - interval '1 second' where team_id = $1`, [
      team.teamId,
    ]);
    const next = await post(team, '/api/v1/events', eventBody({ payload: 2 }), 'old');
    expect(expectBody(next, 201, bodies.event).data.id).not.toBe(first.data.id);
    const [row] = await app.sql<{ n: number }>(
      `select count(*)::int as n from idempotency_keys where team_id = $1 and expires_at > now() + interval '23 hours'`,
      [team.teamId],
    );
    expect(row?.n).toBe(1);
  });

  it.each([
    ['longer than 255 characters', 'k'.repeat(256)],
    ['not ASCII', 'clé'],
    ['with a control character', 'a\tb'],
    ['empty', ''],
  ])('returns 400 VALIDATION_ERROR naming idempotency-key when it is %s', async (_, key) => {
    const team = await app.createTeam();
    const issues = expectValidationError(await post(team, '/api/v1/events', eventBody(), key));
    expect(issues.map((issue) => issue.path)).toEqual([['idempotency-key']]);
    expect(await countEvents(team.teamId)).toBe(0);
  });

  it('accepts a key of 255 printable characters', async () => {
    const team = await app.createTeam();
    const key = ` !~${'x'.repeat(252)}`;
    expectBody(await post(team, '/api/v1/events', eventBody(), key), 201, bodies.event);
  });
});

describe('Idempotency-Key under concurrency', () => {
  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first is handled, then replays its answer', async () => {
    const team = await app.createTeam();
    const body = eventBody();
    // Holding the team row blocks the first create's insert (its foreign key check) inside its key.
    const blocker = new pg.Client(app.db.connection);
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select 1 from teams where id = $1 for update', [team.teamId]);
      const first = post(team, '/api/v1/events', body, 'slow');
      await untilKeyHeld();
      expectError(await post(team, '/api/v1/events', body, 'slow'), 409, 'IDEMPOTENCY_KEY_IN_USE');
      await blocker.query('commit');
      const created = expectBody(await first, 201, bodies.event);
      const after = await post(team, '/api/v1/events', body, 'slow');
      expect(expectBody(after, 201, bodies.event)).toEqual(created);
      expect(replayed(after)).toBe('true');
    } finally {
      await blocker.end();
    }
    expect(await countEvents(team.teamId)).toBe(1);
  });

  it('creates once from many simultaneous requests with one key', async () => {
    const team = await app.createTeam();
    const body = eventBody();
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => post(team, '/api/v1/events', body, 'burst')),
    );
    const created = responses.filter((response) => response.status === 201);
    const busy = responses.filter((response) => response.status === 409);
    expect(created.length + busy.length).toBe(12);
    expect(created.filter((response) => replayed(response) === null)).toHaveLength(1);
    expect(new Set(created.map((response) => response.body.data.id)).size).toBe(1);
    for (const response of busy) expectError(response, 409, 'IDEMPOTENCY_KEY_IN_USE');
    expect(await countEvents(team.teamId)).toBe(1);
  });
});

describe('Idempotency-Key on POST /api/v1/crons', () => {
  it('creates one cron and replays it; another body is a mismatch', async () => {
    const team = await app.createTeam();
    const body = cronBody({ cron_expression: '0 * * * *' });
    const first = expectBody(await post(team, '/api/v1/crons', body, 'nightly'), 201, bodies.cron);
    const again = await post(team, '/api/v1/crons', body, 'nightly');
    expect(expectBody(again, 201, bodies.cron)).toEqual(first);
    expect(replayed(again)).toBe('true');
    expectError(
      await post(team, '/api/v1/crons', cronBody({ cron_expression: '5 * * * *' }), 'nightly'),
      422,
      'IDEMPOTENCY_KEY_MISMATCH',
    );
    const [row] = await app.sql<{ n: number }>('select count(*)::int as n from crons where team_id = $1', [
      team.teamId,
    ]);
    expect(row?.n).toBe(1);
  });
});
