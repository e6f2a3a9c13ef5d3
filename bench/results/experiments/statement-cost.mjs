// Experiment (bench/README.md, 2026-11-26): PostgreSQL's CPU per delivery of the scheduler's real
// claim and outcome statements (the built `claimDue` and `recordOutcomes`), without HTTP. CPU is read
// from /proc for the server's processes, so the server must run on this machine. Not product code.
// On a scratch database:
//   DATABASE_URL=<url> webhook-scheduler migrate && DATABASE_URL=<url> webhook-scheduler teams create --name x
//   node bench/results/experiments/statement-cost.mjs <url> [label]   (from the repository root, after a build)
// Knobs: BATCH (events per claim, 500), IN_FLIGHT (events claimed and held while later batches are
// recorded, 0), FUTURE (pending events due tomorrow, kept across rounds, 0), IDS=v7 (time-ordered
// ids for the inserted events), ROWS (20000), ROUNDS (3), SETUP (SQL run once after the first rows
// are inserted, e.g. `drop index …` to see what an index costs).
// SHAPE=outcome-table: the outcome inserts a row of its own table (`event_outcomes`, indexed for the
// status list and expiry) and never updates `events`, whose three status indexes and pending-count
// update trigger are dropped for it. Only what the benchmark's events need (no crons, no retries):
// a lower bound of what that shape costs. Each line also gives PostgreSQL's CPU for the insert.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { claimDue } from '../../../server/dist/events/store/claims.js';
import { recordOutcomes } from '../../../server/dist/events/store/delivery.js';
import { planRecord } from '../../../scheduler/dist/attempt.rules.js';
import { treeCpuMs } from '../../src/cpu.ts';

const [url, label = 'main'] = process.argv.slice(2);
const ROWS = Number(process.env.ROWS ?? 20000);
const BATCH = Number(process.env.BATCH ?? 500);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 0);
const FUTURE = Number(process.env.FUTURE ?? 0);
// IDS=v7: time-ordered ids (UUID version 7, the creation time in its first 48 bits).
const NEW_ID = process.env.IDS === 'v7' ? 'bench_uuid_v7()' : 'gen_random_uuid()';
const pool = new pg.Pool({ connectionString: url, max: 1 });
const admin = new pg.Client({ connectionString: url });
await admin.connect();
// What preparedQuery needs of an entity manager: the pool behind it.
const em = { isInTransaction: () => false, getConnection: () => ({ getNativeClient: async () => pool }) };
const team = (await admin.query('select id from teams limit 1')).rows[0].id;
// Every PostgreSQL process of this server is a child of its postmaster.
const postmaster = Number(
  (await admin.query(`select split_part(pg_read_file('postmaster.pid'), E'\\n', 1) as pid`)).rows[0].pid,
);
if (process.env.IDS === 'v7') {
  await admin.query(`create or replace function bench_uuid_v7() returns uuid volatile language sql as $$
    select encode(set_byte(set_byte(b, 6, (get_byte(b, 6) & 15) | 112), 8, (get_byte(b, 8) & 63) | 128), 'hex')::uuid
    from (select overlay(uuid_send(gen_random_uuid()) placing
      substring(int8send((extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6) as b) as v7 $$`);
}
const SHAPE = process.env.SHAPE ?? 'today';
const OUTCOME_TABLE = `
  create table if not exists event_outcomes (event_id uuid primary key, team_id uuid not null,
    created_at timestamptz not null, status text not null, executed_at timestamptz, response_status int,
    response_headers jsonb, response_body text, response_duration int, response_error text,
    claim_count smallint not null default 0, updated_at timestamptz not null);
  create index if not exists event_outcomes_status_list_idx
    on event_outcomes (team_id, status, created_at desc, event_id desc);
  create index if not exists event_outcomes_expiry_idx
    on event_outcomes (team_id, updated_at) where status in ('success', 'failed');
  drop index if exists events_team_count_idx;
  drop index if exists events_team_status_list_idx;
  drop index if exists events_expiry_idx;
  drop trigger if exists events_pending_changed on events;
  create or replace function count_pending_settled() returns trigger language plpgsql as $f$
    begin
      insert into pending_event_counts (team_id, shard, n)
      select e.team_id, floor(random() * 16)::smallint, -count(*) from new_rows n join events e on e.id = n.event_id
      where e.cron_id is null group by e.team_id
      on conflict (team_id, shard) do update set n = pending_event_counts.n + excluded.n;
      return null;
    end $f$;
  drop trigger if exists outcomes_pending_settled on event_outcomes;
  create trigger outcomes_pending_settled after insert on event_outcomes referencing new table as new_rows
    for each statement execute function count_pending_settled();`;
const OUTCOME_TABLE_RECORD = `with input as (
    select * from jsonb_to_recordset($1::jsonb) as i(id uuid, lease_token uuid, status text,
      executed_at timestamptz, response_status int, response_headers jsonb, response_body text,
      response_duration int, response_error text)
  ), dequeued as (
    delete from event_queue q using input i
    where q.event_id = any(array(select id from input)) and q.event_id = i.id
      and q.lease_token is not distinct from i.lease_token and i.lease_token is not null
    returning q.event_id, q.claim_count
  )
  insert into event_outcomes (event_id, team_id, created_at, status, executed_at, response_status,
    response_headers, response_body, response_duration, response_error, claim_count, updated_at)
  select e.id, e.team_id, e.created_at, i.status, i.executed_at, i.response_status, i.response_headers,
    i.response_body, i.response_duration, i.response_error, d.claim_count, clock_timestamp()
  from dequeued d join input i on i.id = d.event_id join events e on e.id = d.event_id
  returning event_id`;

