import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../shared/raw-query.js';

/** A team's queue at a glance: what is due per minute ahead, what waits, what is in flight. */
export interface QueueLoad {
  /** Pending events due in [from, to), per minute start (epoch ms). */
  perMinute: Map<number, number>;
  /** Pending events due before `from`, counted up to the cap. */
  waiting: number;
  /** Calls of the team in flight. */
  inFlight: number;
}

/**
 * One statement over the team's queue rows: the range [from, to) and up to `waitingCap` rows before
 * it read through (team_id, scheduled_at) where unleased, the calls in flight through the lease
 * index (at most every call in flight). It reads as many rows as the team has due in the range.
 */
export async function queueLoad(
  em: EntityManager,
  teamId: string,
  range: { from: Date; to: Date; waitingCap: number },
): Promise<QueueLoad> {
  const [row] = await rawQuery<{ waiting: number; in_flight: number; minutes: Record<string, number> }>(
    em,
    `select
       (select count(*) from (
          select 1 from event_queue
          where team_id = $1 and lease_token is null and scheduled_at < $2 limit $4
        ) as due)::int as waiting,
       (select count(*) from event_queue where team_id = $1 and lease_token is not null)::int as in_flight,
       coalesce((
         select jsonb_object_agg((extract(epoch from minute) * 1000)::bigint, n) from (
           select date_bin(interval '1 minute', scheduled_at, timestamptz '1970-01-01 00:00:00+00') as minute,
                  count(*)::int as n
           from event_queue
           where team_id = $1 and lease_token is null and scheduled_at >= $2 and scheduled_at < $3
           group by 1
         ) as minutes
       ), '{}') as minutes`,
    [teamId, range.from, range.to, range.waitingCap],
  );
  return {
    perMinute: new Map(Object.entries(row?.minutes ?? {}).map(([minute, n]) => [Number(minute), n])),
    waiting: row?.waiting ?? 0,
    inFlight: row?.in_flight ?? 0,
  };
}

/**
 * Pending events already due (for the backlog gauge). The statement's start is the clock here, a
 * value the planner sees: against the database clock's unknown value it guessed a third of the
 * queue due and counted with two parallel workers at every scrape (2M events waiting, none due:
 * 7.7 ms against 0.5).
 */
export async function dueBacklog(em: EntityManager): Promise<number> {
  const [row] = await rawQuery<{ count: string }>(
    em,
    `select count(*) as count from event_queue
     where lease_token is null and parked_until is null and scheduled_at <= statement_timestamp()`,
  );
  return Number(row?.count ?? 0);
}
