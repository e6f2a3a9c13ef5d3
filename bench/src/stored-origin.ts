import { webhookOrigin } from '@webhook-scheduler/scheduler';
import type pg from 'pg';

/** What an insert into `events` adds to store each event's destination as the service does. */
export interface StoredOrigin {
  /** `, destination`, or nothing. */
  column: string;
  /** `, $n`, or nothing. */
  value: string;
  /** The origin as parameter `$n`, or none. */
  params: string[];
}

/**
 * The destination of events the bench inserts itself: the origin of `url`, as the service stores
 * it (the queue takes it from there); nothing for a baseline built before that column.
 */
export async function storedOrigin(db: pg.Client, url: string, param: number): Promise<StoredOrigin> {
  const { rows } = await db.query(
    `select 1 from information_schema.columns where table_name = 'events' and column_name = 'destination'`,
  );
  if (rows.length === 0) return { column: '', value: '', params: [] };
  return { column: ', destination', value: `, $${param}`, params: [webhookOrigin(url)] };
}
