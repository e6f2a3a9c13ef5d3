import { Migration } from '@mikro-orm/migrations';

/**
 * The top-up's index orders crons by when they run out, less a fraction of 47 s fixed by each id
 * (`RUNS_OUT` in crons/cron-occurrences.ts, the same expression): crons of one schedule are topped
 * up across those 47 s rather than in one reconcile. Each top-up rewrites its cron's row in full (an
 * indexed column changes), so 1,000 minute crons at once left a quarter of `crons` dead until the
 * next vacuum (bench/README.md, bench/scale); spread, a vacuum after 1 % keeps up with them.
 *
 * Built concurrently, outside a transaction; an index left invalid by an interrupted build is dropped
 * and built again. The old index goes: until the previous release's processes stop, their top-up
 * reads every active cron instead of a range of it (30 ms a batch at 20,000 crons), and works.
 */
export class Migration20261130000000_cron_top_up_spread extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    this.addSql('drop index concurrently if exists crons_top_up_spread_idx');
    this.addSql(
      `create index concurrently crons_top_up_spread_idx on crons
       ((coalesce(materialized_until, '-infinity'::timestamptz) at time zone 'UTC' - (hashtext(id::text) & 1023) * interval '46 milliseconds'))
       where is_active`,
    );
    this.addSql('drop index concurrently if exists crons_top_up_idx');
    this.addSql(
      'alter table crons set (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 100)',
    );
  }
}
