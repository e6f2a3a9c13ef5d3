// Experiment (bench/README.md, 2026-11-25): PostgreSQL's cost per row of a delivery's writes —
// today's two updates of the wide events row (claim, outcome) against a narrow queue row leased in
// place and the events row written once, at the outcome. Not product code. On a scratch database:
//   DATABASE_URL=<url> webhook-scheduler migrate && DATABASE_URL=<url> webhook-scheduler teams create --name x
//   node bench/results/experiments/narrow-queue.mjs <url>    (from the repository root, for `pg`)
import pg from 'pg';
const db = new pg.Client({ connectionString: process.argv[2] });
await db.connect();
const N = 20000,
  B = 500;
const team = (await db.query('select id from teams limit 1')).rows[0].id;
const HEADERS =
  '{"content-length":"0","date":"Wed, 25 Nov 2026 20:11:55 GMT","connection":"keep-alive","keep-alive":"timeout=5"}';
async function fresh() {
  await db.query('delete from events');
  await db.query('drop table if exists queue');
  await db.query(`create table queue (event_id uuid primary key, team_id uuid not null, due_at timestamptz not null,
    lease_token uuid, lease_owner int, lease_expires_at timestamptz, claim_count int not null default 0) with (fillfactor = 70)`);
  await db.query('create index queue_due_idx on queue (due_at)');
  await db.query(
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, payload, created_at, updated_at, destination)
    select gen_random_uuid(), $1, 0, now(), 'pending', 'http://127.0.0.1:3498/throughput', 'POST', '{"bench":true}'::jsonb, now(), now(), '127.0.0.1:3498'
    from generate_series(1, $2)`,
    [team, N],
  );
  await db.query(
    `insert into queue (event_id, team_id, due_at) select id, team_id, scheduled_at from events`,
  );
  await db.query('vacuum analyze events');
  await db.query('vacuum analyze queue');
  await db.query('checkpoint');
  return (await db.query('select id from events order by id')).rows.map((r) => r.id);
}
const t = async (sql, params) => {
  const s = performance.now();
  await db.query(sql, params);
  return performance.now() - s;
};
/** Claims then records every event in batches; the time each of the two statements took. */
async function deliverAll(ids, { claimSql, outcomeSql }) {
  let claim = 0,
    out = 0;
  for (let i = 0; i < ids.length; i += B) {
    const batch = ids.slice(i, i + B);
    claim += await t(claimSql, [batch]);
    out += await t(outcomeSql, [batch, HEADERS]);
  }
  return { claim, out };
}
const wide = {
  claimSql: `with due as (select id from events where id = any($1::uuid[]) and status = 'pending' for update skip locked)
    update events e set status = 'processing', lease_token = gen_random_uuid(), lease_owner = 1, claim_count = claim_count + 1,
      lease_expires_at = clock_timestamp() + interval '1 min', updated_at = clock_timestamp()
    where e.id = any(array(select id from due))`,
  outcomeSql: `update events e set status = 'success', executed_at = now(), response_status = 200, response_headers = $2::jsonb,
      response_body = '', response_duration = 1, lease_token = null, lease_owner = null, lease_expires_at = null, updated_at = clock_timestamp()
    where e.id = any($1::uuid[]) and e.status = 'processing'`,
};
const narrow = {
  claimSql: `with due as (select event_id from queue where event_id = any($1::uuid[]) and lease_token is null for update skip locked)
    update queue q set lease_token = gen_random_uuid(), lease_owner = 1, claim_count = claim_count + 1,
      lease_expires_at = clock_timestamp() + interval '1 min'
    where q.event_id = any(array(select event_id from due))`,
  outcomeSql: `with done as (delete from queue where event_id = any($1::uuid[]) returning event_id)
    update events e set status = 'success', executed_at = now(), response_status = 200, response_headers = $2::jsonb,
      response_body = '', response_duration = 1, updated_at = clock_timestamp()
    where e.id = any(array(select event_id from done)) and e.status = 'pending'`,
};
const us = (ms) => Math.round((ms * 1000) / N);
for (let round = 0; round < 3; round++) {
  for (const [name, shape] of [
    ['wide', wide],
    ['narrow', narrow],
  ]) {
    const ids = await fresh();
    const { claim, out } = await deliverAll(ids, shape);
    console.log(
      round,
      name.padEnd(6),
      'claim',
      us(claim),
      'µs/row',
      'outcome',
      us(out),
      'µs/row',
      'total',
      us(claim + out),
    );
  }
}
await db.query('drop table if exists queue');
await db.end();
