import { Migration } from '@mikro-orm/migrations';

/**
 * Each event's destination (`webhook_destination(webhook_url)`), written once when the event is
 * inserted or redefined, so that claims no longer parse the URL of every candidate. Nullable and
 * without a default, so adding it rewrites nothing: events from before it are read through
 * `coalesce(destination, webhook_destination(webhook_url))` until they end.
 */
export class Migration20261125000000_event_destination extends Migration {
  override up(): void {
    this.addSql('alter table events add column destination text');
  }

  override down(): void {
    this.addSql('alter table events drop column destination');
  }
}
