import { Migration } from '@mikro-orm/migrations';

/**
 * Every cron occurrence rewrites its cron twice: the top-up moves `materialized_until` and the
 * delivery's record keeps its health. With 20,000 crons bench/scale saw 42 % of `crons` dead
 * (bench/README.md#benchscale). Pages kept 30 % free let the record's updates, which change no
 * indexed column, stay on their page (HOT), so reading the page prunes them without a vacuum; the
 * top-up's are vacuumed after 2 % of the table. Storage settings: no process notices them.
 */
export class Migration20261127000000_cron_autovacuum extends Migration {
  override up(): void {
    this.addSql(`alter table crons set (
      fillfactor = 70, autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 200,
      autovacuum_analyze_scale_factor = 0.05)`);
  }
}
