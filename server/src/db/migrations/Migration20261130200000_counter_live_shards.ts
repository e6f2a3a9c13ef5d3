import { Migration } from '@mikro-orm/migrations';

/**
 * The exact counters' non-zero shards, one entry per row a live or ended session wrote, so that the
 * folding job finds the ended sessions' rows without reading the live ones (events/store/
 * counter-shards.ts). It read the whole of `event_totals` every two seconds to find them: 55,000 rows,
 * 13.8 ms a call at bench/scale's SCALE=1 (20,000 crons), growing with crons times sessions.
 *
 * That read also pruned every page of both tables every two seconds, which kept their dead row
 * versions at 0.2–1 % and 10–15 % between vacuums; without it `event_totals` reached 12 % (9,300 of
 * 77,000) before autovacuum's default 20 % took it, and `pending_event_counts` 38 %. Autovacuum now
 * takes them after 1 % and a few hundred rows (a vacuum of 2,000 pages against a read of all of
 * them every two seconds).
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
    this.addSql(
      'alter table event_totals set (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 500)',
    );
    this.addSql(
      'alter table pending_event_counts set (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 50)',
    );
  }
}
