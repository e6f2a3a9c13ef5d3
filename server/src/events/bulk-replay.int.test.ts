import { randomUUID } from 'node:crypto';
import { EventReplayResult } from '@webhook-scheduler/contract';
import { z } from 'zod';
import { Event } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { type EventFixture, makeCron, makeEvent, makeEvents } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { expectQuota, teamWithLimits } from '../../test/limits.js';
import { type Receiver, startReceiver } from '../../test/receiver.js';

let app: TestApp;
let receiver: Receiver;

// A scheduler runs: every replay is delivered to the receiver, which shows it got its timer.
beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ scheduler: {} });
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

const result = EventReplayResult.extend({ data: z.array(Event.strict()) }).strict();
const HOUR = 3_600_000;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR);

const replay = (team: TestTeam, body: unknown, headers: Record<string, string> = {}) =>
  app.request('POST', '/api/v1/events/replay', { key: team.key, body, headers });

/** Finished events of the team, to the receiver unless told. */
const finished = (team: TestTeam, count: number, fields: (i: number) => Partial<EventFixture> = () => ({})) =>
  makeEvents(app.orm.em.fork(), team.teamId, count, (i) => ({
    status: 'failed',
    webhookUrl: `${receiver.url}/replayed/${team.teamId}`,
    // A second apart: a cron's originals are unique per scheduled time.
    scheduledAt: new Date(hoursAgo(1).getTime() + i * 1000),
    executedAt: hoursAgo(1),
    ...fields(i),
  }));

async function replaysOf(team: TestTeam): Promise<string[]> {
  const rows = await app.sql<{ replay_of: string }>(
    'select replay_of from events where team_id = $1 and replay_of is not null order by replay_of',
    [team.teamId],
  );
  return rows.map((row) => row.replay_of);
}

const sorted = (ids: string[]) => [...ids].sort();

