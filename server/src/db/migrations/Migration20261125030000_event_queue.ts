import { Migration } from '@mikro-orm/migrations';

/**
 * The delivery queue: a narrow row per pending event (its team, due time, destination and lease),
 * so a claim leases that small row instead of rewriting the wide `events` row, and an outcome
 * writes the `events` row once and deletes its queue row (bench/README.md, 2026-11-25). An event in
 * flight stays `pending` in `events`; its queue row's lease is what makes it `processing`.
 *
 * A trigger queues every event inserted as pending, whichever statement inserts it, so no pending
 * event is ever without its queue row. Events in flight move their lease here and become `pending`
 * again in `events`; an original waiting for its retries (no lease) stays `processing`.
 */
export class Migration20261125030000_event_queue extends Migration {
  override up(): void {
    this.addSql(`
      create table event_queue (
        event_id uuid primary key references events (id) on delete cascade,
        team_id uuid not null,
        scheduled_at timestamptz not null,
        destination text not null,
        lease_token uuid,
        lease_owner integer,
        lease_expires_at timestamptz,
        claim_count smallint not null default 0
      )`);
    this.addSql(`
      insert into event_queue (event_id, team_id, scheduled_at, destination, lease_token, lease_owner,
                               lease_expires_at, claim_count)
      select id, team_id, scheduled_at, coalesce(destination, webhook_destination(webhook_url)), lease_token,
             lease_owner, lease_expires_at, claim_count
      from events where status = 'pending' or (status = 'processing' and lease_token is not null)`);
    this.addSql(
      `update events set status = 'pending' where status = 'processing' and lease_token is not null`,
    );
    this.addSql(`create index event_queue_due_idx on event_queue (scheduled_at) where lease_token is null`);
    this.addSql(
      `create index event_queue_team_due_idx on event_queue (team_id, scheduled_at) where lease_token is null`,
    );
    this.addSql(
      `create index event_queue_lease_idx on event_queue (lease_expires_at) where lease_token is not null`,
    );
    this.addSql(`
      create function queue_pending_events() returns trigger language plpgsql as $$
      begin
        insert into event_queue (event_id, team_id, scheduled_at, destination)
        select id, team_id, scheduled_at, coalesce(destination, webhook_destination(webhook_url))
        from added where status = 'pending';
        return null;
      end $$`);
    this.addSql(`create trigger events_queued after insert on events referencing new table as added
      for each statement execute function queue_pending_events()`);
    // Statistics now: until autovacuum takes them, a large queue would be planned as an empty one.
    this.addSql(`analyze event_queue`);
    this.addSql(`drop index events_due_idx`);
    this.addSql(`drop index events_team_due_idx`);
    this.addSql(
      `alter table events drop column lease_token, drop column lease_owner, drop column lease_expires_at`,
    );
  }
}
