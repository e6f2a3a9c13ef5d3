import { Migration } from '@mikro-orm/migrations';

/**
 * Traces: each event keeps the W3C `traceparent` of the API request that created it, so its
 * delivery attempts link to that trace; a team may have its receivers sent the attempt's own.
 * Expand only: a nullable column and a column with a constant default rewrite no row, and a
 * process of the previous release, which writes neither, keeps working beside this one.
 */
export class Migration20261126000000_trace_context extends Migration {
  override up(): void {
    this.addSql('alter table events add column trace_context text');
    this.addSql('alter table teams add column send_traceparent boolean not null default false');
  }

  override down(): void {
    this.addSql('alter table teams drop column send_traceparent');
    this.addSql('alter table events drop column trace_context');
  }
}
