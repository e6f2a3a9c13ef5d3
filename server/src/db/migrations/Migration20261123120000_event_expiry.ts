import { Migration } from '@mikro-orm/migrations';

/**
 * Retention finds a team's finished chains in the order they finished. An original's `updated_at`
 * is when its chain settled (its last attempt's outcome), so this narrow partial index holds exactly
 * the candidates: no pending or in-flight event and no retry attempt is in it, and a scan of it never
 * steps over rows that must stay.
 */
export class Migration20261123120000_event_expiry extends Migration {
  override up(): void {
    this.addSql(
      `create index events_expiry_idx on events (team_id, updated_at) where retry_of is null and status in ('success', 'failed')`,
    );
  }
}
