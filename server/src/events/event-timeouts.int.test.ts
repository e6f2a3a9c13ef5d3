import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueSoon } from '../../test/due-soon.js';
import { bodies, expectBody, expectValidationError } from '../../test/expect.js';
import { cronBody, eventBody, makeEvent } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';

// The scheduler's WEBHOOK_TIMEOUT_MS, which the API checks timeout_ms against too.
const SERVICE_TIMEOUT_MS = 5000;

let app: TestApp;
let team: TestTeam;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.reply('/slow', { delayMs: 3000 });
  app = await startTestApp({ scheduler: { webhookTimeoutMs: SERVICE_TIMEOUT_MS } });
  team = await app.createTeam();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

const post = (path: string, body: unknown) => app.request('POST', path, { key: team.key, body });

async function settled(id: string) {
  const read = async () =>
    expectBody(await app.request('GET', `/api/v1/events/${id}`, { key: team.key }), 200, bodies.event).data;
  return eventually(read, (event) => event.status === 'success' || event.status === 'failed', 15_000);
}

describe('timeout_ms on delivery', () => {
  it('fails an attempt at the event’s timeout_ms while an event without one waits for the service’s', async () => {
    const url = `${receiver.url}/slow`;
    const created = (body: Record<string, unknown>) =>
      dueSoon(
        async (at) =>
          expectBody(await post('/api/v1/events', { ...body, scheduled_at: at }), 201, bodies.event).data,
        500,
      );
    const short = await created({ webhook_url: url, timeout_ms: 1000 });
    const long = await created({ webhook_url: url });
    const [timedOut, answered] = await Promise.all([settled(short.id), settled(long.id)]);
    expect(timedOut).toMatchObject({
      status: 'failed',
      timeout_ms: 1000,
      response_status: null,
      response_error: 'timed out after 1000 ms',
    });
    expect(timedOut.response_duration).toBeLessThan(3000);
    expect(answered).toMatchObject({ status: 'success', timeout_ms: null, response_status: 200 });
    expect(answered.response_duration).toBeGreaterThanOrEqual(2900);
  });
});

describe('timeout_ms on events', () => {
  it.each([
    ['absent', {}, null],
    ['null', { timeout_ms: null }, null],
    ['1000', { timeout_ms: 1000 }, 1000],
    ['the service’s maximum', { timeout_ms: SERVICE_TIMEOUT_MS }, SERVICE_TIMEOUT_MS],
  ])('stores and shows timeout_ms when it is %s', async (_, fields, shown) => {
    const { data } = expectBody(await post('/api/v1/events', eventBody(fields)), 201, bodies.event);
    expect(data.timeout_ms).toBe(shown);
  });

  it.each([
    ['999', 999, 'timeout_ms must be at least 1000 (1 s)'],
    [
      'above WEBHOOK_TIMEOUT_MS',
      SERVICE_TIMEOUT_MS + 1,
      `timeout_ms must be from 1000 to ${SERVICE_TIMEOUT_MS} (the service's WEBHOOK_TIMEOUT_MS)`,
    ],
    ['not whole', 1500.5, 'timeout_ms must be a whole number of milliseconds'],
  ])('returns 400 VALIDATION_ERROR on timeout_ms when it is %s', async (_, timeoutMs, message) => {
    const issues = expectValidationError(await post('/api/v1/events', eventBody({ timeout_ms: timeoutMs })));
    expect(issues).toEqual([{ path: ['timeout_ms'], message }]);
  });

  it('names the item of a batch whose timeout_ms is above the maximum', async () => {
    const events = [eventBody({ timeout_ms: 2000 }), eventBody({ timeout_ms: SERVICE_TIMEOUT_MS + 1 })];
    const issues = expectValidationError(await post('/api/v1/events/batch', { events }));
    expect(issues.map((issue) => issue.path)).toEqual([['events', 1, 'timeout_ms']]);
  });

  it('resets timeout_ms on a PUT that leaves it out, as a full replacement', async () => {
    const { data } = expectBody(
      await post('/api/v1/events', eventBody({ timeout_ms: 2000 })),
      201,
      bodies.event,
    );
    const put = await app.request('PUT', `/api/v1/events/${data.id}`, { key: team.key, body: eventBody() });
    expect(expectBody(put, 200, bodies.event).data.timeout_ms).toBeNull();
  });

  it('keeps the original’s timeout_ms on a replay', async () => {
    const source = await makeEvent(app.orm.em.fork(), team.teamId, { status: 'failed', timeoutMs: 1500 });
    const replay = await post(`/api/v1/events/${source.id}/replay`, undefined);
    expect(expectBody(replay, 201, bodies.event).data).toMatchObject({
      replay_of: source.id,
      timeout_ms: 1500,
    });
  });
});

describe('timeout_ms on crons', () => {
  const pendingOf = async (cronId: string) =>
    expectBody(
      await app.request('GET', `/api/v1/events?cron_id=${cronId}&status=pending`, { key: team.key }),
      200,
      bodies.eventPage,
    ).data;

  it('passes the cron’s timeout_ms to its occurrences and manual runs, and a PATCH to the new ones', async () => {
    const body = cronBody({ cron_expression: '0 0 1 1 *', timeout_ms: 2000 });
    const cron = expectBody(await post('/api/v1/crons', body), 201, bodies.cron).data;
    expect(cron.timeout_ms).toBe(2000);
    expect((await pendingOf(cron.id)).map((event) => event.timeout_ms)).toEqual([2000]);
    const run = expectBody(await post(`/api/v1/crons/${cron.id}/trigger`, undefined), 201, bodies.event);
    expect(run.data.timeout_ms).toBe(2000);

    const patch = await app.request('PATCH', `/api/v1/crons/${cron.id}`, {
      key: team.key,
      body: { timeout_ms: 3000 },
    });
    expect(expectBody(patch, 200, bodies.cron).data.timeout_ms).toBe(3000);
    const occurrences = (await pendingOf(cron.id)).filter((event) => event.id !== run.data.id);
    expect(occurrences.map((event) => event.timeout_ms)).toEqual([3000]);
  });

  it('returns 400 VALIDATION_ERROR on timeout_ms above WEBHOOK_TIMEOUT_MS, on create and on PATCH', async () => {
    const tooLong = { timeout_ms: SERVICE_TIMEOUT_MS + 1 };
    const create = expectValidationError(await post('/api/v1/crons', cronBody(tooLong)));
    expect(create.map((issue) => issue.path)).toEqual([['timeout_ms']]);
    const cron = expectBody(await post('/api/v1/crons', cronBody()), 201, bodies.cron).data;
    expect(cron.timeout_ms).toBeNull();
    const patch = await app.request('PATCH', `/api/v1/crons/${cron.id}`, { key: team.key, body: tooLong });
    expect(expectValidationError(patch).map((issue) => issue.path)).toEqual([['timeout_ms']]);
  });
});
