import { Migration } from '@mikro-orm/migrations';

/**
 * A cron's events in scheduled order (`GET /events?cron_id=…&sort=scheduled_at` or `-scheduled_at`).
 * Without it the first page read every event of the cron, or walked the team's events by time
 * filtering on the cron: at bench/scale's size 1,011 rows (566 pages) for a page of 50, and a
 * minute cron keeps 43,200 a month. Over this index the page is a range read in order.
 *
 * Built concurrently, outside a transaction; an index left invalid by an interrupted build is
 * dropped and built again.
 */
export class Migration20261128000000_cron_schedule_index extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    this.addSql('drop index concurrently if exists events_cron_schedule_idx');
    this.addSql(
      `create index concurrently events_cron_schedule_idx on events (cron_id, scheduled_at, id)
       where cron_id is not null`,
    );
  }
}
