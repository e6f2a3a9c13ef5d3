// Experiment (bench/README.md, 2026-11-25): PostgreSQL's cost per row of the outcome statement
// (RECORD in server/src/events/store/delivery.ts, read from the build) against the same statement cut
// to its update of events, for batches of successes. Not product code. On a scratch database:
//   DATABASE_URL=<url> webhook-scheduler migrate && DATABASE_URL=<url> webhook-scheduler teams create --name x
//   node bench/results/experiments/lean-outcome.mjs <url>    (from the repository root, after a build)
import fs from 'node:fs';
import pg from 'pg';

const src = fs.readFileSync(
  new URL('../../../server/dist/events/store/delivery.js', import.meta.url),
  'utf8',
);
const start = src.indexOf('const RECORD = `') + 'const RECORD = `'.length;
const RECORD = src.slice(start, src.indexOf('`;', start));
const LEAN = `${RECORD.slice(0, RECORD.indexOf('), settled as'))})\n select id from recorded`;
const db = new pg.Client({ connectionString: process.argv[2] });
await db.connect();
const N = 20000;
const B = 500;
const HEADERS = {
  'content-length': '0',
  date: 'Wed, 25 Nov 2026 20:11:55 GMT',
  connection: 'keep-alive',
  'keep-alive': 'timeout=5',
};
const team = (await db.query('select id from teams limit 1')).rows[0].id;
async function fresh() {
  await db.query('delete from events');
  await db.query(
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, payload, created_at, updated_at,
       destination, lease_token, lease_owner, lease_expires_at, claim_count)
     select gen_random_uuid(), $1, 0, now(), 'processing', 'http://127.0.0.1:3498/throughput', 'POST', '{"bench":true}'::jsonb,
       now(), now(), '127.0.0.1:3498', gen_random_uuid(), 1, now() + interval '1 hour', 1
     from generate_series(1, $2)`,
    [team, N],
  );
  await db.query('vacuum analyze events');
  await db.query('checkpoint');
  return (await db.query('select id, lease_token from events order by id')).rows;
}
const input = (row) => ({
  id: row.id,
  lease_token: row.lease_token,
  status: 'success',
  executed_at: new Date(),
  response_status: 200,
  response_headers: HEADERS,
  response_body: '',
  response_duration: 1,
  response_error: null,
  original_id: row.id,
  original_status: null,
});
for (let round = 0; round < 4; round++) {
  for (const [name, text] of [
    ['record', RECORD],
    ['lean', LEAN],
  ]) {
    const rows = await fresh();
    let ms = 0;
    for (let i = 0; i < rows.length; i += B) {
      const started = performance.now();
      await db.query({ name, text, values: [JSON.stringify(rows.slice(i, i + B).map(input))] });
      ms += performance.now() - started;
    }
    console.log(round, name.padEnd(6), 'µs/row', Math.round((ms * 1000) / N));
  }
}
await db.end();
