import pg from 'pg';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody } from '../../test/expect.js';
import { eventBody } from '../../test/factories.js';
import {
  type TestApp,
  type TestDatabase,
  type TestTeam,
  createTestDatabase,
  databaseUrl,
  sendRequest,
  startTestApp,
} from '../../test/harness.js';
import { eventually } from '../../test/receiver.js';
import { firstKey, listeningUrl, startServiceProcess } from '../../test/service-process.js';
import { type IdempotencySweepOptions, createIdempotencySweep } from './idempotency-sweep.js';
import { IDEMPOTENCY_TTL_MS } from './idempotency.rules.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
const logger = pino({ level: 'silent' });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

function sweeper(overrides: Partial<IdempotencySweepOptions> = {}) {
  const registry = new Registry();
  const sweep = createIdempotencySweep({
    orm: app.orm,
    connection: app.db.connection,
    registry,
    logger,
    now: () => NOW,
    minPauseMs: 0,
    ...overrides,
  });
  const deletedMetric = async () =>
    (await registry.getSingleMetric('idempotency_keys_deleted_total')?.get())?.values[0]?.value ?? NaN;
  return { sweep, deletedMetric };
}

/** Stores a remembered answer for `key` that expires at `expiresAt`. */
async function remembered(team: TestTeam, key: string, expiresAt: Date): Promise<void> {
  await app.sql(
    `insert into idempotency_keys (team_id, key, request_hash, response_status, response_body, created_at, expires_at)
     values ($1, $2, 'hash', 201, '{"data":{}}', $3, $4)`,
    [team.teamId, key, new Date(expiresAt.getTime() - IDEMPOTENCY_TTL_MS), expiresAt],
  );
}

async function keysOf(team: TestTeam): Promise<string[]> {
  const rows = await app.sql<{ key: string }>(
    'select key from idempotency_keys where team_id = $1 order by key',
    [team.teamId],
  );
  return rows.map((row) => row.key);
}

describe('the Idempotency-Key sweep', () => {
  it('deletes the records of every team that expired at or before now and keeps the others', async () => {
    const [one, two] = [await app.createTeam(), await app.createTeam()];
    await remembered(one, 'long-gone', at(-IDEMPOTENCY_TTL_MS));
    await remembered(one, 'just-now', at(0));
    await remembered(one, 'in-a-moment', at(1));
    await remembered(two, 'a-second-ago', at(-1000));
    await remembered(two, 'tomorrow', at(IDEMPOTENCY_TTL_MS));
    const { sweep, deletedMetric } = sweeper();

    expect(await sweep.runOnce()).toEqual({ ran: true, batches: 1, rows: 3 });
    expect(await keysOf(one)).toEqual(['in-a-moment']);
    expect(await keysOf(two)).toEqual(['tomorrow']);
    expect(await deletedMetric()).toBe(3);
  });

  it('deletes in batches of the configured size', async () => {
    const team = await app.createTeam();
    for (let i = 0; i < 7; i += 1) await remembered(team, `k${i}`, at(-1000 - i));
    const { sweep, deletedMetric } = sweeper({ batchRows: 3 });

    expect(await sweep.runOnce()).toEqual({ ran: true, batches: 3, rows: 7 });
    expect(await keysOf(team)).toEqual([]);
    expect(await deletedMetric()).toBe(7);
  });

  it('skips a record a create is replacing rather than waiting for it', async () => {
    const team = await app.createTeam();
    await remembered(team, 'held', at(-1000));
    await remembered(team, 'free', at(-1000));
    const holder = new pg.Client(app.db.connection);
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(`select 1 from idempotency_keys where team_id = $1 and key = 'held' for update`, [
        team.teamId,
      ]);
      expect(await sweeper().sweep.runOnce()).toMatchObject({ ran: true, rows: 1 });
      expect(await keysOf(team)).toEqual(['held']);
    } finally {
      await holder.end();
    }
  });

  it('skips a run while another process holds its lock', async () => {
    const team = await app.createTeam();
    await remembered(team, 'old', at(-1000));
    const holder = new pg.Client(app.db.connection);
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(4311120264)');
      expect(await sweeper().sweep.runOnce()).toEqual({ ran: false, batches: 0, rows: 0 });
      expect(await keysOf(team)).toEqual(['old']);
    } finally {
      await holder.end();
    }
    // Other tests' expired records of this database go too: only this team's are counted.
    expect(await sweeper().sweep.runOnce()).toMatchObject({ ran: true });
    expect(await keysOf(team)).toEqual([]);
  });
});

/** A keyed create through the API: the service records its answer under `key` for 24 h. */
async function createWithKey(team: TestTeam, key: string): Promise<void> {
  const created = await app.request('POST', '/api/v1/events', {
    key: team.key,
    body: eventBody(),
    headers: { 'idempotency-key': key },
  });
  expectBody(created, 201, bodies.event);
}

describe('the Idempotency-Key sweep in the background', () => {
  it('deletes a record written through the API once its 24 h are over, with no further request', async () => {
    const team = await app.createTeam();
    await createWithKey(team, 'order-1');
    expect(await keysOf(team)).toEqual(['order-1']);
    // The sweep's clock is a day ahead of the one that wrote the record.
    const { sweep, deletedMetric } = sweeper({
      now: () => new Date(Date.now() + IDEMPOTENCY_TTL_MS),
      firstRunAfterMs: 0,
      everyMs: 20,
    });
    sweep.start();
    try {
      await eventually(
        () => keysOf(team),
        (keys) => keys.length === 0,
      );
    } finally {
      await sweep.stop();
    }
    expect(await deletedMetric()).toBeGreaterThanOrEqual(1);
  });

  it('keeps a record written through the API before its 24 h are over', async () => {
    const team = await app.createTeam();
    await createWithKey(team, 'order-2');
    const { sweep } = sweeper({ now: () => new Date(Date.now() + IDEMPOTENCY_TTL_MS - 60_000) });
    expect(await sweep.runOnce()).toMatchObject({ ran: true });
    expect(await keysOf(team)).toEqual(['order-2']);
  });
});

describe('the Idempotency-Key sweep in a running service', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  const count = async () => {
    const client = new pg.Client(db.connection);
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>('select count(*)::int as n from idempotency_keys');
      return rows[0]?.n ?? NaN;
    } finally {
      await client.end();
    }
  };

  it('deletes an expired record within minutes without any request, and counts it in /metrics', async () => {
    const service = await startServiceProcess('all', databaseUrl(db.connection));
    try {
      const url = listeningUrl(service);
      const key = await firstKey(service);
      const created = await sendRequest(url, 'POST', '/api/v1/events', {
        key,
        body: eventBody(),
        headers: { 'idempotency-key': 'order-1' },
      });
      expect(created.status).toBe(201);
      expect(await count()).toBe(1);
      // A day passes.
      const client = new pg.Client(db.connection);
      await client.connect();
      await client.query(`update idempotency_keys set expires_at = now() - interval '1 second'`);
      await client.end();

      await eventually(count, (n) => n === 0, 180_000);
      const metrics = await sendRequest(url, 'GET', '/metrics');
      expect(metrics.text).toMatch(/^idempotency_keys_deleted_total 1$/m);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 240_000);
});
