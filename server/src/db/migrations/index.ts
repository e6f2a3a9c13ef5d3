import type { MigrationObject } from '@mikro-orm/core';
import { Migration } from '@mikro-orm/migrations';
import { type SchedulerMigration, schedulerMigrations } from '@webhook-scheduler/scheduler';
import { Migration20261121000000_initial } from './Migration20261121000000_initial.js';
import { Migration20261121100000_claims_and_occurrences } from './Migration20261121100000_claims_and_occurrences.js';
import { Migration20261121110000_api_key_notify } from './Migration20261121110000_api_key_notify.js';
import { Migration20261121120000_count_indexes } from './Migration20261121120000_count_indexes.js';
import { Migration20261121130000_event_totals } from './Migration20261121130000_event_totals.js';
import { Migration20261122000000_dashboard } from './Migration20261122000000_dashboard.js';
import { Migration20261123000000_lease_owner } from './Migration20261123000000_lease_owner.js';
import { Migration20261123100000_fair_claims } from './Migration20261123100000_fair_claims.js';
import { Migration20261123120000_event_expiry } from './Migration20261123120000_event_expiry.js';
import { Migration20261125030000_event_queue } from './Migration20261125030000_event_queue.js';
import { Migration20261126000000_event_origins } from './Migration20261126000000_event_origins.js';
import { Migration20261126010000_status_schedule_index } from './Migration20261126010000_status_schedule_index.js';
import { Migration20261126020000_event_counts } from './Migration20261126020000_event_counts.js';
import { Migration20261126100000_exact_quotas } from './Migration20261126100000_exact_quotas.js';
import { Migration20261126100000_invites_and_resets } from './Migration20261126100000_invites_and_resets.js';
import { Migration20261126300000_destinations } from './Migration20261126300000_destinations.js';
import { Migration20261126400000_queue_autovacuum } from './Migration20261126400000_queue_autovacuum.js';
import { Migration20261126400000_timeouts } from './Migration20261126400000_timeouts.js';
import { Migration20261127000000_cron_autovacuum } from './Migration20261127000000_cron_autovacuum.js';
import { Migration20261127010000_counter_owners_gone } from './Migration20261127010000_counter_owners_gone.js';
import { Migration20261127020000_cron_top_up_index } from './Migration20261127020000_cron_top_up_index.js';
import { Migration20261127030000_counter_fillfactor } from './Migration20261127030000_counter_fillfactor.js';
import { Migration20261128000000_cron_schedule_index } from './Migration20261128000000_cron_schedule_index.js';
import { Migration20261129000000_cron_counts } from './Migration20261129000000_cron_counts.js';
import { Migration20261130000000_cron_top_up_spread } from './Migration20261130000000_cron_top_up_spread.js';
import { Migration20261130100000_cron_top_up_gap } from './Migration20261130100000_cron_top_up_gap.js';
import { Migration20261130200000_counter_live_shards } from './Migration20261130200000_counter_live_shards.js';
import { Migration20261126000000_trace_context } from './Migration20261126000000_trace_context.js';
import { Migration20261126200000_delivery_minutes } from './Migration20261126200000_delivery_minutes.js';
import { Migration20261125020000_pending_quota_function } from './Migration20261125020000_pending_quota_function.js';
import { Migration20261125010000_foreign_key_indexes } from './Migration20261125010000_foreign_key_indexes.js';
import { Migration20261125000000_event_destination } from './Migration20261125000000_event_destination.js';
import { Migration20261124000000_team_limits } from './Migration20261124000000_team_limits.js';
import { Migration20261123100000_scheduled_order } from './Migration20261123100000_scheduled_order.js';
import { Migration20261123110000_idempotency_keys } from './Migration20261123110000_idempotency_keys.js';
import { Migration20261123120000_replays_and_triggers } from './Migration20261123120000_replays_and_triggers.js';
import { Migration20261123130000_cron_health_and_alerts } from './Migration20261123130000_cron_health_and_alerts.js';

/** A step of the scheduler's own schema, run by the service's migrator in its turn. */
function schedulerStep(name: string): MigrationObject {
  const step = schedulerMigrations.find((migration) => migration.name === name);
  if (!step) throw new Error(`the scheduler has no migration ${name}`);
  return { name, class: runs(step) };
}

function runs(step: SchedulerMigration): MigrationObject['class'] {
  return class extends Migration {
    override up(): void {
      for (const statement of step.statements) this.addSql(statement);
    }
  };
}

