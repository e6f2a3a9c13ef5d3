import { Migration } from '@mikro-orm/migrations';

/**
 * Each cron keeps the spread of its top-ups, `top_up_spread`, which the top-up sets from the gap
 * between its last two occurrences (crons/top-up-spread.rules.ts), and the top-up's index spreads
 * crons over it rather than over 47 s for every schedule: 5,000 five-minute crons, topped up within
 * the same 47 s, left 11.8 % of `crons` dead at bench/scale's SCALE=1 (bench/README.md).
 *
 * Expand only. The column's default is the 47 s (46 ms × 1024) of the index it replaces, so every
 * cron keeps its place in the top-up's order until its next top-up sets its own spread; a constant
 * default rewrites no row. A process of the previous release leaves the column as it is and, once
 * the old index is dropped, its top-up reads every active cron (30 ms a batch at 20,000), and works.
 * The index is built concurrently, outside a transaction; one an interrupted build left invalid is
 * dropped and built again.
 */
export class Migration20261130100000_cron_top_up_gap extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    this.addSql(
      "alter table crons add column if not exists top_up_spread interval not null default interval '47104 milliseconds'",
    );
    this.addSql('drop index concurrently if exists crons_top_up_gap_idx');
    this.addSql(
      `create index concurrently crons_top_up_gap_idx on crons
       ((coalesce(materialized_until, '-infinity'::timestamptz) at time zone 'UTC' - (hashtext(id::text) & 1023) * top_up_spread / 1024))
       where is_active`,
    );
    this.addSql('drop index concurrently if exists crons_top_up_spread_idx');
  }
}
