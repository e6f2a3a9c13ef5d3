import { Migration } from '@mikro-orm/migrations';

/**
 * Per-team limits (null = the configured default) and an exact count of each team's pending
 * events created through the API (`cron_id is null`, retries included), for the pending-events
 * quota. Like event_totals, statement-level triggers keep the count in one of 16 shards per team,
 * so concurrent writes for one team do not queue on one row; an UPDATE that moves no event into or
 * out of `pending` writes nothing. Also: the live API processes (rate limits), and who created
 * each API key.
 */
export class Migration20261124000000_team_limits extends Migration {
  override up(): void {
    this.addSql(`
      create table team_limits (
        team_id uuid primary key references teams (id) on delete cascade,
        max_payload_bytes integer,
        max_headers_bytes integer,
        max_active_crons integer,
        max_pending_events integer,
        min_cron_interval_ms integer,
        requests_per_second integer,
        request_burst integer,
        event_retention_ms bigint,
        updated_at timestamptz not null
      )`);
    this.addSql(`
      create table pending_event_counts (
        team_id uuid not null,
        shard smallint not null,
        n bigint not null,
        primary key (team_id, shard)
      )`);
    for (const [name, sign, table] of [
      ['count_pending_added', '', 'changed'],
      ['count_pending_removed', '-', 'changed'],
    ] as const) {
      this.addSql(`
        create function ${name}() returns trigger language plpgsql as $$
        begin
          insert into pending_event_counts (team_id, shard, n)
          select team_id, floor(random() * 16)::smallint, ${sign}count(*) from ${table}
          where status = 'pending' and cron_id is null group by team_id
          on conflict (team_id, shard) do update set n = pending_event_counts.n + excluded.n;
          return null;
        end $$`);
    }
    this.addSql(`
      create function count_pending_changed() returns trigger language plpgsql as $$
      begin
        insert into pending_event_counts (team_id, shard, n)
        select team_id, floor(random() * 16)::smallint, sum(d) from (
          select team_id, 1 as d from new_rows where status = 'pending' and cron_id is null
          union all
          select team_id, -1 from old_rows where status = 'pending' and cron_id is null
        ) as moved group by team_id having sum(d) <> 0
        on conflict (team_id, shard) do update set n = pending_event_counts.n + excluded.n;
        return null;
      end $$`);
    this.addSql(`create trigger events_pending_added after insert on events referencing new table as changed
      for each statement execute function count_pending_added()`);
    this.addSql(`create trigger events_pending_removed after delete on events referencing old table as changed
      for each statement execute function count_pending_removed()`);
    this.addSql(`create trigger events_pending_changed after update on events
      referencing old table as old_rows new table as new_rows
      for each statement execute function count_pending_changed()`);
    this.addSql(`
      insert into pending_event_counts (team_id, shard, n)
      select team_id, 0, count(*) from events where status = 'pending' and cron_id is null group by team_id`);
    // The API processes alive now: each takes an equal share of every key's rate limit.
    this.addSql(`create table api_processes (id uuid primary key, seen_at timestamptz not null)`);
    this.addSql(`alter table api_keys add column created_by uuid references users (id) on delete set null`);
  }
}
