import { Migration } from '@mikro-orm/migrations';

/**
 * What a cron's occurrences last did (kept by the statement that records each delivery's end), its
 * auto-pause threshold, a team's failure-alert URL, and the mark of an alert event (never alerted on).
 */
export class Migration20261123130000_cron_health_and_alerts extends Migration {
  override up(): void {
    this.addSql(`alter table crons
      add column pause_after_failures integer,
      add column consecutive_failures integer not null default 0,
      add column last_run_at timestamptz,
      add column last_status text,
      add column paused_reason text`);
    this.addSql(`alter table teams add column alert_url text`);
    this.addSql(`alter table events add column alert boolean not null default false`);
  }
}