async function recordInOwnTable(records) {
  const input = records.map((r) => ({
    id: r.id,
    lease_token: r.leaseToken,
    status: r.status,
    executed_at: r.executedAt,
    response_status: r.responseStatus,
    response_headers: r.responseHeaders,
    response_body: r.responseBody,
    response_duration: r.responseDuration,
    response_error: r.responseError,
  }));
  const { rowCount } = await pool.query({
    name: 'outcome-table',
    text: OUTCOME_TABLE_RECORD,
    values: [JSON.stringify(input)],
  });
  if (rowCount !== records.length) throw new Error(`recorded ${rowCount} of ${records.length}`);
}

const HEADERS = { 'content-length': '0', date: 'Wed, 25 Nov 2026 20:11:55 GMT', connection: 'keep-alive' };
const shares = { teams: [], destinations: [], teamMax: 100_000, destinationMax: 100_000 };
const from = new Date(Date.now() - 3_600_000);
const before = new Date(Date.now() + 3_600_000);

let insertMs = 0;
async function fresh(round) {
  if (SHAPE === 'outcome-table') {
    if (round === 0) await admin.query(OUTCOME_TABLE);
    await admin.query('truncate event_outcomes');
  }
  await admin.query(`delete from events where scheduled_at < now() + interval '1 hour'`);
  await admin.query('vacuum events');
  if (round === 0 && FUTURE > 0) {
    await admin.query('delete from events');
    await admin.query(
      `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, payload, created_at, updated_at, destination)
       select ${NEW_ID}, $1, 0, now() + interval '1 day' + i * interval '1 millisecond', 'pending',
         'http://127.0.0.1:3498/later', 'POST', '{"bench":true}'::jsonb, now(), now(), '127.0.0.1:3498'
       from generate_series(1, $2) as i`,
      [team, FUTURE],
    );
  }
  const beforeInsert = await treeCpuMs(postmaster);
  await admin.query(
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, payload, created_at, updated_at, destination)
     select ${NEW_ID}, $1, 0, now(), 'pending', 'http://127.0.0.1:3498/throughput', 'POST', '{"bench":true}'::jsonb,
       now(), now(), '127.0.0.1:3498'
     from generate_series(1, $2)`,
    [team, ROWS],
  );
  insertMs = (await treeCpuMs(postmaster)) - beforeInsert;
  if (process.env.SETUP && round === 0) await admin.query(process.env.SETUP);
  await admin.query('vacuum analyze events');
  await admin.query('vacuum analyze event_queue');
  await admin.query('checkpoint');
}

const success = (startedAt) => ({
  ok: true,
  status: 200,
  headers: HEADERS,
  body: '',
  durationMs: 1,
  error: null,
  permanent: false,
  startedAt,
});

for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round++) {
  await fresh(round);
  const backend = (await pool.query('select pg_backend_pid() as pid')).rows[0].pid;
  let claimMs = 0;
  let outcomeMs = 0;
  let delivered = 0;
  const cpu = await treeCpuMs(postmaster);
  const backendCpu = await treeCpuMs(backend);
  const clientCpu = process.cpuUsage();
  // Claimed and not recorded yet, oldest first: the calls in flight (IN_FLIGHT beyond one batch).
  const inFlight = [];
  for (;;) {
    let started = performance.now();
    const claimed = await claimDue(em, {
      limit: BATCH,
      leaseMs: 60_000,
      leaseToken: randomUUID(),
      owner: 1,
      shares,
      from,
      before,
    });
    claimMs += performance.now() - started;
    inFlight.push(...claimed);
    if (inFlight.length <= IN_FLIGHT && claimed.length > 0) continue;
    const done = inFlight.splice(0, claimed.length > 0 ? claimed.length : BATCH);
    if (done.length === 0) break;
    delivered += done.length;
    const records = done.map((attempt) => planRecord(attempt, success(new Date()), randomUUID));
    started = performance.now();
    if (SHAPE === 'outcome-table') await recordInOwnTable(records);
    else await recordOutcomes(em, null, records);
    outcomeMs += performance.now() - started;
  }
  const perRow = (ms) => Math.round((ms * 1000) / delivered);
  const client = process.cpuUsage(clientCpu);
  console.log(
    JSON.stringify({
      label,
      shape: SHAPE,
      batch: BATCH,
      inFlight: IN_FLIGHT,
      future: FUTURE,
      round,
      delivered,
      wallMicroseconds: { claim: perRow(claimMs), outcome: perRow(outcomeMs) },
      cpuMicroseconds: {
        insert: perRow(insertMs),
        postgres: perRow((await treeCpuMs(postmaster)) - cpu),
        backend: perRow((await treeCpuMs(backend)) - backendCpu),
        client: perRow((client.user + client.system) / 1000),
      },
    }),
  );
}
await admin.end();
await pool.end();
