import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const FAULT_TEST_TIMEOUT_MS = 90_000;
import { ensureDatabaseExists } from '../db/database.js';
import { startEmbeddedPostgres } from '../db/embedded-postgres.js';
import {
  type TestApp,
  type TestDatabase,
  type TestTeam,
  createTestDatabase,
  databaseUrl,
  sendRequest,
  startTestApp,
} from '../../test/harness.js';
import {
  deliveredIds as receivedIds,
  scheduleMany as scheduleManyEvents,
  statuses as eventStatuses,
} from '../../test/fault-helpers.js';
import { type Receiver, eventually, startReceiver } from '../../test/receiver.js';
import {
  type ServiceProcess,
  firstKey,
  listeningUrl,
  startServiceProcess,
} from '../../test/service-process.js';

// Real processes of the built service (server/dist), on a real PostgreSQL, calling a real receiver.
// A short lease grace so that an attempt of a killed worker is taken over within seconds.
const SCHEDULER_ENV = { LEASE_GRACE: '1s', WEBHOOK_TIMEOUT_MS: '5000' };

let receiver: Receiver;
let db: TestDatabase;
let app: TestApp;
let team: TestTeam;
let url: string;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  db = await createTestDatabase();
  url = databaseUrl(db.connection);
  app = await startTestApp({ database: db });
  team = await app.createTeam();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.kill()));
});
afterAll(async () => {
  await app.close();
  await db.drop();
  await receiver.close();
});

async function scheduler(): Promise<ServiceProcess> {
  const service = await startServiceProcess('scheduler', url, SCHEDULER_ENV);
  running.push(service);
  return service;
}

const scheduleMany = (count: number, pathName: string) =>
  scheduleManyEvents(app, team, count, `${receiver.url}${pathName}`);
const statuses = (ids: string[]) => eventStatuses(app, ids);
const deliveredIds = (pathName: string) => receivedIds(receiver, pathName);

describe('faults', () => {
  it(
    'delivers or fails every event after a scheduler is killed mid-delivery, none stuck, none lost',
    async () => {
      receiver.reply('/killed', { delayMs: 400 });
      const first = await scheduler();
      const ids = await scheduleMany(200, '/killed');
      await receiver.waitFor(30, (request) => request.path === '/killed', 20_000);
      const inFlight = (await statuses(ids)).processing ?? 0;
      await first.kill();
      expect(inFlight).toBeGreaterThan(0);
      await scheduler();
      const settled = await eventually(
        () => statuses(ids),
        (s) => (s.success ?? 0) + (s.failed ?? 0) === ids.length,
        45_000,
      );
      expect(settled).toEqual({ success: ids.length });
      const delivered = deliveredIds('/killed');
      expect(new Set(delivered)).toEqual(new Set(ids));
      // At least once: only an attempt in flight when the worker died may have been sent twice.
      expect(delivered.length - ids.length).toBeLessThanOrEqual(inFlight);
    },
    FAULT_TEST_TIMEOUT_MS,
  );

  it(
    'never delivers an attempt twice with two scheduler processes on one database',
    async () => {
      const processes = await Promise.all([scheduler(), scheduler()]);
      const ids = await scheduleMany(400, '/shared');
      await eventually(
        () => statuses(ids),
        (s) => s.success === ids.length,
        30_000,
      );
      const delivered = deliveredIds('/shared');
      expect(delivered).toHaveLength(ids.length);
      expect(new Set(delivered)).toEqual(new Set(ids));
      // Claimed once each, unless handed back first: on a loaded machine an attempt whose lease ran
      // out before its call could start is released (and logged), then claimed again, never sent twice.
      const reclaimed = await app.sql<{ id: string }>(
        'select id from events where id = any($1) and claim_count <> 1',
        [ids],
      );
      const logs = processes.map((service) => service.output()).join('\n');
      expect(reclaimed.filter(({ id }) => !logs.includes(`"eventId":"${id}"`))).toEqual([]);
      // Each process counts its own deliveries in /metrics; together they count every one, and
      // write each outcome in one batch (counted once its write has returned); their claims are timed.
      const totals = async () => {
        const scraped = await Promise.all(
          processes.map(
            async (service) => (await sendRequest(listeningUrl(service), 'GET', '/metrics')).text,
          ),
        );
        const total = (pattern: RegExp) =>
          scraped.reduce((sum, metrics) => sum + Number(pattern.exec(metrics)?.[1] ?? 0), 0);
        return {
          delivered: total(/^webhook_deliveries_total\{outcome="success"\} (\d+)$/m),
          written: total(/^webhook_outcome_batch_size_sum (\d+)$/m),
          claimsTimed: total(/^webhook_claim_duration_seconds_count\{line="due"\} (\d+)$/m) > 0,
        };
      };
      expect(await eventually(totals, (counted) => counted.written >= ids.length, 10_000)).toEqual({
        delivered: ids.length,
        written: ids.length,
        claimsTimed: true,
      });
    },
    FAULT_TEST_TIMEOUT_MS,
  );

  it(
    'lets in-flight deliveries finish and be recorded on SIGTERM, and leaves the rest pending',
    async () => {
      receiver.reply('/draining', { delayMs: 800 });
      const first = await scheduler();
      const ids = await scheduleMany(150, '/draining');
      await receiver.waitFor(20, (request) => request.path === '/draining', 20_000);
      expect(await first.stop()).toBe(0);
      running.splice(running.indexOf(first), 1);
      const afterStop = await statuses(ids);
      expect(afterStop.processing ?? 0).toBe(0);
      expect(afterStop.success).toBe(deliveredIds('/draining').length);
      await scheduler();
      await eventually(
        () => statuses(ids),
        (s) => s.success === ids.length,
        30_000,
      );
      expect(deliveredIds('/draining')).toHaveLength(ids.length);
    },
    FAULT_TEST_TIMEOUT_MS,
  );
});

