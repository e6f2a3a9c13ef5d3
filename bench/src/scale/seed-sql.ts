// The SQL that seeds the scale benchmark's template: months of a busy installation, written in bulk
// (triggers and foreign-key checks off, indexes built after the rows) and then made consistent
// (queue rows, counters, statistics) the way the service's own writes would have left it.

/** How much to seed: SCALE=1 is issue 25's size; smaller values keep the proportions. */
export interface SeedSize {
  teams: number;
  finished: number;
  crons: number;
  destinations: number;
  /** The receivers' first port, which the seeded URLs name: a template of other ports is seeded anew. */
  receiverPortBase: number;
  /** Crons seeded as having run (a success last): a template seeded before is seeded anew. */
  cronsHaveRun: boolean;
}

export function seedSize(scale: number): SeedSize {
  return {
    teams: 100,
    finished: Math.round(8_000_000 * scale),
    crons: Math.round(20_000 * scale),
    destinations: Math.max(100, Math.round(10_000 * scale)),
    receiverPortBase: RECEIVER_PORT_BASE,
    cronsHaveRun: true,
  };
}

/** The id of the seed's team `n` (team 0 holds half of everything). */
export const teamId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * Live receivers listen on RECEIVER_PORT_BASE + 0..RECEIVER_PORTS-1; crons and the load call them.
 * Below Linux's ephemeral ports (32768–60999): at 41,000 a client connection had taken one first.
 */
export const RECEIVER_PORT_BASE = 30_000;
export const RECEIVER_PORTS = 100;
const DAY_MS = 86_400_000;
/** Finished events span this much before the seed, so a run within a day deletes at retention's pace. */
const HISTORY_MS = 29 * DAY_MS;

/** The key of team `index` (its hash is stored), so the load can use it without a CLI call per team. */
export function teamKey(index: number): string {
  return `whs_scale${String(index).padStart(4, '0')}${KEY_TAIL}`;
}
const KEY_TAIL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ01';

const ZONES = [
  'UTC',
  'Europe/London',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Moscow',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'Asia/Tokyo',
  'Asia/Shanghai',
  'Asia/Kolkata',
  'Asia/Dubai',
  'Asia/Singapore',
  'Australia/Sydney',
  'Pacific/Auckland',
  'Africa/Johannesburg',
  'America/Toronto',
  'Asia/Kathmandu',
];

/**
 * Team of row `g`: half of all rows go to team 0, the rest skewed toward low indexes (a few large
 * tenants, a long tail), deterministic so a re-seed gives the same data.
 */
const teamIndex = (g: string) =>
  `(case when ${g} % 2 = 0 then 0 else 1 + floor(99 * power(((${g}::bigint * 2654435761) % 1000003) / 1000003.0, 2))::int end)`;

/** A version-7 UUID for time `ts`, its random part from the text `salt`: the service's ids are time-ordered too. */
const uuid7 = (ts: string, salt: string) =>
  `(lpad(to_hex(floor(extract(epoch from ${ts}) * 1000)::bigint), 12, '0') || '7' || substr(md5(${salt}), 1, 3)
    || '8' || substr(md5(${salt}), 4, 15))::uuid`;

