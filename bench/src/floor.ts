// The floor of bench/delivery: a minimal PostgreSQL `SKIP LOCKED` batch loop sending the same calls to
// the same receiver — what any queue on this database pays at least. Not product code.
import pg from 'pg';
import { Agent, request } from 'undici';

const WORKERS = 4;
const BATCH = 500;

/** CPU milliseconds so far of the other processes a delivery involves. */
export type OtherCpu = () => Promise<{ postgres: number; receiver: number }>;

export async function skipLockedFloor(
  connection: pg.PoolConfig,
  receiverUrl: string,
  events: number,
  otherCpu: OtherCpu,
) {
  const pool = new pg.Pool({ ...connection, max: WORKERS });
  const agent = new Agent({ connections: 128, keepAliveTimeout: 30_000 });
  try {
    await pool.query(`create table floor_jobs (
      id bigserial primary key, url text not null, payload jsonb not null,
      status text not null default 'pending', response_status int)`);
    await pool.query(`create index floor_jobs_pending_idx on floor_jobs (id) where status = 'pending'`);
    await pool.query(
      `insert into floor_jobs (url, payload) select $1, '{"bench":true}' from generate_series(1, $2)`,
      [`${receiverUrl}/floor`, events],
    );
    const cpuBefore = { ...(await otherCpu()), queue: process.cpuUsage() };
    const started = performance.now();
    const worker = async () => {
      for (;;) {
        const { rows } = await pool.query<{ id: string; url: string; payload: unknown }>(
          `update floor_jobs set status = 'running' where id in (
             select id from floor_jobs where status = 'pending' order by id limit $1 for update skip locked)
           returning id, url, payload`,
          [BATCH],
        );
        if (rows.length === 0) return;
        const outcomes = await Promise.all(
          rows.map(async (job) => {
            const response = await request(job.url, {
              method: 'POST',
              body: JSON.stringify(job.payload),
              headers: { 'content-type': 'application/json', 'webhook-id': `floor-${job.id}` },
              dispatcher: agent,
            });
            await response.body.dump();
            return { id: job.id, status: response.statusCode };
          }),
        );
        await pool.query(
          `update floor_jobs f set status = 'done', response_status = o.status
           from jsonb_to_recordset($1::jsonb) as o(id bigint, status int) where f.id = o.id`,
          [JSON.stringify(outcomes)],
        );
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    const seconds = (performance.now() - started) / 1000;
    const queue = process.cpuUsage(cpuBefore.queue);
    const other = await otherCpu();
    const perDelivery = (ms: number) => Math.round((ms * 1000) / events);
    return {
      recordedPerSecond: Math.round(events / seconds),
      cpuMicrosecondsPerDelivery: {
        // This process: the loop and its HTTP calls.
        queue: Math.round((queue.user + queue.system) / events),
        postgres: perDelivery(other.postgres - cpuBefore.postgres),
        receiver: perDelivery(other.receiver - cpuBefore.receiver),
      },
    };
  } finally {
    await pool.query('drop table if exists floor_jobs').catch(() => undefined);
    await agent.close();
    await pool.end();
  }
}