describe('POST /api/v1/events/replay', () => {
  it('replays the failed originals due now, each as a replay of its own, and delivers them', async () => {
    const team = await app.createTeam();
    const failed = await finished(team, 2);
    await finished(team, 1, () => ({ status: 'success' }));
    await finished(team, 1, () => ({
      status: 'pending',
      executedAt: null,
      scheduledAt: new Date(Date.now() + HOUR),
    }));
    const [original] = failed;
    await finished(team, 1, () => ({ retryOf: original?.id ?? null, attempt: 1 }));
    const before = Date.now();

    const { replayed, data } = expectBody(await replay(team, { status: 'failed' }), 201, result);
    expect(replayed).toBe(2);
    expect(sorted(data.map((event) => event.replay_of ?? ''))).toEqual(
      sorted(failed.map((event) => event.id)),
    );
    for (const event of data) {
      expect(event).toMatchObject({ status: 'pending', cron_id: null, retry_of: null, team_id: team.teamId });
      expect(Date.parse(event.scheduled_at)).toBeGreaterThanOrEqual(before - 1000);
    }
    await receiver.waitFor(2, (request) => request.path === `/replayed/${team.teamId}`);
  });

  it('replays the success events when status is success', async () => {
    const team = await app.createTeam();
    await finished(team, 2);
    const success = await finished(team, 1, () => ({ status: 'success' }));
    const { replayed } = expectBody(await replay(team, { status: 'success' }), 201, result);
    expect(replayed).toBe(1);
    expect(await replaysOf(team)).toEqual(success.map((event) => event.id));
  });

  it('keeps to the events of one cron with cron_id, and matches none with another team’s cron', async () => {
    const team = await app.createTeam();
    const other = await app.createTeam();
    const [mine, theirs] = [
      await makeCron(app.orm.em.fork(), team.teamId),
      await makeCron(app.orm.em.fork(), other.teamId),
    ];
    const ofCron = await finished(team, 2, () => ({ cronId: mine.id }));
    await finished(team, 2);
    await finished(other, 1, () => ({ cronId: theirs.id }));

    expect(expectBody(await replay(team, { status: 'failed', cron_id: theirs.id }), 201, result)).toEqual({
      replayed: 0,
      data: [],
    });
    const { replayed } = expectBody(await replay(team, { status: 'failed', cron_id: mine.id }), 201, result);
    expect(replayed).toBe(2);
    expect(await replaysOf(team)).toEqual(sorted(ofCron.map((event) => event.id)));
  });

  it('matches a destination in any spelling of its origin', async () => {
    const team = await app.createTeam();
    const port = new URL(receiver.url).port;
    const same = [
      ...(await finished(team, 1, () => ({ webhookUrl: `${receiver.url}/a` }))),
      ...(await finished(team, 1, () => ({ webhookUrl: `HTTP://127.0.0.1:0${port}/b?x=1` }))),
    ];
    await finished(team, 1, () => ({ webhookUrl: `http://127.0.0.2:${port}/c` }));
    const body = { status: 'failed', destination: `http://127.0.0.1:${port}` };
    expect(expectBody(await replay(team, body), 201, result).replayed).toBe(2);
    expect(await replaysOf(team)).toEqual(sorted(same.map((event) => event.id)));
  });

  it('returns 400 VALIDATION_ERROR on destination when it is no bare origin', async () => {
    const team = await app.createTeam();
    await finished(team, 1);
    const issues = expectValidationError(
      await replay(team, { status: 'failed', destination: `${receiver.url}/path` }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([['destination']]);
    expect(await replaysOf(team)).toEqual([]);
  });

  it('keeps to scheduled_after (inclusive) and scheduled_before (exclusive)', async () => {
    const team = await app.createTeam();
    const times = [hoursAgo(4), hoursAgo(3), hoursAgo(2), hoursAgo(1)];
    const events = await finished(team, 4, (i) => ({ scheduledAt: times[i] ?? new Date() }));
    const body = {
      status: 'failed',
      scheduled_after: times[1]?.toISOString(),
      scheduled_before: times[3]?.toISOString(),
    };
    expect(expectBody(await replay(team, body), 201, result).replayed).toBe(2);
    expect(await replaysOf(team)).toEqual(sorted([events[1]?.id ?? '', events[2]?.id ?? '']));
  });

  it('lists the first 100 new events, in the scheduled order of their sources', async () => {
    const team = await app.createTeam();
    const events = await finished(team, 101, (i) => ({
      scheduledAt: new Date(hoursAgo(2).getTime() + i * 1000),
    }));
    const { replayed, data } = expectBody(await replay(team, { status: 'failed' }), 201, result);
    expect(replayed).toBe(101);
    expect(data.map((event) => event.replay_of)).toEqual(events.slice(0, 100).map((event) => event.id));
    await receiver.waitFor(101, (request) => request.path === `/replayed/${team.teamId}`);
  });

  it('returns 400 BAD_REQUEST with the count when more than 10,000 events match, replaying none', async () => {
    const team = await app.createTeam();
    await finished(team, 10_001);
    const error = expectError(await replay(team, { status: 'failed' }), 400, 'BAD_REQUEST');
    expect(error.details).toEqual({ matched: 10_001, max: 10_000 });
    expect(error.message).toMatch(/^10001 events match the filter; at most 10000 .*narrow the filter/);
    expect(await replaysOf(team)).toEqual([]);
  });

  it('returns 403 QUOTA_EXCEEDED and replays nothing when the replays pass the pending events quota', async () => {
    const team = await teamWithLimits(app, { max_pending_events: 5 });
    await finished(team, 6);
    expectQuota(await replay(team, { status: 'failed' }), { quota: 'pending_events', limit: 5, current: 0 });
    expect(await replaysOf(team)).toEqual([]);
  });

  it('answers a repeat with the same Idempotency-Key and body once, replaying nothing more', async () => {
    const team = await app.createTeam();
    await finished(team, 2);
    const key = { 'idempotency-key': `replay-${randomUUID()}` };
    const first = expectBody(await replay(team, { status: 'failed' }, key), 201, result);
    const again = await replay(team, { status: 'failed' }, key);
    expect(expectBody(again, 201, result)).toEqual(first);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await replaysOf(team)).toHaveLength(2);
    expectError(await replay(team, { status: 'success' }, key), 422, 'IDEMPOTENCY_KEY_MISMATCH');
  });

  it('never replays another team’s events', async () => {
    const team = await app.createTeam();
    const other = await app.createTeam();
    await finished(other, 3);
    expect(expectBody(await replay(team, { status: 'failed' }), 201, result)).toEqual({
      replayed: 0,
      data: [],
    });
    expect(await replaysOf(other)).toEqual([]);
  });

  it.each<[string, unknown, (string | number)[]]>([
    ['no status', {}, ['status']],
    ['status pending', { status: 'pending' }, ['status']],
    ['a cron_id that is no UUID', { status: 'failed', cron_id: 'nope' }, ['cron_id']],
    [
      'scheduled_after that is no timestamp',
      { status: 'failed', scheduled_after: 'soon' },
      ['scheduled_after'],
    ],
    ['an unknown field', { status: 'failed', url_contains: 'x' }, ['url_contains']],
  ])('returns 400 VALIDATION_ERROR for %s', async (_, body, path) => {
    const team = await app.createTeam();
    const issues = expectValidationError(await replay(team, body));
    expect(issues.map((issue) => issue.path)).toEqual([path]);
  });

  it('leaves a single replay of a finished event as it was', async () => {
    const team = await app.createTeam();
    const source = await makeEvent(app.orm.em.fork(), team.teamId, {
      status: 'success',
      webhookUrl: `${receiver.url}/one`,
    });
    const single = await app.request('POST', `/api/v1/events/${source.id}/replay`, { key: team.key });
    expect(single.status).toBe(201);
    expect(await replaysOf(team)).toEqual([source.id]);
  });
});
