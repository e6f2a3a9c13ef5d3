import { Migration } from '@mikro-orm/migrations';

/**
 * `event_queue` holds one row per pending event and loses one per delivery: by default autovacuum
 * waits for 20 % of it to be dead, and with 400,000 events waiting bench/scale saw 15 % dead rows in
 * the claims' indexes (bench/README.md#benchscale). Vacuumed after 1 % (and at least 1,000 rows), its
 * dead rows stay a small part of what the claims read. A storage setting: no process notices it.
 */
export class Migration20261126400000_queue_autovacuum extends Migration {
  override up(): void {
    this.addSql(`alter table event_queue set (
      autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000,
      autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02)`);
  }
}
