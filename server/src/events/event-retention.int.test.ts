import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventFixture, makeCron, makeEvent, makeEvents } from '../../test/factories.js';
import { type TestApp, type TestTeam, startTestApp } from '../../test/harness.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';
import { keepLastRunsBefore } from '../crons/cron-store.js';
import { type RetentionFor, type RetentionOptions, createRetentionJob } from './event-retention.js';

const DAY = 86_400_000;
const RETENTION = 30 * DAY;
const NOW = new Date('2026-11-23T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const logger = pino({ level: 'silent' });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

/** The usual retention for `team`, and keep-forever for the other tests' teams. */
const only =
  (team: TestTeam): RetentionFor =>
  (teamId) =>
    teamId === team.teamId ? RETENTION : 0;

function job(overrides: Partial<RetentionOptions> = {}) {
  const registry = new Registry();
  const retention = createRetentionJob({
    orm: app.orm,
    connection: app.db.connection,
    retentionFor: () => RETENTION,
    beforeExpiring: keepLastRunsBefore,
    registry,
    logger,
    now: () => NOW,
    minPauseMs: 0,
    ...overrides,
  });
  const deletedMetric = async () => {
    const metric = await registry.getSingleMetric('events_deleted_total')?.get();
    return metric?.values[0]?.value ?? NaN;
  };
  const completedMetric = async () => {
    const metric = await registry.getSingleMetric('events_retention_completed_timestamp_seconds')?.get();
    return metric?.values[0]?.value ?? NaN;
  };
  return { retention, deletedMetric, completedMetric };
}

const finished = (updatedAt: Date, status: 'success' | 'failed' = 'success'): Partial<EventFixture> => ({
  status,
  scheduledAt: new Date(updatedAt.getTime() - 1000),
  executedAt: new Date(updatedAt.getTime() - 500),
  createdAt: new Date(updatedAt.getTime() - 2000),
  updatedAt,
});

/** An original and `retries` attempts; the original carries the chain's final state and end. */
async function makeChain(
  team: TestTeam,
  original: Partial<EventFixture>,
  retries: Partial<EventFixture>[],
): Promise<string[]> {
  const em = app.orm.em.fork();
  const first = await makeEvent(em, team.teamId, original);
  const attempts = await makeEvents(em, team.teamId, retries.length, (i) => ({
    ...retries[i],
    retryOf: first.id,
    attempt: i + 1,
    cronId: first.cronId,
  }));
  return [first.id, ...attempts.map((attempt) => attempt.id)];
}

async function remaining(ids: string[]): Promise<string[]> {
  const rows = await app.sql<{ id: string }>('select id from events where id = any($1)', [ids]);
  return rows.map((row) => row.id).sort();
}

async function listedTotal(team: TestTeam, query = ''): Promise<number> {
  const response = await app.request('GET', `/api/v1/events?limit=1${query}`, { key: team.key });
  expect(response.status).toBe(200);
  return response.body.pagination.total;
}

async function counted(on: TestApp, where: string, params: unknown[]): Promise<number> {
  const [row] = await on.sql<{ n: string }>(`select count(*) as n from events where ${where}`, params);
  return Number(row?.n);
}

describe('event retention', () => {
  it("keeps a cron's last run when it deletes the only occurrence that held it", async () => {
    const team = await app.createTeam();
    const ran = ago(RETENTION + DAY);
    // The row holds an older run; the last one only its occurrence, as after a healthy cron's success.
    const cron = await makeCron(app.orm.em.fork(), team.teamId, {
      lastRunAt: ago(RETENTION + 3 * DAY),
      lastStatus: 'success',
    });
    const [occurrence = ''] = await makeChain(team, { ...finished(ran), cronId: cron.id }, []);
    const lastRunShown = async () => {
      const response = await app.request('GET', `/api/v1/crons/${cron.id}`, { key: team.key });
      return response.body.data.last_run_at;
    };
    const executedAt = new Date(ran.getTime() - 500).toISOString();
    expect(await lastRunShown()).toBe(executedAt);

    await job({ retentionFor: only(team) }).retention.runOnce();
    expect(await remaining([occurrence])).toEqual([]);
    expect(await lastRunShown()).toBe(executedAt);
  });

  it('deletes finished chains past the retention whole and leaves every other event, with exact totals', async () => {
    const team = await app.createTeam();
    const cron = await makeCron(app.orm.em.fork(), team.teamId);
    const old = ago(RETENTION + DAY);
    const gone = [
      ...(await makeChain(team, finished(old), [])),
      ...(await makeChain(team, finished(old, 'failed'), [
        finished(ago(RETENTION + 3 * DAY), 'failed'),
        finished(old, 'failed'),
      ])),
      ...(await makeChain(
        team,
        { ...finished(old), cronId: cron.id, scheduledAt: ago(RETENTION + 2 * DAY) },
        [],
      )),
      ...(await makeChain(
        team,
        { ...finished(old), cronId: cron.id, scheduledAt: ago(RETENTION + 3 * DAY) },
        [finished(old, 'failed'), finished(old)],
      )),
    ];
    const kept = [
      // The first attempts are old, the last one ended yesterday: the chain stays whole.
      ...(await makeChain(team, finished(ago(DAY), 'failed'), [
        finished(ago(RETENTION + 9 * DAY), 'failed'),
        finished(ago(DAY), 'failed'),
      ])),
      // Settled long ago, but a retry's end was recorded later (another process's clock): its last attempt counts.
      ...(await makeChain(team, finished(old, 'failed'), [finished(ago(DAY), 'failed')])),
      // Waiting for its next retry: the original is `processing` and a retry is `pending`.
      ...(await makeChain(team, { ...finished(old), status: 'processing' }, [
        finished(old, 'failed'),
        { status: 'pending', updatedAt: old },
      ])),
      // A retry in flight.
      ...(await makeChain(team, { ...finished(old), status: 'processing', cronId: cron.id }, [
        { status: 'processing', updatedAt: old, leaseToken: randomUUID(), leaseExpiresAt: ago(-60_000) },
      ])),
      // Pending and in-flight events untouched for longer than the retention.
      ...(await makeChain(team, { status: 'pending', updatedAt: old, createdAt: old, scheduledAt: old }, [])),
      ...(await makeChain(team, { status: 'pending', updatedAt: old, cronId: cron.id }, [])),
      ...(await makeChain(
        team,
        { status: 'processing', updatedAt: old, leaseToken: randomUUID(), leaseExpiresAt: ago(-60_000) },
        [],
      )),
    ];
    const before = await listedTotal(team);
    expect(before).toBe(gone.length + kept.length);
    expect(await listedTotal(team, `&cron_id=${cron.id}`)).toBe(
      await counted(app, 'cron_id = $1', [cron.id]),
    );

    const { retention, deletedMetric } = job({ retentionFor: only(team) });
    expect(await retention.runOnce()).toMatchObject({ ran: true, chains: 4, rows: gone.length });

    expect(await remaining(gone)).toEqual([]);
    expect(await remaining(kept)).toEqual([...kept].sort());
    expect(await deletedMetric()).toBe(gone.length);
    expect(await listedTotal(team)).toBe(kept.length);
    expect(await listedTotal(team)).toBe(await counted(app, 'team_id = $1', [team.teamId]));
    expect(await listedTotal(team, `&cron_id=${cron.id}`)).toBe(
      await counted(app, 'cron_id = $1', [cron.id]),
    );
    expect(await listedTotal(team, '&status=success')).toBe(
      await counted(app, `team_id = $1 and status = 'success'`, [team.teamId]),
    );
    // A second run finds nothing more.
    expect(await retention.runOnce()).toMatchObject({ ran: true, chains: 0, rows: 0 });
  });

  it('deletes a chain that ended just above the retention and keeps one that ended at or below it', async () => {
    const team = await app.createTeam();
    const above = await makeChain(team, finished(ago(RETENTION + 1)), [finished(ago(RETENTION + 5))]);
    const at = await makeChain(team, finished(ago(RETENTION), 'failed'), [
      finished(ago(RETENTION + 5), 'failed'),
    ]);
    const below = await makeChain(team, finished(ago(RETENTION - 1)), []);

    await job({ retentionFor: only(team) }).retention.runOnce();

    expect(await remaining(above)).toEqual([]);
    expect(await remaining([...at, ...below])).toEqual([...at, ...below].sort());
    expect(await listedTotal(team)).toBe(at.length + below.length);
  });

  it('takes each team’s retention from retentionFor, 0 keeping its events forever', async () => {
    const [short, forever, usual] = [await app.createTeam(), await app.createTeam(), await app.createTeam()];
    const make = (team: TestTeam, endedAgo: number) => makeChain(team, finished(ago(endedAgo)), []);
    const shortGone = await make(short, 2 * DAY);
    const foreverKept = await make(forever, 400 * DAY);
    const usualKept = await make(usual, 2 * DAY);
    const retentionFor: RetentionFor = (teamId) =>
      teamId === short.teamId ? DAY : teamId === forever.teamId ? 0 : RETENTION;

    await job({ retentionFor }).retention.runOnce();

    expect(await remaining([...shortGone, ...foreverKept, ...usualKept])).toEqual(
      [...foreverKept, ...usualKept].sort(),
    );
  });

  it('deletes in batches of at most batchChains chains until none is left', async () => {
    const team = await app.createTeam();
    const ids = (
      await Promise.all(
        Array.from({ length: 7 }, () =>
          makeChain(team, finished(ago(RETENTION + DAY)), [finished(ago(RETENTION + 2 * DAY))]),
        ),
      )
    ).flat();
    const { retention, deletedMetric } = job({ batchChains: 3, retentionFor: only(team) });

    expect(await retention.runOnce()).toEqual({ ran: true, batches: 3, chains: 7, rows: 14 });
    expect(await remaining(ids)).toEqual([]);
    expect(await deletedMetric()).toBe(14);
    expect(await listedTotal(team)).toBe(0);
  });
});

describe('event retention in the background', () => {
  it('runs after start until stopped, and not after', async () => {
    const team = await app.createTeam();
    const first = await makeChain(team, finished(ago(RETENTION + DAY)), []);
    const { retention } = job({ retentionFor: only(team), firstRunAfterMs: 0, everyMs: 20 });
    retention.start();
    try {
      await eventually(
        () => remaining(first),
        (left) => left.length === 0,
      );
    } finally {
      await retention.stop();
    }
    const later = await makeChain(team, finished(ago(RETENTION + DAY)), []);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await remaining(later)).toEqual(later);
  });
});

