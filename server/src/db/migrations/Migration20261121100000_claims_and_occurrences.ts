import { Migration } from '@mikro-orm/migrations';

/** Recorded under the name `Migration20261121100000_scheduler`, which also created Agenda's table before the scheduler owned its schema. */
export class Migration20261121100000_claims_and_occurrences extends Migration {
  override up(): void {
    // How many times an attempt was claimed: a lease that keeps expiring is a delivery that keeps crashing.
    this.addSql(`alter table events add column claim_count smallint not null default 0`);
    // The last occurrence materialized as an event; null when none is (new, inactive or just replaced).
    this.addSql(`alter table crons add column materialized_until timestamptz`);
    this.addSql(`create index crons_materialize_idx on crons (materialized_until) where is_active`);
  }
}
