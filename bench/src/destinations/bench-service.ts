// One service (`--role all`) on a fresh embedded PostgreSQL for a scenario, and its API as the
// team of its first key uses it.
import type pg from 'pg';
import { type Running, freshDataDir, printedKey, startService } from '../processes.ts';
import { connectDb, firstTeamId } from '../seed.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3490);
const BATCH = 1000;

export interface BenchService {
  /** The service's base URL (its API, and /metrics). */
  url: string;
  db: pg.Client;
  teamId: string;
  service: Running;
  /** The service's data directory (its embedded PostgreSQL's under it). */
  dataDir: string;
  /** Another client of the service's database. */
  connect(): Promise<pg.Client>;
  /** A call to the API as the first team: `path` below /api/v1. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

export async function startBenchService(env: Record<string, string> = {}): Promise<BenchService> {
  const data = await freshDataDir();
  const service = await startService('all', PORT, data.dir, env);
  let db: pg.Client;
  let key: string;
  try {
    key = await printedKey(service);
    db = await connectDb(data.dir);
  } catch (error) {
    await service.stop();
    await data.remove();
    throw error;
  }
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${PORT}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  return {
    url: `http://127.0.0.1:${PORT}`,
    db,
    teamId: await firstTeamId(db),
    service,
    dataDir: data.dir,
    connect: () => connectDb(data.dir),
    api,
    async stop() {
      await db.end().catch(() => undefined);
      await service.stop();
      await data.remove();
    },
  };
}

/** Creates `events` (bodies of POST /events) through the batch route, 1,000 at a time. */
export async function createEvents(bench: BenchService, events: unknown[]): Promise<void> {
  for (let first = 0; first < events.length; first += BATCH) {
    const { status, body } = await bench.api('POST', '/events/batch', {
      events: events.slice(first, first + BATCH),
    });
    if (status !== 201) throw new Error(`POST /events/batch answered ${status}: ${JSON.stringify(body)}`);
  }
}

/** The team's view of a destination (`GET /destinations/{origin}`), or its settings changed (`PATCH`). */
export async function destination(
  bench: BenchService,
  origin: string,
  patch?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const path = `/destinations/${encodeURIComponent(origin)}`;
  const { status, body } = await bench.api(patch ? 'PATCH' : 'GET', path, patch);
  if (status !== 200)
    throw new Error(`${patch ? 'PATCH' : 'GET'} ${path} answered ${status}: ${JSON.stringify(body)}`);
  const data = (body as { data?: Record<string, unknown> }).data;
  return data ?? (body as Record<string, unknown>);
}

/**
 * Creates `count` events to `url` due at `due` (epoch ms) through the API, each with `{ due }` as
 * its payload and `fields` besides; fails when that took past their due time.
 */
export async function createDueEvents(
  bench: BenchService,
  count: number,
  url: string,
  due: number,
  fields: Record<string, unknown> = {},
): Promise<void> {
  const scheduledAt = new Date(due).toISOString();
  const event = { ...fields, webhook_url: url, scheduled_at: scheduledAt, payload: { due } };
  await createEvents(
    bench,
    Array.from({ length: count }, () => event),
  );
  if (Date.now() > due) throw new Error('creating the events took longer than their lead time');
}
