import { Migration } from '@mikro-orm/migrations';

/**
 * Whether a team's manual pending events plus `adding` stay within `max_pending`, for the insert of
 * API-created events. A PL/pgSQL function keeps its query's plan for the session; the same subquery
 * written into the insert was planned again for every create.
 */
export class Migration20261125020000_pending_quota_function extends Migration {
  override up(): void {
    this.addSql(`
      create function pending_events_within(team uuid, adding int, max_pending int) returns boolean
      language plpgsql stable as $$
      begin
        return (select coalesce(sum(n), 0) from pending_event_counts where team_id = team) + adding <= max_pending;
      end
      $$`);
  }

  override down(): void {
    this.addSql('drop function pending_events_within(uuid, int, int)');
  }
}
