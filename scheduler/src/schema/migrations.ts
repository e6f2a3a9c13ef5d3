import { SLOT_JOB } from '../timer/slot-jobs.js';
import { WRITER_HORIZON_MS } from '../timer/timers.js';

/** One step of the scheduler's own schema, for the service's migrator to run in order. */
export interface SchedulerMigration {
  name: string;
  statements: readonly string[];
}

/**
 * Agenda's job table is created here, not by its backend (`ensureSchema: false`): that ensureSchema
 * re-creates a trigger on every connect, and concurrent starts then fail with "tuple concurrently
 * updated". The DDL is Agenda 6's postgres-backend schema, frozen. `if not exists`: databases made
 * before the scheduler owned its schema already have these.
 */
const timer: SchedulerMigration = {
  name: 'Scheduler20261121100000_timer',
  statements: [
    `create table if not exists agenda_jobs (
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
    )`,
    `create index if not exists agenda_jobs_find_and_lock_idx
      on agenda_jobs (name, next_run_at, priority desc, locked_at, disabled) where disabled = false`,
    `create unique index if not exists agenda_jobs_single_job_idx on agenda_jobs (name) where type = 'single'`,
    `create index if not exists agenda_jobs_locked_at_idx on agenda_jobs (locked_at) where locked_at is not null`,
    `create index if not exists agenda_jobs_next_run_at_idx on agenda_jobs (next_run_at) where next_run_at is not null`,
    // One timer job per occupied (slot, shard): inserting it again is a no-op.
    `create unique index if not exists agenda_jobs_slot_idx on agenda_jobs ((data ->> 'key')) where name = '${SLOT_JOB}'`,
  ],
};

/**
 * Scheduler processes register here and hold an advisory lock on their id while they live, so the
 * leases of one that died are taken back at once (see OwnerRegistry). Ids are never reused.
 */
const owners: SchedulerMigration = {
  name: 'Scheduler20261123000000_owners',
  statements: [
    `create sequence if not exists scheduler_process_ids as integer`,
    `create table if not exists scheduler_processes (
      id integer primary key,
      name text not null,
      started_at timestamptz not null default now()
    )`,
  ],
};

/**
 * Since when schedulers have run without a break: a process that registers while others live
 * inherits their time, so a rolling restart does not count as downtime for missed events.
 */
const servedSince: SchedulerMigration = {
  name: 'Scheduler20261123100000_served_since',
  statements: [
    `alter table scheduler_processes add column if not exists served_since timestamptz not null default now()`,
  ],
};

/**
 * Timer jobs only for the next few minutes (`WRITER_HORIZON_MS`): `timer_horizon` is how far the
 * horizon job has covered; jobs further ahead, which writers used to insert for every event, go
 * (the horizon job writes them again as their seconds come near).
 */
const timerHorizon: SchedulerMigration = {
  name: 'Scheduler20261126000000_timer_horizon',
  statements: [
    `create table if not exists timer_horizon (
      singleton boolean primary key default true check (singleton),
      covered_until timestamptz not null
    )`,
    `insert into timer_horizon (covered_until) values (now()) on conflict do nothing`,
    `delete from agenda_jobs where name = '${SLOT_JOB}' and locked_at is null
       and next_run_at > now() + interval '${WRITER_HORIZON_MS} milliseconds'`,
  ],
};

/** The scheduler's schema, oldest first. */
export const schedulerMigrations: readonly SchedulerMigration[] = [timer, owners, servedSince, timerHorizon];
