import { Migration } from '@mikro-orm/migrations';

/**
 * Agenda's job table is created here, not by the backend (`ensureSchema: false`): its
 * ensureSchema re-creates a trigger on every connect, and concurrent starts then fail with
 * "tuple concurrently updated". The DDL is Agenda 6's postgres-backend schema, frozen here.
 */
export class Migration20261121100000_scheduler extends Migration {
  override up(): void {
    this.addSql(`
      create table agenda_jobs (
        id uuid primary key default gen_random_uuid(),
        name varchar(255) not null,
        priority integer not null default 0,
        next_run_at timestamptz,
        type varchar(10) not null default 'normal' check (type in ('normal', 'single')),
        locked_at timestamptz,
        last_finished_at timestamptz,
        failed_at timestamptz,
        fail_count integer,
        fail_reason text,
        repeat_timezone varchar(100),
        last_run_at timestamptz,
        repeat_interval varchar(255),
        data jsonb default '{}'::jsonb,
        repeat_at varchar(255),
        disabled boolean default false,
        progress real,
        fork boolean default false,
        last_modified_by varchar(255),
        debounce_started_at timestamptz,
        start_date timestamptz,
        end_date timestamptz,
        skip_days jsonb,
        created_at timestamptz default now(),
        updated_at timestamptz default now()
      )`);
    this.addSql(`create index agenda_jobs_find_and_lock_idx
      on agenda_jobs (name, next_run_at, priority desc, locked_at, disabled) where disabled = false`);
    this.addSql(`create unique index agenda_jobs_single_job_idx on agenda_jobs (name) where type = 'single'`);
    this.addSql(
      `create index agenda_jobs_locked_at_idx on agenda_jobs (locked_at) where locked_at is not null`,
    );
    this.addSql(
      `create index agenda_jobs_next_run_at_idx on agenda_jobs (next_run_at) where next_run_at is not null`,
    );
    // One timer job per occupied (slot, shard): inserting it again is a no-op.
    this.addSql(
      `create unique index agenda_jobs_slot_idx on agenda_jobs ((data ->> 'key')) where name = 'deliver-slot'`,
    );

    // How many times an attempt was claimed: a lease that keeps expiring is a delivery that keeps crashing.
    this.addSql(`alter table events add column claim_count smallint not null default 0`);
    // The last occurrence materialized as an event; null when none is (new, inactive or just replaced).
    this.addSql(`alter table crons add column materialized_until timestamptz`);
    this.addSql(`create index crons_materialize_idx on crons (materialized_until) where is_active`);
  }
}
