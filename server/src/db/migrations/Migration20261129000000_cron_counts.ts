import { Migration } from '@mikro-orm/migrations';

/**
 * Counts of crons per team, active and not, that no write waits for, kept as `event_counts` keeps
 * the events': every insert, delete and change of `is_active` appends rows, the folding job folds a
 * team's rows into one per state, and a count sums those few rows. `GET /crons`' total and the
 * active-crons quota counted the team's rows, reading each live one (a cron's row is rewritten every
 * occurrence, so the index alone could not answer): 2.0 ms on average and 12 % of calls over 5 ms
 * for a team of 10,000 crons at bench/scale's SCALE=1.
 *
 * Row triggers, not statement ones: the outcome's and top-up's updates of thousands of crons a
 * minute change no `is_active` and must not pay for transition tables. The existing crons are
 * counted as `event_counts` did: triggers first, then, once every transaction that could have
 * written without them has ended, one statement counts the rows of its snapshot and drops the
 * appended changes that snapshot already sees.
 */
export class Migration20261129000000_cron_counts extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    await this.execute(`create table if not exists cron_counts (
      team_id uuid not null,
      is_active boolean not null,
      n bigint not null,
      -- The appending transaction, until folded (null for folded and counted rows).
      xid xid8
    )`);
    await this.execute('create index if not exists cron_counts_team_idx on cron_counts (team_id, is_active)');
    await this.execute(
      'create index if not exists cron_counts_unfolded_idx on cron_counts (team_id) where xid is not null',
    );
    await this
      .execute(`create or replace function count_crons_changed() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          insert into cron_counts (team_id, is_active, n, xid) values (old.team_id, old.is_active, -1, pg_current_xact_id());
        end if;
        if tg_op in ('UPDATE', 'INSERT') then
          insert into cron_counts (team_id, is_active, n, xid) values (new.team_id, new.is_active, 1, pg_current_xact_id());
        end if;
        return null;
      end $$`);
    await this.execute(`create or replace trigger crons_counted_added after insert on crons
      for each row execute function count_crons_changed()`);
    await this.execute(`create or replace trigger crons_counted_removed after delete on crons
      for each row execute function count_crons_changed()`);
    await this.execute(`create or replace trigger crons_counted_changed after update of is_active on crons
      for each row when (old.is_active is distinct from new.is_active) execute function count_crons_changed()`);

    await this.waitForTransactionsBefore();
    await this.execute(`with snapshot as (select pg_current_snapshot() as s),
      seen as (
        delete from cron_counts
        where xid is null or pg_visible_in_snapshot(xid, (select s from snapshot))
      )
      insert into cron_counts (team_id, is_active, n)
      select team_id, is_active, count(*) from crons group by team_id, is_active`);
    await this.execute('analyze cron_counts');

    // The quota counts what the team's rows counted, now from the sums.
    await this
      .execute(`create or replace function check_active_crons_quota() returns trigger language plpgsql as $$
      declare
        quota jsonb := current_setting('webhook_scheduler.active_crons_quota')::jsonb;
        used_crons bigint;
      begin
        if (quota ->> 'team')::uuid is distinct from new.team_id then
          return null;
        end if;
        perform pg_advisory_xact_lock(1, hashtext(new.team_id::text));
        select coalesce(sum(n), 0) into used_crons from cron_counts where team_id = new.team_id and is_active;
        if used_crons > (quota ->> 'max_crons')::bigint then
          raise exception 'the team''s active_crons quota is exceeded'
            using errcode = 'check_violation', constraint = 'team_quota',
                  detail = jsonb_build_object('quota', 'active_crons', 'limit', (quota ->> 'max_crons')::bigint,
                                              'current', used_crons - 1, 'adding', 1)::text;
        end if;
        return null;
      end $$`);
  }

  /** Waits until every transaction that began before this point has ended. */
  private async waitForTransactionsBefore(): Promise<void> {
    const [started] = await this.execute('select pg_current_xact_id()::text as xid');
    const xid = BigInt(String(started?.xid));
    for (;;) {
      const [row] = await this.execute(
        `select pg_snapshot_xmin(pg_current_snapshot()) > '${xid}'::xid8 as done`,
      );
      if (row?.done) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
