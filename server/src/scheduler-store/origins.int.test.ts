import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statuses } from '../../test/fault-helpers.js';
import {
  type TestApp,
  type TestDatabase,
  createTestDatabase,
  databaseUrl,
  startTestApp,
} from '../../test/harness.js';
import { eventually } from '../../test/receiver.js';
import { type ServiceProcess, startServiceProcess } from '../../test/service-process.js';

// A real scheduler process (server/dist) on a real PostgreSQL, calling a real receiver on loopback
// through URLs that spell one origin three ways.
const TEST_TIMEOUT_MS = 120_000;
const LIMIT = 50;
const EVENTS = 150;
/** How long the receiver holds each call: long enough for every call not held back to pile up. */
const HOLD_MS = 1000;

/** A receiver that answers each call after `HOLD_MS` and remembers the most it held at once. */
interface HoldingReceiver {
  port: number;
  mostAtOnce(): number;
  received(): Set<string>;
  close(): Promise<void>;
}

async function startHoldingReceiver(): Promise<HoldingReceiver> {
  let open = 0;
  let most = 0;
  const ids = new Set<string>();
  const server = http.createServer((request, response) => {
    open += 1;
    most = Math.max(most, open);
    ids.add(String(request.headers['webhook-id']));
    request.resume();
    const answer = setTimeout(() => response.end('ok'), HOLD_MS);
    response.once('close', () => {
      clearTimeout(answer);
      open -= 1;
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    mostAtOnce: () => most,
    received: () => ids,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let db: TestDatabase;
let app: TestApp;
let receiver: HoldingReceiver;
let scheduler: ServiceProcess | undefined;

beforeAll(async () => {
  receiver = await startHoldingReceiver();
  db = await createTestDatabase();
  app = await startTestApp({ database: db });
});
afterAll(async () => {
  await scheduler?.kill();
  await app.close();
  await db.drop();
  await receiver.close();
});

describe('the per-destination limit in a real scheduler process', () => {
  it(
    'never has more calls to one origin in flight than the limit, however its URLs spell it, and sends all',
    async () => {
      const team = await app.createTeam();
      const port = String(receiver.port);
      const spellings = [
        `http://127.0.0.1:${port}`,
        `http://127.0.0.1:0${port}`,
        `http://127.0.0.1:00${port}`,
      ];
      // Due before the scheduler is up, so its first claim finds all of them due at once.
      const scheduledAt = new Date(Date.now() + 1000).toISOString();
      const events = Array.from({ length: EVENTS }, (_, i) => ({
        webhook_url: `${spellings[i % spellings.length]}/hook/${i}`,
        scheduled_at: scheduledAt,
      }));
      const created = await app.request('POST', '/api/v1/events/batch', { key: team.key, body: { events } });
      expect(created.status, created.text).toBe(201);
      const ids = (created.body.data as { id: string }[]).map((event) => event.id);
      const stored = await app.sql<{ destination: string }>(
        'select distinct destination from events where id = any($1)',
        [ids],
      );
      expect(stored).toEqual([{ destination: `http://127.0.0.1:${port}` }]);
      await eventually(
        () => app.sql<{ n: string }>('select count(*) as n from events where scheduled_at <= now()'),
        ([row]) => Number(row?.n) === EVENTS,
      );

      scheduler = await startServiceProcess('scheduler', databaseUrl(db.connection), {
        DESTINATION_MAX_IN_FLIGHT: String(LIMIT),
        TEAM_MAX_IN_FLIGHT: '1000',
        DELIVERY_CONCURRENCY: '1000',
        WEBHOOK_TIMEOUT_MS: '30000',
      });
      await eventually(
        () => statuses(app, ids),
        (s) => s.success === EVENTS,
        90_000,
      );
      expect(receiver.mostAtOnce()).toBeLessThanOrEqual(LIMIT);
      expect(receiver.received()).toEqual(new Set(ids));
      expect(await scheduler.stop()).toBe(0);
      scheduler = undefined;
    },
    TEST_TIMEOUT_MS,
  );
});
