import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody } from '../../test/expect.js';
import { fullCronBody, makeEvent } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';

// Which changes of PUT and PATCH /crons/{id} replace the cron's pending events (docs/reference/behaviour.md#cron-redefinition), and
// which leave its pending occurrences, retries and manual runs as they are (same section).

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const full = fullCronBody({ payload: { a: 1, b: 2 }, is_active: true, pause_after_failures: null });

interface Work {
  team: TestTeam;
  cronId: string;
  occurrences: string[];
  originalId: string;
  retryId: string;
  runId: string;
}

/** A cron with its occurrences, a delivery waiting for its retry, and a manual run, all pending. */
async function cronWithWork(): Promise<Work> {
  const team = await app.createTeam();
  const created = await app.request('POST', '/api/v1/crons', { key: team.key, body: full });
  const cronId = expectBody(created, 201, bodies.cron).data.id;
  const em = app.orm.em.fork();
  const original = await makeEvent(em, team.teamId, {
    cronId,
    status: 'processing',
    scheduledAt: new Date(Date.now() - 60_000),
  });
  const retry = await makeEvent(em, team.teamId, { cronId, retryOf: original.id, attempt: 1 });
  const run = await app.request('POST', `/api/v1/crons/${cronId}/trigger`, { key: team.key });
  return {
    team,
    cronId,
    occurrences: await occurrencesOf(cronId),
    originalId: original.id,
    retryId: retry.id,
    runId: expectBody(run, 201, bodies.event).data.id,
  };
}

async function occurrencesOf(cronId: string): Promise<string[]> {
  const rows = await app.sql<{ id: string }>(
    `select id from events where cron_id = $1 and status = 'pending' and retry_of is null and not triggered
     order by scheduled_at`,
    [cronId],
  );
  return rows.map((row) => row.id);
}

async function statusOf(id: string): Promise<string | undefined> {
  const [row] = await app.sql<{ status: string }>('select status from events where id = $1', [id]);
  return row?.status;
}

async function expectKept(work: Work): Promise<void> {
  expect(await occurrencesOf(work.cronId)).toEqual(work.occurrences);
  expect(await statusOf(work.retryId)).toBe('pending');
  expect(await statusOf(work.originalId)).toBe('processing');
  expect(await statusOf(work.runId)).toBe('pending');
}

async function expectReplaced(work: Work): Promise<void> {
  const now = await occurrencesOf(work.cronId);
  expect(now.filter((id) => work.occurrences.includes(id))).toEqual([]);
  expect(await statusOf(work.retryId)).toBeUndefined();
  expect(await statusOf(work.originalId)).toBe('failed');
  expect(await statusOf(work.runId)).toBeUndefined();
}

/** Each field of the body, changed. */
const CHANGES: [string, Record<string, unknown>][] = [
  ['cron_expression', { cron_expression: '*/15 * * * * *' }],
  ['timezone', { timezone: 'America/New_York' }],
  ['webhook_url', { webhook_url: 'https://example.com/moved' }],
  ['method', { method: 'POST' }],
  ['headers', { headers: { 'x-a': '2' } }],
  ['payload', { payload: { a: 1, b: 3 } }],
  ['retry_config', { retry_config: { maxRetries: 3, backoffMs: 300, backoffType: 'linear' } }],
  ['is_active', { is_active: false }],
];

describe.each([
  ['PUT', (change: Record<string, unknown>) => ({ ...full, ...change })],
  ['PATCH', (change: Record<string, unknown>) => change],
] as const)('%s /api/v1/crons/{id}', (method, bodyOf) => {
  const send = (work: Work, change: Record<string, unknown>) =>
    app.request(method, `/api/v1/crons/${work.cronId}`, { key: work.team.key, body: bodyOf(change) });

  it.each(CHANGES)('replaces the pending events, retry and manual run when %s changes', async (_, change) => {
    const work = await cronWithWork();
    expectBody(await send(work, change), 200, bodies.cron);
    await expectReplaced(work);
  });

  it('leaves them as they are when only pause_after_failures changes', async () => {
    const work = await cronWithWork();
    const { data } = expectBody(await send(work, { pause_after_failures: 3 }), 200, bodies.cron);
    expect(data.pause_after_failures).toBe(3);
    await expectKept(work);
  });

  it('leaves them as they are, and writes nothing, when every value is the one it has', async () => {
    const work = await cronWithWork();
    const before = expectBody(
      await app.request('GET', `/api/v1/crons/${work.cronId}`, { key: work.team.key }),
      200,
      bodies.cron,
    ).data;
    // The payload's keys in another order are the same payload.
    const { data } = expectBody(await send(work, { ...full, payload: { b: 2, a: 1 } }), 200, bodies.cron);
    expect(data.updated_at).toBe(before.updated_at);
    await expectKept(work);
  });
});
