import { Migration } from '@mikro-orm/migrations';

/**
 * Claims serve teams in turn and count calls per destination: an index to find each team's oldest
 * pending events, and the `host:port` of a webhook URL (default ports dropped, user info ignored).
 */
export class Migration20261123100000_fair_claims extends Migration {
  override up(): void {
    this.addSql(
      `create index events_team_due_idx on events (team_id, scheduled_at) where status = 'pending'`,
    );
    this.addSql(`create function webhook_destination(url text) returns text
      language sql immutable parallel safe
      return (
        select case
          when scheme = 'http' and authority like '%:80' then left(authority, -3)
          when scheme = 'https' and authority like '%:443' then left(authority, -4)
          else authority
        end
        from (select lower(substring(url from '^([A-Za-z][A-Za-z0-9+.-]*):')) as scheme,
                     lower(regexp_replace(substring(url from '^[A-Za-z][A-Za-z0-9+.-]*://([^/#\x3f[:cntrl:]]*)'),
                                          '^.*@', '')) as authority) as parts)`);
  }
}
