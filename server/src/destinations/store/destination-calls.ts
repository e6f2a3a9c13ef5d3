import type { EntityManager } from '@mikro-orm/postgresql';
import { type PreparedCall, preparedQuery, rawQuery } from '../../shared/raw-query.js';
import {
  type CircuitSettings,
  type DestinationHealth,
  type RecordedCall,
  isDown,
  recordCalls,
} from '../circuit.rules.js';
import { DESTINATION_COLUMNS, type DestinationRow, healthOf } from './destination-row.js';

/** A recorded call of a team to an origin. */
export interface DestinationCall extends RecordedCall {
  teamId: string;
  origin: string;
}

/** A circuit that opened or closed, for the team's alert. */
export interface CircuitChange {
  teamId: string;
  origin: string;
  transition: 'opened' | 'closed';
  health: DestinationHealth;
}

interface Group {
  teamId: string;
  origin: string;
  calls: DestinationCall[];
}

const HOUR_MS = 3_600_000;

function groupsOf(calls: DestinationCall[]): Group[] {
  const groups = new Map<string, Group>();
  for (const call of calls) {
    const key = `${call.teamId} ${call.origin}`;
    const group = groups.get(key) ?? { teamId: call.teamId, origin: call.origin, calls: [] };
    group.calls.push(call);
    groups.set(key, group);
  }
  // One order for every writer: rows are locked team by team, origin by origin.
  return [...groups.values()]
    .map((group) => ({
      ...group,
      calls: group.calls.sort((a, b) => a.executedAt.getTime() - b.executedAt.getTime()),
    }))
    .sort((a, b) => a.teamId.localeCompare(b.teamId) || a.origin.localeCompare(b.origin));
}

function summaryOf(group: Group) {
  const last = group.calls.at(-1);
  const byHour = new Map<number, { calls: number; failures: number }>();
  for (const call of group.calls) {
    const hour = Math.floor(call.executedAt.getTime() / HOUR_MS) * HOUR_MS;
    const counts = byHour.get(hour) ?? { calls: 0, failures: 0 };
    counts.calls += 1;
    if (!call.ok) counts.failures += 1;
    byHour.set(hour, counts);
  }
  return {
    team_id: group.teamId,
    origin: group.origin,
    last_call_at: last?.executedAt,
    last_status: last?.ok ? 'success' : 'failed',
    last_response_status: last?.responseStatus ?? null,
    hours: [...byHour].map(([hour, counts]) => ({ hour: new Date(hour), ...counts })),
  };
}

const NOTE_CALLS = `with input as (
     select * from jsonb_to_recordset($1::jsonb) as i(team_id uuid, origin text, last_call_at timestamptz,
       last_status text, last_response_status int, hours jsonb)
   ), counted as (
     insert into destination_hours (team_id, origin, hour, calls, failures, xid)
     select i.team_id, i.origin, h.hour, h.calls, h.failures, pg_current_xact_id()
     from input i cross join jsonb_to_recordset(i.hours) as h(hour timestamptz, calls int, failures int)
   ), noted as (
     insert into destinations as d (team_id, origin, last_call_at, last_status, last_response_status, created_at, updated_at)
     select team_id, origin, last_call_at, last_status, last_response_status, clock_timestamp(), clock_timestamp()
     from input order by team_id, origin
     on conflict (team_id, origin) do update set
       last_call_at = greatest(d.last_call_at, excluded.last_call_at),
       -- Another process may record an earlier call after this one: the latest call's answer stays.
       last_status = case when excluded.last_call_at >= coalesce(d.last_call_at, '-infinity')
                          then excluded.last_status else d.last_status end,
       last_response_status = case when excluded.last_call_at >= coalesce(d.last_call_at, '-infinity')
                                   then excluded.last_response_status else d.last_response_status end
     returning ${DESTINATION_COLUMNS}
   )
   select * from noted d
   where d.consecutive_failures > 0 or d.circuit <> 'closed' or d.retry_after_until is not null`;

/**
 * The last call and the hourly counts of each destination, written whatever its health (one
 * statement, no transaction): the destination's row made or updated, the counts appended. Returns
 * the rows whose health the calls may change. Prepared: planned anew with each outcome batch, its
 * planning took as long as its run (0.16–0.24 ms each; bench/README.md, 2026-11-29 08:45).
 */
async function noteCalls(em: EntityManager, groups: Group[]): Promise<DestinationRow[]> {
  return preparedQuery<DestinationRow>(em, NOTE_CALLS, [JSON.stringify(groups.map(summaryOf))]);
}

/** {@link noteCalls} of no call ({@link prepareOnEveryConnection}). */
export const noCallsNoted: PreparedCall = { sql: NOTE_CALLS, params: ['[]'] };

/**
 * Keeps the destinations' health after recorded calls (docs/reference/behaviour.md#circuit-breaker): the streak of failed calls,
 * the circuit breaker and Retry-After. A batch of successes to healthy destinations costs one
 * statement; a change of health is decided under the destination's row lock, in one transaction.
 * Returns the circuits that opened or closed (a closed one's held events may go).
 */
export async function recordDestinationCalls(
  em: EntityManager,
  calls: DestinationCall[],
  settings: CircuitSettings,
  now: Date,
): Promise<CircuitChange[]> {
  if (calls.length === 0) return [];
  const groups = groupsOf(calls);
  const unhealthy = new Set((await noteCalls(em, groups)).map((row) => `${row.team_id} ${row.origin}`));
  const touched = groups.filter(
    (group) =>
      unhealthy.has(`${group.teamId} ${group.origin}`) ||
      group.calls.some((call) => isDown(call) || call.retryAfter !== null),
  );
  if (touched.length === 0) return [];
  return em.transactional(async (tx) => {
    const changes: CircuitChange[] = [];
    for (const group of touched) {
      const [row] = await rawQuery<DestinationRow>(
        tx,
        `select ${DESTINATION_COLUMNS} from destinations d where d.team_id = $1 and d.origin = $2 for update`,
        [group.teamId, group.origin],
      );
      if (!row) continue;
      const { health, transition } = recordCalls(healthOf(row), group.calls, now, settings);
      await saveHealth(tx, group, health);
      if (transition) changes.push({ teamId: group.teamId, origin: group.origin, transition, health });
    }
    return changes;
  });
}

async function saveHealth(tx: EntityManager, group: Group, health: DestinationHealth): Promise<void> {
  await rawQuery(
    tx,
    `update destinations set circuit = $3, consecutive_failures = $4, open_until = $5, cooldown_ms = $6,
                             probe_event_id = $7, retry_after_until = $8, updated_at = clock_timestamp()
     where team_id = $1 and origin = $2`,
    [
      group.teamId,
      group.origin,
      health.circuit,
      health.consecutiveFailures,
      health.openUntil,
      health.cooldownMs,
      health.probeEventId,
      health.retryAfterUntil,
    ],
  );
}
