import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes for the two foreign keys that had none. Without one, deleting a referenced row makes
 * PostgreSQL scan the referencing table: deleting any event (an API delete, retention) scanned all
 * events for replays to unlink (ON DELETE SET NULL), and retention removed ~12 events a second
 * instead of thousands. Partial: only replays, and keys created by a member, have one.
 */
export class Migration20261125010000_foreign_key_indexes extends Migration {
  override up(): void {
    this.addSql('create index events_replay_of_idx on events (replay_of) where replay_of is not null');
    this.addSql('create index api_keys_created_by_idx on api_keys (created_by) where created_by is not null');
  }

  override down(): void {
    this.addSql('drop index events_replay_of_idx');
    this.addSql('drop index api_keys_created_by_idx');
  }
}
