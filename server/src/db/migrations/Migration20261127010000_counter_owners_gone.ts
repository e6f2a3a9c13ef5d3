import { Migration } from '@mikro-orm/migrations';

/**
 * The counter shards of a deleted team or cron that its delete could not remove (another session
 * held them) were found by reading every counter row for an owner that no longer exists: 33,000
 * rows, 45 ms every two seconds at bench/scale's size, to delete none. Deleted owners are now noted
 * here as they go, so the folding job reads only theirs (events/store/counter-shards.ts).
 */
export class Migration20261127010000_counter_owners_gone extends Migration {
  override up(): void {
    this.addSql(`
      create table counter_owners_gone (
        id uuid primary key,
        gone_at timestamptz not null default clock_timestamp()
      )`);
    this.addSql(`
      create function note_counter_owner_gone() returns trigger language plpgsql as $$
      begin
        insert into counter_owners_gone (id) values (old.id) on conflict (id) do nothing;
        return null;
      end $$`);
    for (const table of ['teams', 'crons'])
      this.addSql(`create trigger ${table}_counter_owner_gone after delete on ${table}
        for each row execute function note_counter_owner_gone()`);
    this.addSql(`
      insert into counter_owners_gone (id)
      select scope from event_totals t
      where not exists (select 1 from teams o where o.id = t.scope)
        and not exists (select 1 from crons o where o.id = t.scope)
      union
      select team_id from pending_event_counts p where not exists (select 1 from teams o where o.id = p.team_id)
      on conflict (id) do nothing`);
  }
}
