import { Migration } from '@mikro-orm/migrations';

/**
 * Lists filtered by status and sorted by `scheduled_at` read an index in their order: with only
 * (team_id, scheduled_at), `status=pending&sort=scheduled_at` walked a team's whole history before its
 * first pending event (11 s for a team of 1M events, bench/scale). The (team_id, status) index it
 * replaces is this one's prefix, so status counts read it the same way.
 *
 * Built concurrently, outside a transaction, so that writes go on during the build on a large
 * table; an index left invalid by an interrupted build is dropped and built again.
 */
export class Migration20261126010000_status_schedule_index extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    this.addSql('drop index concurrently if exists events_team_status_scheduled_idx');
    this.addSql(
      'create index concurrently events_team_status_scheduled_idx on events (team_id, status, scheduled_at, id)',
    );
    this.addSql('drop index concurrently if exists events_team_count_idx');
  }
}
