import { describe, expect, it } from 'vitest';
import { contractingSteps } from './migration.rules.js';

describe('contractingSteps', () => {
  it.each([
    ['alter table events add column trace_context text'],
    ['alter table teams add column send_traceparent boolean not null default false'],
    ['alter table crons add column a int not null default 0, add column b text'],
    ['create table event_queue (event_id uuid primary key, team_id uuid not null)'],
    ["create index events_due_idx on events (scheduled_at) where status = 'pending'"],
    ['create or replace function f() returns int language sql as $$ select 1 $$'],
    ['-- drop column x is for the next release\nalter table events add column y text'],
  ])('finds nothing to contract in %s', (sql) => {
    expect(contractingSteps(sql)).toEqual([]);
  });

  it.each([
    ['alter table events drop column lease_token', 'drops a column'],
    ['DROP TABLE old_jobs', 'drops a table'],
    ['drop index events_cron_occurrence_idx', 'drops a index'],
    ['alter table events rename column status to state', 'renames'],
    ['alter table events rename to deliveries', 'renames'],
    ['alter table events alter column cron_id set not null', 'tightens or retypes a column'],
    ['alter table events alter column attempt type integer', 'tightens or retypes a column'],
    ['alter table events add constraint one_per_slot unique (cron_id, scheduled_at)', 'adds a constraint'],
    ['alter table events add column x int not null', 'adds a NOT NULL column without a default'],
    ['alter table t add column a int default 1, add column b int not null', 'adds a NOT NULL column'],
  ])('flags %s', (sql, why) => {
    expect(contractingSteps(sql).join('; ')).toContain(why);
  });
});
