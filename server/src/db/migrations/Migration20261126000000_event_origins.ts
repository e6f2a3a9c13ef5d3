import { Migration } from '@mikro-orm/migrations';
import { webhookOrigin } from '@webhook-scheduler/scheduler';
import { CompiledQuery } from 'kysely';

/** Rows per batch: each batch is one short statement, its row locks held for milliseconds. */
export const ORIGIN_BATCH = 2000;

interface Stored {
  id: string;
  webhook_url: string;
  destination: string | null;
  queued: string | null;
}

/**
 * Each pending event's destination becomes the origin its calls connect to (`webhookOrigin`, one
 * WHATWG parse) instead of the `host:port` a regular expression read, in its row and its queue row.
 * The queue trigger now takes the origin the insert stored, and the SQL twin of the old rule
 * (`webhook_destination()`) is dropped. Finished events keep what they stored: nothing delivers
 * them again, rewriting millions of them would hold up a large install's upgrade for many minutes,
 * and retention replaces them with events that store the origin.
 *
 * Not one transaction: the events are rewritten in batches that each commit, so no row stays
 * locked longer than its batch on a large install, and a restart after a crash goes on where the
 * rows still differ (every step can run twice).
 */
export class Migration20261126000000_event_origins extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    await this.query(
      `create or replace function queue_pending_events() returns trigger language plpgsql as $$
      begin
        insert into event_queue (event_id, team_id, scheduled_at, destination)
        select id, team_id, scheduled_at, destination from added where status = 'pending';
        return null;
      end $$`,
    );
    await this.query('drop function if exists webhook_destination(text)');
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = await this.query<Stored>(
        `select q.event_id as id, e.webhook_url, e.destination, q.destination as queued
         from event_queue q join events e on e.id = q.event_id
         where q.event_id > $1 order by q.event_id limit $2`,
        [after, ORIGIN_BATCH],
      );
      const last = rows.at(-1);
      if (last === undefined) return;
      after = last.id;
      const changed = rows.flatMap((row) => {
        const origin = webhookOrigin(row.webhook_url);
        const stale = row.destination !== origin || (row.queued !== null && row.queued !== origin);
        return stale ? [{ ...row, origin }] : [];
      });
      if (changed.length > 0) await this.store(changed);
    }
  }

  // Bound parameters, outside any transaction (this migration runs none).
  private async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const result = await this.getEntityManager().getKysely().executeQuery<T>(CompiledQuery.raw(sql, params));
    return [...result.rows];
  }

  // Only where the URL is still the one read: a URL changed since then stored its own origin.
  private async store(rows: (Stored & { origin: string })[]): Promise<void> {
    await this.query(
      `with fixed as (
       select * from unnest($1::uuid[], $2::text[], $3::text[]) as f(id, webhook_url, origin)
     ), events_fixed as (
       update events e set destination = f.origin from fixed f
       where e.id = f.id and e.webhook_url = f.webhook_url and e.destination is distinct from f.origin
     )
     update event_queue q set destination = f.origin from fixed f join events e on e.id = f.id
     where q.event_id = f.id and e.webhook_url = f.webhook_url and q.destination <> f.origin`,
      [rows.map((row) => row.id), rows.map((row) => row.webhook_url), rows.map((row) => row.origin)],
    );
  }
}
