import { Migration } from '@mikro-orm/migrations';

/**
 * The exact counters (`event_totals`, `pending_event_counts`) are a few thousand rows, each rewritten
 * on every change of its team's or cron's events: with full pages bench/scale saw 13–46 % of
 * `pending_event_counts` dead between vacuums. Their updates change no indexed column, so with pages
 * kept 70 % free each update stays on its page (HOT) and reading the page prunes the old versions
 * without a vacuum (a pgbench of 1,100 such rows: 36–65 % dead at 100, 3–7 % at 30; bench/scale, where
 * pages hold fewer live rows and snapshots last longer: 20–32 % → 15–19 %). New pages take the
 * setting; the tables are small enough that the space is nothing. No process notices it.
 */
export class Migration20261127030000_counter_fillfactor extends Migration {
  override up(): void {
    this.addSql('alter table event_totals set (fillfactor = 30)');
    this.addSql('alter table pending_event_counts set (fillfactor = 30)');
  }
}
