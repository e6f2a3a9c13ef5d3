import { Migration } from '@mikro-orm/migrations';

/**
 * Every list answers an exact `total`. The list indexes are wide (they carry the sort keys), so a
 * count over them, or a sequential scan, reads 8× more than these narrow indexes, which btree
 * deduplication keeps to a few hundred kB per 100,000 events (21 ms → 5 ms per count, bench/README).
 */
export class Migration20261121120000_count_indexes extends Migration {
  override up(): void {
    this.addSql(`create index events_team_count_idx on events (team_id, status)`);
    this.addSql(`create index events_cron_count_idx on events (cron_id, status) where cron_id is not null`);
  }
}
