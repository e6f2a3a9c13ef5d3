import { Migration } from '@mikro-orm/migrations';

/** The event list sorted or bounded by scheduled time (`sort=scheduled_at`, `scheduled_after`/`_before`). */
export class Migration20261123100000_scheduled_order extends Migration {
  override up(): void {
    this.addSql(`create index events_team_scheduled_idx on events (team_id, scheduled_at, id)`);
  }
}
