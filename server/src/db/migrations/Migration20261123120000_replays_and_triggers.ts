import { Migration } from '@mikro-orm/migrations';

/**
 * Replays point at the event they repeat; a cron's manual run ("Run now") is marked `triggered` and
 * stays out of the one-event-per-occurrence rule, so it neither collides with nor replaces an
 * occurrence in the same second.
 */
export class Migration20261123120000_replays_and_triggers extends Migration {
  override up(): void {
    this.addSql(`alter table events add column replay_of uuid references events (id) on delete set null`);
    this.addSql(`alter table events add column triggered boolean not null default false`);
    this.addSql(`drop index events_cron_occurrence_idx`);
    this.addSql(
      `create unique index events_cron_occurrence_idx on events (cron_id, scheduled_at)
       where cron_id is not null and retry_of is null and not triggered`,
    );
  }
}
