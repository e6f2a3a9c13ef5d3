import { Migration } from '@mikro-orm/migrations';

/**
 * The exact counters' non-zero shards, one entry per row a live or ended session wrote, so that the
 * folding job finds the ended sessions' rows without reading the live ones (events/store/
 * counter-shards.ts). It read the whole of `event_totals` every two seconds to find them: 55,000 rows,
 * 13.8 ms a call at bench/scale's SCALE=1 (20,000 crons), growing with crons times sessions.
 *
 * Expand only: a counter's update changes no indexed column and stays on its page (HOT). Built
 * concurrently, outside a transaction; an index left invalid by an interrupted build is dropped and
 * built again.
 */
export class Migration20261130200000_counter_live_shards extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    for (const table of ['event_totals', 'pending_event_counts']) {
      this.addSql(`drop index concurrently if exists ${table}_shard_idx`);
      this.addSql(`create index concurrently ${table}_shard_idx on ${table} (shard) where shard <> 0`);
    }
  }
}
