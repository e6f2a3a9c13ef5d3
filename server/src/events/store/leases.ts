import type { EntityManager } from '@mikro-orm/postgresql';
import type { ClaimedAttempt } from '@webhook-scheduler/scheduler';
import { rawQuery } from '../../shared/raw-query.js';
import { joinTeam, callColumns } from '../../teams/team-fragments.js';
import { ATTEMPT_COLUMNS, type AttemptRow, toAttempt } from './attempt-row.js';

/** Leases on queue rows after their claim: given back, or found expired for recovery. */

/**
 * The queue rows `q` of the `input` rows `i` whose lease the input still holds. The id array steers
 * the planner to the primary key: an equality on the lease would let it read the whole lease index,
 * every call in flight. With a non-null input, `is not distinct from` means the same as `=`.
 */
export const LEASE_STILL_HELD = `q.event_id = any(array(select id from input)) and q.event_id = i.id
  and q.lease_token is not distinct from i.lease_token and i.lease_token is not null`;

/** Puts claimed attempts back in the queue, unleased (lease-checked). */
export async function releaseAttempts(
  em: EntityManager,
  attempts: { id: string; leaseToken: string }[],
): Promise<void> {
  if (attempts.length === 0) return;
  await rawQuery(
    em,
    `with input as (select * from jsonb_to_recordset($1::jsonb) as i(id uuid, lease_token uuid))
     update event_queue q
     set lease_token = null, lease_owner = null, lease_expires_at = null
     from input i
     where ${LEASE_STILL_HELD}`,
    [JSON.stringify(attempts.map(({ id, leaseToken }) => ({ id, lease_token: leaseToken })))],
  );
}

/** Attempts whose lease expired or whose owner is one of `deadOwners`. */
export async function expiredLeases(
  em: EntityManager,
  limit: number,
  deadOwners: number[],
): Promise<ClaimedAttempt[]> {
  const rows = await rawQuery<AttemptRow>(
    em,
    `select ${ATTEMPT_COLUMNS}, ${callColumns('t')}
     from event_queue q join events e on e.id = q.event_id ${joinTeam('t', 'e.team_id')}
     where q.lease_token is not null
       and (q.lease_expires_at < clock_timestamp() or q.lease_owner = any($2))
     order by q.lease_expires_at limit $1`,
    [limit, deadOwners],
  );
  return rows.map(toAttempt);
}
