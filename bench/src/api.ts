// bench/api: the running service (embedded PostgreSQL) under autocannon over loopback, with 100,000
// events and 200 crons in the team. Usage: npm run api -w bench
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { firstKey, freshDataDir, saveReport, setupStatements, startService } from './processes.ts';
import { storedOrigin } from './stored-origin.ts';

const SEEDED = Number(process.env.BENCH_SEEDED ?? 100_000);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 3380);
const ROLE = process.env.BENCH_ROLE ?? 'all';
const BATCH = 1000;
/** Crons for the list case, in the time zones bench/scale seeds; their next run is computed per page. */
const CRONS = Number(process.env.BENCH_CRONS ?? 200);
const CRON_ZONES = [
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Sydney',
  'Asia/Kathmandu',
];
const CRON_EXPRESSIONS = ['0 0 1 1 *', '30 2 * * 0', '0 9 * * 1-5', '*/5 3 1 * *'];

const data = await freshDataDir();
const service = await startService(ROLE, PORT, data.dir);
try {
  const key = firstKey(service);
  const db = new pg.Client({
    host: path.join(data.dir, 'run'),
    user: 'postgres',
    database: 'webhook_scheduler',
  });
  await db.connect();
  const team = (await db.query<{ id: string }>('select team_id as id from api_keys limit 1')).rows[0]!.id;
  // Far in the future, so the scheduler leaves them alone; created_at spread so lists have an order.
  const origin = await storedOrigin(db, 'https://example.com/hook', 3);
  await db.query(
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, payload, created_at, updated_at${origin.column})
     select gen_random_uuid(), $1, 0, now() + interval '30 days', 'pending', 'https://example.com/hook', 'POST',
            jsonb_build_object('n', n), now() - n * interval '1 second', now()${origin.value}
     from generate_series(1, $2) as n`,
    [team, SEEDED, ...origin.params],
  );
  await db.query('vacuum analyze events');
  // Seeding wrote ~100 MB of WAL: let its checkpoint happen now rather than during the first case.
  await db.query('checkpoint');
  for (const statement of setupStatements()) await db.query(statement);
  const ids = (
    await db.query<{ id: string }>('select id from events order by random() limit 10000')
  ).rows.map((row) => row.id);
  await db.end();

  const base = `http://127.0.0.1:${PORT}/api/v1`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const scheduledAt = new Date(Date.now() + 86_400_000).toISOString();
  // Through the API, so each cron is as its create leaves it. Each fires at most once a day, or in
  // one hour a month, so a 10 s case rarely meets a call.
  for (let n = 0; n < CRONS; n++) {
    const response = await fetch(`${base}/crons`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        cron_expression: CRON_EXPRESSIONS[n % CRON_EXPRESSIONS.length],
        timezone: CRON_ZONES[n % CRON_ZONES.length],
        webhook_url: 'https://example.com/cron',
      }),
    });
    if (response.status !== 201)
      throw new Error(`creating a cron: ${response.status} ${await response.text()}`);
  }
  // One request of 1,000 events: one transaction, one multi-row insert (events per second = req/s × 1,000).
  const batch = JSON.stringify({
    events: Array.from({ length: BATCH }, (_, n) => ({
      webhook_url: 'https://example.com/hook',
      scheduled_at: scheduledAt,
      payload: { n },
    })),
  });
  const cases: [string, autocannon.Options][] = [
    [
      'POST /api/v1/events',
      {
        url: `${base}/events`,
        method: 'POST',
        headers,
        body: JSON.stringify({
          webhook_url: 'https://example.com/hook',
          scheduled_at: scheduledAt,
          payload: { n: 1 },
        }),
        connections: 50,
      },
    ],
    [
      'POST /api/v1/events/batch (1,000 events)',
      { url: `${base}/events/batch`, method: 'POST', headers, body: batch, connections: 4 },
    ],
    [
      'GET /api/v1/events/{id}',
      {
        url: base,
        headers,
        connections: 50,
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              path: `/api/v1/events/${ids[Math.floor(Math.random() * ids.length)] ?? ''}`,
            }),
          },
        ],
      },
    ],
    ['GET /api/v1/events?limit=100', { url: `${base}/events?limit=100`, headers, connections: 10 }],
    ['GET /api/v1/crons?limit=50', { url: `${base}/crons?limit=50`, headers, connections: 10 }],
    // Latency at a stated load rather than at saturation: every list counts the team's 100,000 events.
    [
      'GET /api/v1/events?limit=100 at 100 req/s',
      { url: `${base}/events?limit=100`, headers, connections: 10, overallRate: 100 },
    ],
  ];
  const results = [];
  // BENCH_CASES='POST /api/v1/events;GET /api/v1/events/{id}' runs only the cases of these names.
  const only = process.env.BENCH_CASES?.split(';');
  for (const [name, options] of cases.filter(([name]) => !only || only.includes(name))) {
    const result = await autocannon({ duration: DURATION_S, ...options });
    results.push({
      name,
      connections: options.connections,
      requestsPerSecond: Math.round(result.requests.average),
      ...(name.includes('/batch') ? { eventsPerSecond: Math.round(result.requests.average * BATCH) } : {}),
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      non2xx: result.non2xx,
      errors: result.errors,
    });
  }
  const report = {
    date: new Date().toISOString(),
    cpus: os.cpus().length,
    role: ROLE,
    seeded: SEEDED,
    crons: CRONS,
    durationS: DURATION_S,
    results,
  };
  await saveReport('api', report);
} finally {
  await service.stop();
  await data.remove();
}
