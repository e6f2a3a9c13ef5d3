import { Migration } from '@mikro-orm/migrations';

/** Every process caches API keys; any change that could revoke one tells them all, whoever made it. */
export class Migration20261121110000_api_key_notify extends Migration {
  override up(): void {
    this.addSql(`
      create function notify_api_key_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify('api_key_changed', old.key_hash);
        return null;
      end $$`);
    this
      .addSql(`create trigger api_key_changed after update of revoked_at, expires_at, team_id, key_hash on api_keys
      for each row execute function notify_api_key_change()`);
    this.addSql(`create trigger api_key_deleted after delete on api_keys
      for each row execute function notify_api_key_change()`);
  }
}
