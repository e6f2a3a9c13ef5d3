import { Migration } from '@mikro-orm/migrations';

/** The pending events a team's quotas count: its own (not a cron's schedule, not the service's alerts). */
const COUNTED = `status = 'pending' and (cron_id is null or triggered) and not alert`;

/** Whether the transaction asked for the check named `setting` (see server/src/shared/quota-check.ts). */
const asked = (setting: string) =>
  `coalesce(current_setting('webhook_scheduler.${setting}', true), '') <> ''`;

/** A PL/pgSQL `if` failing the commit when `used` is past `max` and the transaction adds to it. */
function refuseWhen(quota: string, used: string, max: string, adding: string): string {
  return `if ${adding} > 0 and ${used} > ${max} then
      raise exception 'the team''s ${quota} quota is exceeded'
        using errcode = 'check_violation', constraint = 'team_quota',
              detail = jsonb_build_object('quota', '${quota}', 'limit', ${max}, 'current', ${used} - ${adding},
                                          'adding', ${adding})::text;
    end if;`;
}

/**
 * The active crons' check at commit, when the setting names the team of the changed row: the team's
 * quota lock (server/src/limits/quota-locks.ts: class 1, `hashtext` of the team id), then the count
 * (a statement of its own, so it sees every transaction that committed before the lock was
 * granted), then the refusal.
 */
const CHECK_ACTIVE_CRONS = `
  create function check_active_crons_quota() returns trigger language plpgsql as $$
  declare
    quota jsonb := current_setting('webhook_scheduler.active_crons_quota')::jsonb;
    used_crons bigint;
  begin
    if (quota ->> 'team')::uuid is distinct from new.team_id then
      return null;
    end if;
    perform pg_advisory_xact_lock(1, hashtext(new.team_id::text));
    select count(*) into used_crons from crons where team_id = new.team_id and is_active;
    ${refuseWhen('active_crons', 'used_crons', `(quota ->> 'max_crons')::bigint`, '1')}
    return null;
  end $$`;

/**
 * How many commits of one team may count their pending events at once, and the most one of them may
 * add to be among them: a commit that holds one of the team's slots knows the others in flight add
 * at most (SLOTS - 1) × these, so while the team is further than that from its limits it commits
 * without waiting for any other.
 */
const SLOTS = 8;
const FAST_EVENTS = 1000;
const FAST_BYTES = 1024 * 1024;
const MARGIN_EVENTS = (SLOTS - 1) * FAST_EVENTS;
const MARGIN_BYTES = (SLOTS - 1) * FAST_BYTES;

/** A slot of the team of the changed row: class 3 of server/src/limits/quota-locks.ts. */
const slot = (n: string) => `3, hashtext(new.team_id::text || ':' || ${n})`;

/**
 * The pending quotas' check at commit, when the setting names the team of the changed row. It
 * takes one of the team's slots (any free one, or waits for one while it holds none), counts and
 * commits: up to SLOTS commits of one team at a time, each flushing beside the others. It counts
 * exactly, alone, taking every slot in order, when asked to (`webhook_scheduler.quota_exact`), when
 * it adds more than a slot's share, or when the limits are too small for the slots to help. A
 * commit that holds a slot never waits for anything, and one that waits holds no slot or only slots
 * taken in order: no cycle. A commit under one slot that finds the team nearer its limits than the
 * others in flight could add fails with `team_quota_exact`, and the service runs the write again
 * asking for an exact count (server/src/limits/quota-at-commit.ts).
 */
const CHECK_PENDING = `
  create function check_pending_quota() returns trigger language plpgsql as $$
  declare
    quota jsonb := current_setting('webhook_scheduler.pending_quota')::jsonb;
    max_events bigint := (quota ->> 'max_events')::bigint;
    max_bytes bigint := (quota ->> 'max_bytes')::bigint;
    adding_events bigint := (quota ->> 'adding_events')::bigint;
    adding_bytes bigint := (quota ->> 'adding_bytes')::bigint;
    first_slot int := pg_backend_pid() % ${SLOTS};
    exact boolean := coalesce(current_setting('webhook_scheduler.quota_exact', true), '') = 'on'
      or adding_events > ${FAST_EVENTS} or adding_bytes > ${FAST_BYTES}
      or max_events < ${2 * MARGIN_EVENTS} or max_bytes < ${2 * MARGIN_BYTES};
    taken boolean := false;
    used_events bigint;
    used_bytes bigint;
  begin
    if (quota ->> 'team')::uuid is distinct from new.team_id then
      return null;
    end if;
    if exact then
      for n in 0 .. ${SLOTS - 1} loop
        perform pg_advisory_xact_lock(${slot('n')});
      end loop;
    else
      for n in 0 .. ${SLOTS - 1} loop
        taken := pg_try_advisory_xact_lock(${slot(`(first_slot + n) % ${SLOTS}`)});
        exit when taken;
      end loop;
      if not taken then
        perform pg_advisory_xact_lock(${slot('first_slot')});
      end if;
    end if;
    -- A statement of its own: it sees every commit before the slots were granted.
    select coalesce(sum(c.n), 0), coalesce(sum(c.bytes), 0) into used_events, used_bytes
    from pending_event_counts c where c.team_id = new.team_id;
    ${refuseWhen('pending_events', 'used_events', 'max_events', 'adding_events')}
    ${refuseWhen('pending_bytes', 'used_bytes', 'max_bytes', 'adding_bytes')}
    if not exact and (used_events + ${MARGIN_EVENTS} > max_events or used_bytes + ${MARGIN_BYTES} > max_bytes) then
      raise exception 'the team''s pending quotas need an exact count'
        using errcode = 'check_violation', constraint = 'team_quota_exact';
    end if;
    return null;
  end $$`;

