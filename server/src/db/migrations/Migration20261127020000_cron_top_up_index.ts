import { Migration } from '@mikro-orm/migrations';

/**
 * The cron top-up asks for the active crons whose occurrences run out soonest, never materialized
 * first. Over (materialized_until) its `is null or <` and NULLS FIRST order could not use the index:
 * it read and sorted all 20,000 crons, 30 ms a batch at bench/scale's size, for 82 rows. Over the
 * expression it asks for, the batch is a range of this index, read in order.
 *
 * Built concurrently, outside a transaction; an index left invalid by an interrupted build is
 * dropped and built again. The old index goes: the previous release's top-up never read it either.
 */
export class Migration20261127020000_cron_top_up_index extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    this.addSql('drop index concurrently if exists crons_top_up_idx');
    this.addSql(
      `create index concurrently crons_top_up_idx on crons ((coalesce(materialized_until, '-infinity'::timestamptz)))
       where is_active`,
    );
    this.addSql('drop index concurrently if exists crons_materialize_idx');
  }
}