describe('a PostgreSQL restart under load', () => {
  it(
    'is survived: the service keeps running, answers again, and delivers every accepted event',
    async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wst-restart-'));
      await chmod(dataDir, 0o755);
      let postgres = await startEmbeddedPostgres(dataDir, () => {});
      await ensureDatabaseExists(postgres.connection, 'restart_test');
      const service = await startServiceProcess(
        'all',
        databaseUrl({ ...postgres.connection, database: 'restart_test' }),
        {
          LEASE_GRACE: '2s',
          WEBHOOK_TIMEOUT_MS: '5000',
        },
      );
      running.push(service);
      let loadRunning = true;
      try {
        const api = listeningUrl(service);
        const key = await firstKey(service);
        const accepted: string[] = [];
        let lastAnswer: unknown;
        // Counts, not a clock, bound each phase: a slow machine only makes the test take longer.
        const load = (async () => {
          while (loadRunning) {
            const response = await sendRequest(api, 'POST', '/api/v1/events', {
              key,
              body: {
                webhook_url: `${receiver.url}/restart`,
                scheduled_at: new Date(Date.now() + 500).toISOString(),
              },
            }).catch(() => undefined);
            lastAnswer = response && { status: response.status, body: response.body };
            if (response?.status === 201) accepted.push(response.body.data.id as string);
            await new Promise((resolve) => setTimeout(resolve, 40));
          }
        })();
        await eventually(
          () => Promise.resolve({ accepted: accepted.length, lastAnswer }),
          (progress) => progress.accepted >= 10,
          20_000,
        );
        await postgres.stop({ force: true });
        // The outage is real: the service cannot reach its database.
        expect((await sendRequest(api, 'GET', '/readyz')).status).toBe(503);
        await new Promise((resolve) => setTimeout(resolve, 3000));
        postgres = await startEmbeddedPostgres(dataDir, () => {});
        const acceptedBeforeRestart = accepted.length;
        await eventually(
          () => sendRequest(api, 'GET', '/readyz'),
          (response) => response.status === 200,
          20_000,
        );
        await eventually(
          () =>
            Promise.resolve({ acceptedAfterRestart: accepted.length - acceptedBeforeRestart, lastAnswer }),
          (progress) => progress.acceptedAfterRestart >= 20,
          20_000,
        );
        loadRunning = false;
        await load;
        expect(service.child.exitCode).toBeNull();
        await eventually(
          () => Promise.resolve(new Set(deliveredIds('/restart'))),
          (delivered) => accepted.every((id) => delivered.has(id)),
          45_000,
        );
        expect(service.child.exitCode).toBeNull();
      } finally {
        loadRunning = false;
        await service.kill();
        await postgres.stop({ force: true });
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    FAULT_TEST_TIMEOUT_MS,
  );
});