/**
 * Exact quotas (issue 26):
 *
 * - `events.request_bytes`: the bytes of the payload (compact JSON) and custom headers (names and
 *   values), measured by the service when it writes the event. Events from before are measured
 *   here from PostgreSQL's text of the payload, a few bytes more than its compact JSON.
 * - `pending_event_counts` counts the team's own pending events (creates, batches, replays, manual
 *   runs of crons and their retries; no cron occurrence, no alert) and their bytes.
 * - Counter rows are per database session (`pg_backend_pid()`), not a random one of 16: two
 *   transactions never write the same counter row, so counters never wait and take no part in a
 *   deadlock (a random shard per statement let one transaction hold two shards of one team while
 *   another held them in the other order). Rows of sessions that ended are folded into shard 0
 *   (events/store/counter-shards.ts).
 * - Quota checks at commit (server/src/shared/quota-check.ts): constraint triggers deferred to the
 *   commit of a transaction that asked for a check (a transaction-local setting: the team, its
 *   limits and what the transaction adds). At commit, as the last locks the transaction takes, the
 *   check takes the team's quota lock (active crons) or slots (pending events and bytes), counts
 *   with the transaction's own rows included, and fails the commit (`check_violation` on
 *   `team_quota`) when one is past its limit. No round trip to the client falls between the count
 *   and the commit. A lock held until the commit is held through its WAL flush: one lock per team
 *   for every create capped a team's creates at one flush at a time (bench/README.md), hence the
 *   slots for the pending quotas.
 * - `pending_events_within()`, which the previous release's creates call, stays until the next.
 */
export class Migration20261126100000_exact_quotas extends Migration {
  override up(): void {
    this.addSql('alter table events add column request_bytes integer not null default 0');
    this.addSql(`
      update events set request_bytes = coalesce(octet_length(payload::text), 0)
        + coalesce((select sum(octet_length(h.key) + octet_length(h.value)) from jsonb_each_text(headers) h), 0)
      where ${COUNTED}`);
    this.addSql('alter table team_limits add column max_pending_bytes bigint');

    this.addSql('alter table pending_event_counts alter column shard type integer');
    this.addSql('alter table pending_event_counts add column bytes bigint not null default 0');
    this.addSql('alter table event_totals alter column shard type integer');
    for (const [name, sign] of [
      ['count_pending_added', ''],
      ['count_pending_removed', '-'],
    ] as const) {
      this.addSql(`
        create or replace function ${name}() returns trigger language plpgsql as $$
        begin
          insert into pending_event_counts (team_id, shard, n, bytes)
          select team_id, pg_backend_pid(), ${sign}count(*), ${sign}sum(request_bytes) from changed
          where ${COUNTED} group by team_id
          on conflict (team_id, shard) do update
            set n = pending_event_counts.n + excluded.n, bytes = pending_event_counts.bytes + excluded.bytes;
          return null;
        end $$`);
    }
    this.addSql(`
      create or replace function count_pending_changed() returns trigger language plpgsql as $$
      begin
        insert into pending_event_counts (team_id, shard, n, bytes)
        select team_id, pg_backend_pid(), sum(d), sum(b) from (
          select team_id, 1 as d, request_bytes as b from new_rows where ${COUNTED}
          union all
          select team_id, -1, -request_bytes from old_rows where ${COUNTED}
        ) as moved group by team_id having sum(d) <> 0 or sum(b) <> 0
        on conflict (team_id, shard) do update
          set n = pending_event_counts.n + excluded.n, bytes = pending_event_counts.bytes + excluded.bytes;
        return null;
      end $$`);
    for (const [name, sign] of [
      ['add_event_totals', ''],
      ['remove_event_totals', '-'],
    ] as const) {
      this.addSql(`
        create or replace function ${name}() returns trigger language plpgsql as $$
        begin
          insert into event_totals (scope, shard, n)
          select scope, pg_backend_pid(), ${sign}count(*) from (
            select team_id as scope from changed union all select cron_id from changed where cron_id is not null
          ) as rows group by scope
          on conflict (scope, shard) do update set n = event_totals.n + excluded.n;
          return null;
        end $$`);
    }
    // Other sessions' rows of the cron are skipped, never waited for: the fold removes what is left.
    this.addSql(`
      create or replace function drop_cron_totals() returns trigger language plpgsql as $$
      begin
        delete from event_totals where ctid = any(array(
          select ctid from event_totals where scope = old.id for update skip locked));
        return null;
      end $$`);

    this.addSql(CHECK_PENDING);
    // The WHEN is evaluated as the row changes, not at commit: transactions that asked for no
    // check (the scheduler's) queue nothing.
    this.addSql(`
      create constraint trigger pending_quota after insert or update on pending_event_counts
      deferrable initially deferred for each row when (${asked('pending_quota')})
      execute function check_pending_quota()`);
    this.addSql(CHECK_ACTIVE_CRONS);
    this.addSql(`
      create constraint trigger active_crons_quota_added after insert on crons
      deferrable initially deferred for each row when (new.is_active and ${asked('active_crons_quota')})
      execute function check_active_crons_quota()`);
    this.addSql(`
      create constraint trigger active_crons_quota_resumed after update of is_active on crons
      deferrable initially deferred for each row
      when (new.is_active and not old.is_active and ${asked('active_crons_quota')})
      execute function check_active_crons_quota()`);

    this.addSql('delete from pending_event_counts');
    this.addSql(`
      insert into pending_event_counts (team_id, shard, n, bytes)
      select team_id, 0, count(*), sum(request_bytes) from events where ${COUNTED} group by team_id`);
    this.addSql(`
      with folded as (delete from event_totals returning scope, n)
      insert into event_totals (scope, shard, n) select scope, 0, sum(n) from folded group by scope`);
  }
}
