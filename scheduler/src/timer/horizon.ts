import type { Pool } from 'pg';
import type { EventStore } from '../ports.js';
import { HORIZON_MS, type Timers } from './timers.js';

/**
 * Gives timer jobs to the seconds that came within `HORIZON_MS` since the last extension, which
 * `timer_horizon` remembers (one process extends it at a time; the others skip). A second already
 * past is the backlog's, so a scheduler back from a long stop does not write a job per missed second.
 * Returns how many seconds got jobs.
 */
export async function extendTimerHorizon(
  pool: Pool,
  store: Pick<EventStore, 'pendingSlots'>,
  timers: Timers,
  now = new Date(),
): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ covered_until: Date }>(
      'select covered_until from timer_horizon for update skip locked',
    );
    const coveredUntil = rows[0]?.covered_until;
    const from = new Date(Math.max(coveredUntil?.getTime() ?? 0, now.getTime()));
    const until = new Date(now.getTime() + HORIZON_MS);
    if (!coveredUntil || until <= from) {
      await client.query('rollback');
      return 0;
    }
    const slots = await store.pendingSlots(from, until);
    await timers.cover(client, slots, now);
    await client.query('update timer_horizon set covered_until = $1', [until]);
    await client.query('commit');
    return slots.length;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
