import { Migration } from '@mikro-orm/migrations';

const METHODS = `'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'`;

export class Migration20261121000000_initial extends Migration {
  override up(): void {
    this.addSql(`
      create table teams (
        id uuid primary key,
        name text not null check (length(name) between 1 and 200),
        signing_secret text not null,
        previous_signing_secret text,
        previous_secret_expires_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`
      create table api_keys (
        id uuid primary key,
        team_id uuid not null references teams (id) on delete cascade,
        name text not null,
        prefix text not null,
        key_hash text not null unique,
        created_at timestamptz not null,
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz
      )`);
    this.addSql(`create index api_keys_team_idx on api_keys (team_id, created_at desc)`);
    this.addSql(`
      create table crons (
        id uuid primary key,
        team_id uuid not null references teams (id) on delete cascade,
        cron_expression text not null,
        timezone text,
        webhook_url text not null,
        method text not null check (method in (${METHODS})),
        headers jsonb,
        payload jsonb,
        retry_config jsonb,
        is_active boolean not null default true,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index crons_team_list_idx on crons (team_id, created_at desc, id desc)`);
    this.addSql(
      `create index crons_team_active_list_idx on crons (team_id, is_active, created_at desc, id desc)`,
    );
    this.addSql(`
      create table events (
        id uuid primary key,
        team_id uuid not null references teams (id) on delete cascade,
        cron_id uuid references crons (id) on delete cascade,
        retry_of uuid references events (id) on delete cascade,
        attempt smallint not null default 0,
        scheduled_at timestamptz not null,
        executed_at timestamptz,
        status text not null default 'pending' check (status in ('pending', 'processing', 'success', 'failed')),
        webhook_url text not null,
        method text not null check (method in (${METHODS})),
        headers jsonb,
        payload jsonb,
        retry_config jsonb,
        response_status integer,
        response_headers jsonb,
        response_body text,
        response_duration integer,
        response_error text,
        lease_token uuid,
        lease_expires_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index events_team_list_idx on events (team_id, created_at desc, id desc)`);
    this.addSql(
      `create index events_team_status_list_idx on events (team_id, status, created_at desc, id desc)`,
    );
    this.addSql(
      `create index events_cron_list_idx on events (cron_id, created_at desc, id desc) where cron_id is not null`,
    );
    this.addSql(`create index events_retry_of_idx on events (retry_of) where retry_of is not null`);
    // The scheduler's scan for due work, and its scan for expired leases.
    this.addSql(`create index events_due_idx on events (scheduled_at) where status = 'pending'`);
    this.addSql(
      `create index events_lease_idx on events (lease_expires_at) where status = 'processing' and lease_expires_at is not null`,
    );
    // One event per cron occurrence, whoever materializes it.
    this.addSql(
      `create unique index events_cron_occurrence_idx on events (cron_id, scheduled_at) where cron_id is not null and retry_of is null`,
    );
  }
}
