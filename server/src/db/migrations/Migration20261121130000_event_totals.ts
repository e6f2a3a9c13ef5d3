import { Migration } from '@mikro-orm/migrations';

/**
 * Exact totals for the unfiltered and per-cron event lists without counting rows: statement-level
 * triggers add what each INSERT or DELETE changed, per team and per cron. A statement writes one of
 * 16 shards at random, so concurrent inserts for one team do not queue on one counter row. Status
 * changes do not touch the totals (the scheduler's updates stay as cheap as before); a
 * status-filtered total still counts over events_team_count_idx.
 */
export class Migration20261121130000_event_totals extends Migration {
  override up(): void {
    this.addSql(`
      create table event_totals (
        scope uuid not null,
        shard smallint not null,
        n bigint not null,
        primary key (scope, shard)
      )`);
    this.addSql(`
      create function add_event_totals() returns trigger language plpgsql as $$
      begin
        insert into event_totals (scope, shard, n)
        select scope, floor(random() * 16)::smallint, count(*) from (
          select team_id as scope from changed union all select cron_id from changed where cron_id is not null
        ) as rows group by scope
        on conflict (scope, shard) do update set n = event_totals.n + excluded.n;
        return null;
      end $$`);
    this.addSql(`
      create function remove_event_totals() returns trigger language plpgsql as $$
      begin
        insert into event_totals (scope, shard, n)
        select scope, floor(random() * 16)::smallint, -count(*) from (
          select team_id as scope from changed union all select cron_id from changed where cron_id is not null
        ) as rows group by scope
        on conflict (scope, shard) do update set n = event_totals.n + excluded.n;
        return null;
      end $$`);
    this.addSql(`create trigger events_added after insert on events referencing new table as changed
      for each statement execute function add_event_totals()`);
    this.addSql(`create trigger events_removed after delete on events referencing old table as changed
      for each statement execute function remove_event_totals()`);
    this.addSql(`
      create function drop_cron_totals() returns trigger language plpgsql as $$
      begin
        delete from event_totals where scope = old.id;
        return null;
      end $$`);
    // Runs after the cron's events are gone (they cascade, or were deleted first).
    this.addSql(`create trigger cron_totals_dropped after delete on crons
      for each row execute function drop_cron_totals()`);
    this.addSql(`
      insert into event_totals (scope, shard, n)
      select scope, 0, count(*) from (
        select team_id as scope from events union all select cron_id from events where cron_id is not null
      ) as rows group by scope`);
  }
}