/** Statements in order, each with what it does (for progress). */
export function seedStatements(size: SeedSize): [string, string][] {
  const originals = Math.round(size.finished / 1.2);
  const step = `${HISTORY_MS} / ${originals}.0`;
  return [
    ['bulk mode', `set session_replication_role = replica`],
    ['seed', `select setseed(0.42)`],
    [
      'marker',
      `create table bench_seed (seeded_at timestamptz not null, size jsonb not null);
       insert into bench_seed values (now(), '${JSON.stringify(size)}')`,
    ],
    [
      'payload pool',
      `create temp table pool as
       select i, jsonb_build_object(
         'type', (array['order.created', 'invoice.paid', 'user.signup', 'report.ready'])[1 + i % 4],
         'id', 'evt_' || md5(i::text), 'created', '2026-11-01T12:00:00Z',
         'data', jsonb_build_object(
           'customer', jsonb_build_object('id', 'cus_' || substr(md5('c' || i), 1, 14),
                                          'email', 'user' || i || '@example.com', 'name', 'Customer ' || i),
           'items', (select jsonb_agg(jsonb_build_object('sku', 'sku_' || substr(md5(i::text || k), 1, 10),
                       'qty', k, 'price_cents', (i * k) % 10000,
                       'description', 'Item ' || k || ' ' || substr(md5(k::text || i), 1, 24)))
                     from generate_series(1, 6) k),
           'metadata', jsonb_build_object('source', 'api', 'trace', md5(i::text || 't'), 'region', 'eu-west-1'))
       ) as payload,
       '{"ok":true,"id":"' || md5(i::text || 'r') || '","message":"' || repeat('accepted ', 10 + i % 90) || '"}' as body,
       jsonb_build_object('content-type', 'application/json', 'date', 'Sun, 01 Nov 2026 12:00:00 GMT',
         'server', 'nginx', 'x-request-id', md5(i::text || 'x'), 'content-length', (200 + i % 800)::text) as response_headers
       from generate_series(0, 999) i`,
    ],
    [
      'teams',
      `insert into teams (id, name, signing_secret, created_at, updated_at)
       select ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, 'scale team ' || i,
              'whsec_' || encode(sha256(('scale' || i)::bytea), 'base64'), now() - interval '90 days', now()
       from generate_series(0, ${size.teams - 1}) i`,
    ],
    [
      'keys',
      `insert into api_keys (id, team_id, name, prefix, key_hash, created_at)
       select gen_random_uuid(), ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, 'scale',
              substr(k, 1, 12), encode(sha256(k::bytea), 'hex'), now() - interval '90 days'
       from generate_series(0, ${size.teams - 1}) i,
            lateral (select 'whs_scale' || lpad(i::text, 4, '0') || '${KEY_TAIL}' as k) key`,
    ],
    [
      'crons',
      `insert into crons (id, team_id, cron_expression, timezone, webhook_url, method, payload, retry_config,
                          is_active, created_at, updated_at, consecutive_failures, last_status, last_run_at)
       select ('00000000-0000-4000-9000-' || lpad(c::text, 12, '0'))::uuid,
              ('00000000-0000-4000-8000-' || lpad(${teamIndex('c')}::text, 12, '0'))::uuid,
              case c % 4 when 0 then '* * * * *' when 1 then '*/5 * * * *'
                         when 2 then (c % 60) || ' * * * *' else (c % 60) || ' ' || (c % 24) || ' * * *' end,
              (array[${ZONES.map((zone) => `'${zone}'`).join(', ')}])[1 + c % ${ZONES.length}],
              'http://127.0.0.1:' || (${RECEIVER_PORT_BASE} + c % ${RECEIVER_PORTS}) || '/cron/' || c, 'POST',
              (select payload from pool where i = c % 1000),
              case when c % 10 = 0 then '{"maxRetries":3,"backoffMs":1000,"backoffType":"exponential"}'::jsonb end,
              -- Crons with a history have run: a never-run cron's row is written at its first success.
              true, now() - interval '60 days', now(), 0, 'success', now()
       from generate_series(0, ${size.crons - 1}) c`,
    ],
    [
      `${originals} finished originals`,
      `insert into events (id, team_id, cron_id, attempt, scheduled_at, executed_at, status, webhook_url, destination,
                           method, headers, payload, retry_config, response_status, response_headers, response_body,
                           response_duration, created_at, updated_at, claim_count)
       select ${uuid7('s.at', 'g::text')}, s.team_id, s.cron_id, 0, s.at, s.at + interval '3 ms',
              case when g % 10 = 0 then 'success' when g % 20 = 1 then 'failed' else 'success' end,
              'https://d' || s.dest || '.example.com/webhooks/' || (g % 7), 'https://d' || s.dest || '.example.com',
              'POST', case when g % 5 = 0 then jsonb_build_object('x-tenant', 't' || (g % 1000)) end, p.payload,
              case when g % 10 = 0 then '{"maxRetries":3,"backoffMs":1000,"backoffType":"exponential"}'::jsonb end,
              case when g % 10 = 0 or g % 20 = 1 then 500 else 200 end, p.response_headers,
              substr(p.body, 1, 200 + (g % 800)), 20 + g % 480, s.at - interval '1 hour', s.at + interval '1 second', 1
       from generate_series(1, ${originals}) g
       cross join lateral (
         select now() - (g * ${step}) * interval '1 millisecond' as at,
                case when g % 10 < 3 then ('00000000-0000-4000-9000-' || lpad((g % ${size.crons})::text, 12, '0'))::uuid end as cron_id,
                ('00000000-0000-4000-8000-' || lpad((case when g % 10 < 3 then ${teamIndex(`(g % ${size.crons})`)} else ${teamIndex('g')} end)::text, 12, '0'))::uuid as team_id,
                g % ${size.destinations} as dest
       ) s
       join pool p on p.i = g % 1000`,
    ],
    [
      'retries of one original in ten',
      `insert into events (id, team_id, cron_id, retry_of, attempt, scheduled_at, executed_at, status, webhook_url,
                           destination, method, headers, payload, retry_config, response_status, response_headers,
                           response_body, response_duration, created_at, updated_at, claim_count)
       select ${uuid7("o.scheduled_at + a * interval '2 seconds'", `'r' || o.id || a`)}, o.team_id, o.cron_id, o.id, a,
              o.scheduled_at + a * interval '2 seconds', o.scheduled_at + a * interval '2 seconds' + interval '3 ms',
              case when a = 1 + g % 3 then 'success' else 'failed' end, o.webhook_url, o.destination, o.method, o.headers,
              o.payload, o.retry_config, case when a = 1 + g % 3 then 200 else 503 end, o.response_headers,
              o.response_body, o.response_duration, o.created_at, o.updated_at + a * interval '2 seconds', 1
       from (select row_number() over () as g, e.* from events e where e.retry_config is not null) o
       cross join lateral generate_series(1, 1 + (o.g % 3)::int) a`,
    ],
    ['triggers and checks on', `set session_replication_role = origin`],
  ];
}