/**
 * Every migration, the service's and the scheduler's, in order. Listed explicitly so the compiled
 * service needs no file globbing; a name, once applied somewhere, never changes.
 */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261121000000_initial', class: Migration20261121000000_initial },
  { name: 'Migration20261121100000_scheduler', class: Migration20261121100000_claims_and_occurrences },
  schedulerStep('Scheduler20261121100000_timer'),
  { name: 'Migration20261121110000_api_key_notify', class: Migration20261121110000_api_key_notify },
  { name: 'Migration20261121120000_count_indexes', class: Migration20261121120000_count_indexes },
  { name: 'Migration20261121130000_event_totals', class: Migration20261121130000_event_totals },
  { name: 'Migration20261122000000_dashboard', class: Migration20261122000000_dashboard },
  schedulerStep('Scheduler20261123000000_owners'),
  { name: 'Migration20261123000000_lease_owner', class: Migration20261123000000_lease_owner },
  schedulerStep('Scheduler20261123100000_served_since'),
  { name: 'Migration20261123100000_fair_claims', class: Migration20261123100000_fair_claims },
  { name: 'Migration20261123120000_event_expiry', class: Migration20261123120000_event_expiry },
  { name: 'Migration20261124000000_team_limits', class: Migration20261124000000_team_limits },
  { name: 'Migration20261123100000_scheduled_order', class: Migration20261123100000_scheduled_order },
  { name: 'Migration20261123110000_idempotency_keys', class: Migration20261123110000_idempotency_keys },
  {
    name: 'Migration20261123120000_replays_and_triggers',
    class: Migration20261123120000_replays_and_triggers,
  },
  {
    name: 'Migration20261123130000_cron_health_and_alerts',
    class: Migration20261123130000_cron_health_and_alerts,
  },
  { name: 'Migration20261125000000_event_destination', class: Migration20261125000000_event_destination },
  { name: 'Migration20261125010000_foreign_key_indexes', class: Migration20261125010000_foreign_key_indexes },
  {
    name: 'Migration20261125020000_pending_quota_function',
    class: Migration20261125020000_pending_quota_function,
  },
  { name: 'Migration20261125030000_event_queue', class: Migration20261125030000_event_queue },
  { name: 'Migration20261126000000_event_origins', class: Migration20261126000000_event_origins },
  schedulerStep('Scheduler20261126000000_timer_horizon'),
  {
    name: 'Migration20261126010000_status_schedule_index',
    class: Migration20261126010000_status_schedule_index,
  },
  { name: 'Migration20261126020000_event_counts', class: Migration20261126020000_event_counts },
  { name: 'Migration20261126100000_exact_quotas', class: Migration20261126100000_exact_quotas },
  {
    name: 'Migration20261126100000_invites_and_resets',
    class: Migration20261126100000_invites_and_resets,
  },
  { name: 'Migration20261126300000_destinations', class: Migration20261126300000_destinations },
  { name: 'Migration20261126000000_trace_context', class: Migration20261126000000_trace_context },
  { name: 'Migration20261126200000_delivery_minutes', class: Migration20261126200000_delivery_minutes },
  { name: 'Migration20261126400000_queue_autovacuum', class: Migration20261126400000_queue_autovacuum },
  { name: 'Migration20261126400000_timeouts', class: Migration20261126400000_timeouts },
  { name: 'Migration20261127000000_cron_autovacuum', class: Migration20261127000000_cron_autovacuum },
  {
    name: 'Migration20261127010000_counter_owners_gone',
    class: Migration20261127010000_counter_owners_gone,
  },
  { name: 'Migration20261127020000_cron_top_up_index', class: Migration20261127020000_cron_top_up_index },
  { name: 'Migration20261127030000_counter_fillfactor', class: Migration20261127030000_counter_fillfactor },
  { name: 'Migration20261128000000_cron_schedule_index', class: Migration20261128000000_cron_schedule_index },
  { name: 'Migration20261129000000_cron_counts', class: Migration20261129000000_cron_counts },
  { name: 'Migration20261130000000_cron_top_up_spread', class: Migration20261130000000_cron_top_up_spread },
  { name: 'Migration20261130100000_cron_top_up_gap', class: Migration20261130100000_cron_top_up_gap },
  { name: 'Migration20261130200000_counter_live_shards', class: Migration20261130200000_counter_live_shards },
];
