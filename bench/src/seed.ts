// What the benchmarks put in the service's database themselves: a connection to the embedded
// PostgreSQL, a second team, and events due at given times inserted in bulk with their timer jobs
// (so that creating them does not stretch a measurement).
import path from 'node:path';
import { Timers, newEventId } from '@webhook-scheduler/scheduler';
import pg from 'pg';
import { storedOrigin } from './stored-origin.ts';

/** A client of the embedded PostgreSQL under `dataDir`. */
export async function connectDb(dataDir: string): Promise<pg.Client> {
  const db = new pg.Client({
    host: path.join(dataDir, 'run'),
    user: 'postgres',
    database: 'webhook_scheduler',
  });
  await db.connect();
  return db;
}

/** The team of the key a fresh service printed. */
export async function firstTeamId(db: pg.Client): Promise<string> {
  const { rows } = await db.query<{ id: string }>('select team_id as id from api_keys limit 1');
  const id = rows[0]?.id;
  if (!id) throw new Error('no API key in the database (not a fresh service?)');
  return id;
}

/** Another team, with the same signing secret as `like`. */
export async function addTeam(db: pg.Client, like: string, name: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into teams (id, name, signing_secret, created_at, updated_at)
     select gen_random_uuid(), $2, signing_secret, now(), now() from teams where id = $1 returning id`,
    [like, name],
  );
  return rows[0]!.id;
}

/**
 * Events of `teamId` to `url` due at `times`, in that order, with the ids the service gives events;
 * each payload is `{"due": <scheduled time in epoch ms>}`, so a receiver can tell its lateness.
 */
export async function insertEvents(db: pg.Client, teamId: string, url: string, times: Date[]): Promise<void> {
  const origin = await storedOrigin(db, url, 5);
  await db.query(
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, payload, created_at, updated_at${origin.column})
     select id, $1, 0, t, 'pending', $2, 'POST', jsonb_build_object('due', extract(epoch from t) * 1000), now(), now()${origin.value}
     from unnest($3::timestamptz[], $4::uuid[]) with ordinality as e(t, id, n) order by n`,
    [teamId, url, times, times.map(() => newEventId()), ...origin.params],
  );
  const timers = new Timers({ shards: 2 });
  await timers.schedule(db, times, new Date());
}

/** `count` times spread evenly over `spreadMs` from `from` (epoch ms). */
export function evenly(count: number, from: number, spreadMs: number): Date[] {
  return Array.from({ length: count }, (_, i) => new Date(from + Math.floor((i * spreadMs) / count)));
}

/** Events to `url` that ended, and of those the failed ones. */
export async function finished(db: pg.Client, url: string): Promise<{ done: number; failed: number }> {
  const { rows } = await db.query<{ done: string; failed: string }>(
    `select count(*) filter (where status in ('success', 'failed')) as done,
            count(*) filter (where status = 'failed') as failed
     from events where webhook_url = $1`,
    [url],
  );
  return { done: Number(rows[0]?.done), failed: Number(rows[0]?.failed) };
}
