import { Migration } from '@mikro-orm/migrations';

/**
 * Scheduler processes register here and hold an advisory lock on their id while they live; a claim
 * records its owner, so the leases of a process that died are taken back at once instead of when
 * they expire. Ids come from a sequence and are never reused.
 */
export class Migration20261123000000_scheduler_owners extends Migration {
  override up(): void {
    this.addSql(`create sequence scheduler_process_ids as integer`);
    this.addSql(`
      create table scheduler_processes (
        id integer primary key,
        name text not null,
        started_at timestamptz not null default now()
      )`);
    this.addSql(`alter table events add column lease_owner integer`);
  }
}