describe('event retention across processes', () => {
  // A second service over the same database: its own connection pool, as another process has.
  let other: TestApp;
  beforeAll(async () => {
    other = await startTestApp({ database: app.db });
  });
  afterAll(async () => {
    await other.close();
  });

  async function lockHolders(): Promise<number> {
    const [row] = await app.sql<{ n: string }>(
      `select count(*) as n from pg_locks where locktype = 'advisory' and granted and objid = 4311120263 % 4294967296`,
    );
    return Number(row?.n);
  }

  it('skips a run while another process holds the lock', async () => {
    const team = await app.createTeam();
    const ids = await makeChain(team, finished(ago(RETENTION + DAY)), []);
    const holder = new pg.Client(app.db.connection);
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(4311120263)');
      const skipping = job({ retentionFor: only(team) });
      expect(await skipping.retention.runOnce()).toEqual({
        ran: false,
        batches: 0,
        chains: 0,
        rows: 0,
      });
      expect(await remaining(ids)).toEqual(ids);
      // A pass it did not make is no progress: the lag alert reads the process that holds the lock.
      expect(await skipping.completedMetric()).toBe(0);
    } finally {
      await holder.end();
    }
    const working = job({ retentionFor: only(team) });
    expect(await working.retention.runOnce()).toMatchObject({ ran: true, rows: 1 });
    expect(await working.completedMetric()).toBe(NOW.getTime() / 1000);
  });

  it('stops a run whose lock session is gone, since another process may then take the lock', async () => {
    const team = await app.createTeam();
    await makeEvents(app.orm.em.fork(), team.teamId, 100, () => finished(ago(RETENTION + DAY)));
    const { retention, completedMetric } = job({ batchChains: 5, minPauseMs: 30, retentionFor: only(team) });

    const run = retention.runOnce();
    for (let tries = 0; (await lockHolders()) === 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await app.sql(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where application_name = 'webhook-scheduler-retention' and datname = current_database()`,
    );
    const result = await run;
    expect(result.rows).toBeLessThan(100);
    expect(await counted(app, 'team_id = $1', [team.teamId])).toBe(100 - result.rows);
    expect(await completedMetric()).toBe(0);
  });

  it('lets one of two processes work while the other skips, deleting every chain once', async () => {
    const team = await app.createTeam();
    const ids = (
      await makeEvents(app.orm.em.fork(), team.teamId, 200, () => finished(ago(RETENTION + DAY)))
    ).map((event) => event.id);
    const first = job({ batchChains: 10, minPauseMs: 20, retentionFor: only(team) });
    const second = job({ orm: other.orm, batchChains: 10, minPauseMs: 20, retentionFor: only(team) });

    const firstRun = first.retention.runOnce();
    // Twenty batches with pauses take at least 400 ms: the second process tries while the first holds the lock.
    for (let tries = 0; (await lockHolders()) === 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const secondRun = await second.retention.runOnce();
    expect(secondRun).toEqual({ ran: false, batches: 0, chains: 0, rows: 0 });
    expect(await firstRun).toEqual({ ran: true, batches: 20, chains: 200, rows: 200 });
    expect((await first.deletedMetric()) + (await second.deletedMetric())).toBe(200);
    expect(await remaining(ids)).toEqual([]);
    expect(await listedTotal(team)).toBe(0);
    expect(await lockHolders()).toBe(0);
  });
});

describe('event retention next to live deliveries', () => {
  let live: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    live = await startTestApp({ scheduler: { webhookTimeoutMs: 2000 } });
  });
  afterAll(async () => {
    await live.close();
    await receiver.close();
  });

  it('never breaks a chain whose retries are still to come, even with a retention of 1 ms', async () => {
    const team = await live.createTeam();
    receiver.reply('/fail', { status: 500 });
    const registry = new Registry();
    const retention = createRetentionJob({
      orm: live.orm,
      connection: live.db.connection,
      retentionFor: (teamId) => (teamId === team.teamId ? 1 : 0),
      beforeExpiring: keepLastRunsBefore,
      registry,
      logger,
      firstRunAfterMs: 0,
      everyMs: 10,
      minPauseMs: 0,
    });
    retention.start();
    try {
      const scheduledAt = new Date(Date.now() + 1000).toISOString();
      const created = await Promise.all(
        Array.from({ length: 20 }, () =>
          live.request('POST', '/api/v1/events', {
            key: team.key,
            body: {
              webhook_url: `${receiver.url}/fail`,
              scheduled_at: scheduledAt,
              retry_config: { maxRetries: 2, backoffMs: 200 },
            },
          }),
        ),
      );
      expect(created.map((response) => response.status)).toEqual(created.map(() => 201));
      const orphans = async () =>
        Number(
          (
            await live.sql<{ n: string }>(
              `select count(*) as n from events r where r.team_id = $1 and r.retry_of is not null
               and not exists (select 1 from events o where o.id = r.retry_of)`,
              [team.teamId],
            )
          )[0]?.n,
        );
      // Every attempt of every chain is made: no pending retry was deleted under its chain.
      const polled: number[] = [];
      await eventually(
        async () => {
          polled.push(await orphans());
          return receiver.requests.filter((request) => request.path === '/fail').length;
        },
        (calls) => calls >= 60,
      );
      expect(Math.max(...polled)).toBe(0);
      await eventually(
        () => counted(live, 'team_id = $1', [team.teamId]),
        (left) => left === 0,
      );
      const listed = await live.request('GET', '/api/v1/events?limit=1', { key: team.key });
      expect(listed.body.pagination.total).toBe(0);
      expect((await registry.getSingleMetric('events_deleted_total')?.get())?.values[0]?.value).toBe(60);
    } finally {
      await retention.stop();
    }
  });
});
