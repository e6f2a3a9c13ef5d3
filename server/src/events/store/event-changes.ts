import type { EntityManager } from '@mikro-orm/postgresql';
import { type EventRequest, type Timers, webhookOrigin } from '@webhook-scheduler/scheduler';
import { jsonParam, rawQuery, sqlExecutor } from '../../shared/raw-query.js';
import { requestBytes } from '../../shared/request-bytes.js';
import { type EventRow, eventColumns } from './event-row.js';

/** What a client defines of an event. */
export interface EventDefinition extends EventRequest {
  scheduledAt: Date;
}

/**
 * Replaces a pending event's definition; its new time gets its timer job in the same transaction
 * (the caller's, in which it holds the row locked).
 */
export async function updateEventDefinition(
  tx: EntityManager,
  timers: Timers,
  id: string,
  event: EventDefinition & { now: Date },
): Promise<EventRow> {
  const [row] = await rawQuery<EventRow>(
    tx,
    `with requeued as (
       -- A new time or destination: held back again only if its destination still cannot take it.
       update event_queue set scheduled_at = $3, destination = $9, parked_until = null where event_id = $1)
     update events set webhook_url = $2, destination = $9, scheduled_at = $3, method = $4, headers = $5::jsonb, payload = $6::jsonb,
                       retry_config = $7::jsonb, timeout_ms = $11, request_bytes = $10, updated_at = $8
     where id = $1 returning ${eventColumns()}`,
    [
      id,
      event.webhookUrl,
      event.scheduledAt,
      event.method,
      jsonParam(event.headers),
      jsonParam(event.payload),
      jsonParam(event.retryConfig),
      event.now,
      webhookOrigin(event.webhookUrl),
      requestBytes(event),
      event.timeoutMs,
    ],
  );
  if (!row) throw new Error('update returned no row');
  await timers.schedule(sqlExecutor(tx), [event.scheduledAt], event.now);
  return row;
}

/** Deletes an original event and its retry attempts. */
export async function deleteEventAndRetries(em: EntityManager, id: string): Promise<void> {
  await rawQuery(em, 'delete from events where id = $1 or retry_of = $1', [id]);
}

/** Deletes every event a cron made, in the caller's transaction. */
export async function deleteEventsOfCron(tx: EntityManager, cronId: string): Promise<void> {
  // Their queue rows first, the order an outcome takes them in (not the cascade's).
  await rawQuery(
    tx,
    'select 1 from event_queue where event_id in (select id from events where cron_id = $1) for update',
    [cronId],
  );
  // Originals only, their retries by the cascade after them: the order retention deletes a chain
  // in, so the two never hold one chain from both ends.
  await rawQuery(tx, 'delete from events where cron_id = $1 and retry_of is null', [cronId]);
}

/**
 * Deletes the cron's pending events, but not those in flight (a claim in progress is waited for).
 * A pending retry attempt belongs to a delivery of the old definition: it is dropped too, and its
 * original, left without retries (`processing` with no queue row), ends `failed`.
 */
export async function dropPendingEventsOfCron(tx: EntityManager, cronId: string, now: Date): Promise<void> {
  await rawQuery(
    tx,
    `with waiting as (
       select q.event_id from event_queue q
       where q.event_id in (select id from events where cron_id = $1 and status = 'pending') and q.lease_token is null
       for update of q
     ), dropped as (delete from events where id in (select event_id from waiting) returning retry_of)
     update events set status = 'failed', updated_at = $2
     where id in (select retry_of from dropped where retry_of is not null) and status = 'processing'`,
    [cronId, now],
  );
}