/**
 * Pending events `from`..`to` (of `count`) due over the next 30 days from an hour ahead, written with
 * the triggers on (their queue rows and counters as the service's own inserts make them). Far-future
 * events need no timer yet; the API's path is measured by the load itself.
 */
export function pendingStatement(from: number, to: number, count: number): string {
  const step = `${30 * DAY_MS} / ${count}.0`;
  return `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, payload,
                             created_at, updated_at)
    select ${uuid7('now()', `'p' || g`)}, ('00000000-0000-4000-8000-' || lpad(${teamIndex('g')}::text, 12, '0'))::uuid, 0,
           now() + interval '1 hour' + (g * ${step}) * interval '1 millisecond', 'pending',
           'http://127.0.0.1:' || (${RECEIVER_PORT_BASE} + g % ${RECEIVER_PORTS}) || '/future/' || g,
           'http://127.0.0.1:' || (${RECEIVER_PORT_BASE} + g % ${RECEIVER_PORTS}), 'POST',
           '{"type":"order.created","data":{"id":"ord_1","note":"${'x'.repeat(900)}"}}'::jsonb, now(), now()
    from generate_series(${from}, ${to}) g`;
}

/** The statements that rebuild what the triggers would have kept, after a bulk load. */
export const CONSISTENCY_STATEMENTS: [string, string][] = [
  [
    'event totals',
    `delete from event_totals;
     insert into event_totals (scope, shard, n)
     select scope, 0, count(*) from (
       select team_id as scope from events union all select cron_id from events where cron_id is not null
     ) rows group by scope`,
  ],
  [
    'pending counts',
    `delete from pending_event_counts;
     insert into pending_event_counts (team_id, shard, n)
     select team_id, 0, count(*) from events where status = 'pending' and cron_id is null group by team_id`,
  ],
];
