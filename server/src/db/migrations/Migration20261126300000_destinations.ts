import { Migration } from '@mikro-orm/migrations';

/** The pending-event counts per destination, appended by the same triggers as `event_counts`. */
const DESTINATION_ROWS = (rows: string) =>
  `select team_id, destination as origin, status from ${rows}
   where status in ('pending', 'processing') and destination is not null`;

/**
 * Destinations (docs/reference/behaviour.md#destinations): a team's settings and health per origin, the calls waiting for one,
 * and the queue rows held back from claims while a destination cannot take calls.
 *
 * - `destinations`: per team and origin, the team's settings (rate limit, most calls at once,
 *   pause) and what the outcomes showed (circuit breaker, Retry-After, the last call).
 * - `destination_counts`: the team's pending events per origin, appended by the event triggers and
 *   folded in the background, as `event_counts` (whose triggers now append these too);
 *   `destination_hours`: the calls and failures per origin and hour, appended as outcomes are
 *   recorded, folded likewise and kept a day.
 * - `event_queue.parked_until`: a queue row held back while its destination is paused, its circuit
 *   open, or its Retry-After runs ('infinity' until released). The claims' indexes leave parked rows
 *   out, so events waiting for a destination cost the claims nothing.
 *
 * Indexes on `event_queue` are built concurrently: outside a transaction, and the existing pending
 * counts written as `event_counts` were (triggers first, then one statement in a snapshot).
 */
export class Migration20261126300000_destinations extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    await this.execute(`create table if not exists destinations (
      team_id uuid not null references teams (id) on delete cascade,
      origin text not null,
      rate_limit_requests integer,
      rate_limit_per text check (rate_limit_per in ('second', 'minute', 'hour')),
      max_in_flight integer,
      paused boolean not null default false,
      circuit text not null default 'closed' check (circuit in ('closed', 'open', 'half_open')),
      consecutive_failures integer not null default 0,
      open_until timestamptz,
      cooldown_ms integer not null default 0,
      probe_event_id uuid,
      retry_after_until timestamptz,
      last_call_at timestamptz,
      last_status text,
      last_response_status integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, origin),
      check ((rate_limit_requests is null) = (rate_limit_per is null))
    )`);
    // The few destinations a claim must hold back or limit, found without reading the others.
    await this.execute(`create index if not exists destinations_held_idx on destinations (team_id, origin)
      where paused or circuit <> 'closed' or retry_after_until is not null`);
    await this.execute(`create index if not exists destinations_limited_idx on destinations (team_id, origin)
      where rate_limit_requests is not null or max_in_flight is not null`);

    await this.execute(`create table if not exists destination_counts (
      team_id uuid not null,
      origin text not null,
      status text not null,
      n bigint not null,
      xid xid8
    )`);
    await this.execute(
      'create index if not exists destination_counts_idx on destination_counts (team_id, origin, status)',
    );
    await this.execute(
      'create index if not exists destination_counts_unfolded_idx on destination_counts (team_id, origin) where xid is not null',
    );
    await this.execute(`create table if not exists destination_hours (
      team_id uuid not null,
      origin text not null,
      hour timestamptz not null,
      calls integer not null,
      failures integer not null,
      xid xid8
    )`);
    await this.execute(
      'create index if not exists destination_hours_idx on destination_hours (team_id, origin, hour)',
    );
    await this.execute(
      'create index if not exists destination_hours_unfolded_idx on destination_hours (team_id, origin) where xid is not null',
    );
    await this.replaceCountTriggers();
    await this.waitForOlderTransactions();
    await this.execute(`with snapshot as (select pg_current_snapshot() as s),
      seen as (
        delete from destination_counts
        where xid is null or pg_visible_in_snapshot(xid, (select s from snapshot))
      )
      insert into destination_counts (team_id, origin, status, n)
      select team_id, destination, status, count(*) from events
      where status in ('pending', 'processing') and destination is not null
      group by team_id, destination, status`);

    await this.execute('alter table event_queue add column if not exists parked_until timestamptz');
    for (const [name, definition] of [
      ['event_queue_ready_idx', '(scheduled_at) where lease_token is null and parked_until is null'],
      [
        'event_queue_team_ready_idx',
        '(team_id, scheduled_at) where lease_token is null and parked_until is null',
      ],
      ['event_queue_parked_idx', '(team_id, destination) where parked_until is not null'],
      ['event_queue_parked_until_idx', '(parked_until) where parked_until is not null'],
    ] as const) {
      // An index an interrupted build left invalid is dropped and built again.
      await this.execute(`drop index concurrently if exists ${name}`);
      await this.execute(`create index concurrently ${name} on event_queue ${definition}`);
    }
    await this.execute('analyze event_queue');
  }

  /** The event_counts triggers' functions, now also appending the pending counts per destination. */
  private async replaceCountTriggers(): Promise<void> {
    for (const [name, rows, sign] of [
      ['count_events_added', 'changed', ''],
      ['count_events_removed', 'changed', '-'],
    ] as const) {
      await this.execute(`create or replace function ${name}() returns trigger language plpgsql as $$
        begin
          insert into event_counts (scope, status, n, xid)
          select scope, status, ${sign}count(*), pg_current_xact_id() from (
            select team_id as scope, status from ${rows}
            union all select cron_id, status from ${rows} where cron_id is not null
          ) as rows group by scope, status;
          insert into destination_counts (team_id, origin, status, n, xid)
          select team_id, origin, status, ${sign}count(*), pg_current_xact_id() from (${DESTINATION_ROWS(rows)}) as rows
          group by team_id, origin, status;
          return null;
        end $$`);
    }
    await this
      .execute(`create or replace function count_events_changed() returns trigger language plpgsql as $$
      begin
        insert into event_counts (scope, status, n, xid)
        select scope, status, sum(d), pg_current_xact_id() from (
          select team_id as scope, status, 1 as d from new_rows
          union all select cron_id, status, 1 from new_rows where cron_id is not null
          union all select team_id, status, -1 from old_rows
          union all select cron_id, status, -1 from old_rows where cron_id is not null
        ) as moved group by scope, status having sum(d) <> 0;
        insert into destination_counts (team_id, origin, status, n, xid)
        select team_id, origin, status, sum(d), pg_current_xact_id() from (
          select team_id, origin, status, 1 as d from (${DESTINATION_ROWS('new_rows')}) as added
          union all select team_id, origin, status, -1 from (${DESTINATION_ROWS('old_rows')}) as removed
        ) as moved group by team_id, origin, status having sum(d) <> 0;
        return null;
      end $$`);
  }

  /** Waits until every transaction that may have written before the new triggers has ended. */
  private async waitForOlderTransactions(): Promise<void> {
    const [started] = await this.execute('select pg_current_xact_id()::text as xid');
    const xid = BigInt(String(started?.xid));
    for (;;) {
      const [row] = await this.execute(
        `select pg_snapshot_xmin(pg_current_snapshot()) > '${xid}'::xid8 as done`,
      );
      if (row?.done) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
