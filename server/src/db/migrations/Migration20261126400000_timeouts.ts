import { Migration } from '@mikro-orm/migrations';

/**
 * Per-event timeouts (docs/reference/behaviour.md#response-capture): events and crons keep their own `timeout_ms`, null for the
 * service's `WEBHOOK_TIMEOUT_MS`. Expand only: nullable columns rewrite no row, and a process of the
 * previous release, which writes neither, keeps working beside this one (its events take the default).
 */
export class Migration20261126400000_timeouts extends Migration {
  override up(): void {
    this.addSql('alter table events add column if not exists timeout_ms integer');
    this.addSql('alter table crons add column if not exists timeout_ms integer');
  }

  override down(): void {
    this.addSql('alter table crons drop column timeout_ms');
    this.addSql('alter table events drop column timeout_ms');
  }
}
