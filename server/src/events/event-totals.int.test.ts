import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';

let app: TestApp;
let team: TestTeam;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ scheduler: { webhookTimeoutMs: 2000 } });
  team = await app.createTeam();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

/** A `pending` row whose call is not in flight: what the API shows as pending. */
const SHOWN_PENDING = `status = 'pending' and not exists (select 1 from event_queue q where q.event_id = events.id and q.lease_token is not null)`;

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

async function listedTotal(query = ''): Promise<number> {
  const response = await app.request('GET', `/api/v1/events?limit=1${query}`, { key: team.key });
  return response.body.pagination.total;
}

async function counted(where: string, params: unknown[]): Promise<number> {
  const [row] = await app.sql<{ n: string }>(`select count(*) as n from events where ${where}`, params);
  return Number(row!.n);
}

/**
 * Expects the listed total to be the exact count of rows. The scheduler keeps adding cron occurrences
 * and retries meanwhile, so the total is read between two counts that agree; and since a call of the
 * every-second cron can start and end between them (in flight is shown `processing`), a total that
 * differs is read again: a wrong total stays wrong, a passing call does not.
 */
async function expectExactTotal(query: string, where: string, params: unknown[]): Promise<void> {
  let [before, listed, after] = [-1, -1, -2];
  for (let tries = 0; tries < 20 && (before !== after || listed !== before); tries++) {
    before = await counted(where, params);
    listed = await listedTotal(query);
    after = await counted(where, params);
  }
  expect(after, 'the rows kept changing').toBe(before);
  expect(listed).toBe(before);
}

describe('list totals kept by triggers', () => {
  // Filtered by status too: counts appended by every write, in-flight calls shown as processing.
  it('match the rows after concurrent creates, scheduler retries, cron occurrences and deletions', async () => {
    receiver.reply('/fail', { status: 500 });
    const due = inMs(2000);
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        app.request('POST', '/api/v1/events', {
          key: team.key,
          body: {
            webhook_url: `${receiver.url}/${i % 3 === 0 ? 'fail' : 'ok'}`,
            scheduled_at: due,
            retry_config: { maxRetries: 2, backoffMs: 100 },
          },
        }),
      ),
    );
    const cron = await app.request('POST', '/api/v1/crons', {
      key: team.key,
      body: { webhook_url: `${receiver.url}/cron`, cron_expression: '* * * * * *' },
    });
    const cronId: string = cron.body.data.id;
    // 20 originals fail and get two retries each: 60 + 40 events, plus the cron's occurrences.
    await eventually(
      () => counted('team_id = $1 and retry_of is not null', [team.teamId]),
      (retries) => retries === 40,
    );
    await expectExactTotal('', 'team_id = $1', [team.teamId]);
    await expectExactTotal(`&cron_id=${cronId}`, 'cron_id = $1', [cronId]);
    expect(await listedTotal(`&cron_id=${cronId}`)).toBeGreaterThan(50);
    for (const status of ['success', 'failed'])
      await expectExactTotal(`&status=${status}`, 'team_id = $1 and status = $2', [team.teamId, status]);
    await expectExactTotal(`&cron_id=${cronId}&status=success`, 'cron_id = $1 and status = $2', [
      cronId,
      'success',
    ]);
    await expectExactTotal('&status=pending', `team_id = $1 and ${SHOWN_PENDING}`, [team.teamId]);
    await expectExactTotal(
      '&status=processing',
      `team_id = $1 and not ${SHOWN_PENDING} and status in ('pending', 'processing')`,
      [team.teamId],
    );

    const failed = await app.sql<{ id: string }>(
      `select id from events where team_id = $1 and retry_of is null and cron_id is null and webhook_url like '%/fail' limit 1`,
      [team.teamId],
    );
    await eventually(
      () => app.request('GET', `/api/v1/events/${failed[0]!.id}`, { key: team.key }),
      (r) => r.body.data.status === 'failed',
    );
    expect((await app.request('DELETE', `/api/v1/events/${failed[0]!.id}`, { key: team.key })).status).toBe(
      200,
    );
    await expectExactTotal('', 'team_id = $1', [team.teamId]);

    expect((await app.request('DELETE', `/api/v1/crons/${cronId}`, { key: team.key })).status).toBe(200);
    await expectExactTotal('', 'team_id = $1', [team.teamId]);
    expect(await listedTotal(`&cron_id=${cronId}`)).toBe(0);
    const [leftover] = await app.sql<{ n: string | null }>(
      'select sum(n) as n from event_counts where scope = $1',
      [cronId],
    );
    expect(Number(leftover!.n ?? 0)).toBe(0);
  });

  it('answers 0 for another team’s cron', async () => {
    const other = await app.createTeam('other');
    const cron = await app.request('POST', '/api/v1/crons', {
      key: other.key,
      body: { webhook_url: 'https://example.com/x', cron_expression: '*/10 * * * * *' },
    });
    expect(await counted('cron_id = $1', [cron.body.data.id])).toBeGreaterThan(0);
    expect(await listedTotal(`&cron_id=${cron.body.data.id}`)).toBe(0);
  });
});
