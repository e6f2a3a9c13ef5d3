import type { EntityManager } from '@mikro-orm/postgresql';
import type { CronPausedAlertData, EventFailedAlertData } from '@webhook-scheduler/contract';
import { type AttemptRecord, type RetryAttempt, type Timers, requestOf } from '@webhook-scheduler/scheduler';
import { cronHealthCtes, cronPausedData, lockCrons } from '../crons/cron-outcomes.js';
import { type RaisedAlert, alertEvent } from '../events/store/alert-events.js';
import { dropPendingEventsOfCron } from '../events/store/event-changes.js';
import {
  CRON_IDS_OF_INPUT,
  CRON_IDS_OF_INPUT_NOT_SUCCEEDED_AT_ONCE,
  INPUT,
  STILL_OPEN,
  eventFailedData,
  outcomeInput,
  recordOutcomeCtes,
} from '../events/store/outcome-statement.js';
import { type PendingEvent, insertPendingEvents } from '../events/store/pending-events.js';
import { appendDeliveryMinutes } from '../overview/store/delivery-minutes.js';
import { type PreparedCall, preparedQuery, rawQuery } from '../shared/raw-query.js';
import { joinTeam } from '../teams/team-fragments.js';

// The end of a delivery: an original that needs no retry, or a retry that settles its original.
// One statement, composed from the fragments of each table's owner. For a cron's occurrence (not a
// manual run) it keeps the cron's health: the failure streak, the last run, and the pause once the
// streak reaches pause_after_failures (a healthy cron's occurrence that succeeds at once leaves its
// row alone: see lockCrons). The crons it writes are locked first, before any queue or event row
// (the order of docs/guides/operations.md, "Locks", which cron writes follow too), so two scheduler
// processes count one after the other and only the one whose count crosses the threshold pauses it
// (and alerts). It also appends the Overview's rollup: no extra round trip per batch.
const RECORD = `with ${INPUT}, cron_locks as (
    -- Manual runs' crons too: a retry of one refers to its cron (for key share) further on.
    ${lockCrons(CRON_IDS_OF_INPUT, CRON_IDS_OF_INPUT_NOT_SUCCEEDED_AT_ONCE)}
  ), ${recordOutcomeCtes('cron_locks')}, minutes as (
    ${appendDeliveryMinutes('recorded')}
  ), occurrences as (
    select * from finals where cron_id is not null and not triggered
  ), ${cronHealthCtes('occurrences', 'cron_locks')}
  select 'recorded' as kind, r.id, ${STILL_OPEN} as open,
         r.triggered, null::uuid as team_id, null::text as alert_url, null::jsonb as subject
  from recorded r
  union all
  -- An alert never alerts about itself.
  select 'event.failed', f.id, false, null, f.team_id, t.alert_url, ${eventFailedData('f')}
  from finals f ${joinTeam('t', 'f.team_id')}
  where f.final_status = 'failed' and not f.alert and t.alert_url is not null
  union all
  select 'cron.paused', c.id, false, null, c.team_id, t.alert_url, ${cronPausedData('c')}
  from counted c ${joinTeam('t', 'c.team_id')}
  where c.paused`;

/** {@link recordOutcomes} of no outcome ({@link prepareOnEveryConnection}). */
export const noOutcomesRecorded: PreparedCall = { sql: RECORD, params: [outcomeInput([])] };

interface RecordRow {
  kind: 'recorded' | 'event.failed' | 'cron.paused';
  id: string;
  open: boolean;
  /** Of a recorded attempt: it belongs to a manual run of a cron, and so will its retry. */
  triggered: boolean | null;
  team_id: string | null;
  alert_url: string | null;
  /** Of an alert: its `data`, as the statement's fragments build it. */
  subject: EventFailedAlertData | CronPausedAlertData | null;
}

/**
 * The alert a row of {@link RECORD} raises. The statement builds its data, so the types are taken on
 * trust here; the alert tests parse every message sent with the contract's schema.
 */
function raisedAlerts(row: RecordRow, now: Date): PendingEvent[] {
  if (row.kind === 'recorded' || !row.team_id) return [];
  const alert: RaisedAlert =
    row.kind === 'event.failed'
      ? { type: row.kind, data: row.subject as EventFailedAlertData }
      : { type: row.kind, data: row.subject as CronPausedAlertData };
  return alertEvent(row.team_id, row.alert_url, alert, now);
}

// A manual run's retries are marked like it: the team's pending quotas count them, as its own.
const retryEvent = (retry: RetryAttempt, triggered: boolean): PendingEvent => ({
  id: retry.id,
  teamId: retry.teamId,
  cronId: retry.cronId,
  retryOf: retry.originalId,
  attempt: retry.attempt,
  scheduledAt: retry.scheduledAt,
  ...requestOf(retry),
  triggered,
  traceContext: retry.traceContext,
});

/**
 * A success that ends its delivery plans nothing more: no retry, no alert, no pause of its cron.
 * Outcomes that are all such need no transaction around {@link RECORD}.
 */
const endsInSuccess = (record: AttemptRecord): boolean =>
  record.status === 'success' && record.retry === null && record.originalStatus !== 'failed';

/**
 * Writes outcomes whose lease still holds (one statement, which also keeps the crons' health) and,
 * in the same transaction, the retries they plan, the pending events of crons it paused dropped
 * (docs/reference/behaviour.md#cron-redefinition), and the failure alerts; returns the ids recorded.
 */
export async function recordOutcomes(
  em: EntityManager,
  timers: Timers,
  records: AttemptRecord[],
): Promise<string[]> {
  if (records.length === 0) return [];
  const params = [outcomeInput(records)];
  if (records.every(endsInSuccess)) {
    const rows = await preparedQuery<RecordRow>(em, RECORD, params);
    return rows.filter((row) => row.kind === 'recorded').map((row) => row.id);
  }
  return em.transactional(async (tx) => {
    const rows = await rawQuery<RecordRow>(tx, RECORD, params);
    const recorded = rows.filter((row) => row.kind === 'recorded');
    const open = new Map(recorded.filter((row) => row.open).map((row) => [row.id, row.triggered === true]));
    const retries = records.flatMap((record) => {
      const triggered = open.get(record.id);
      return record.retry && triggered !== undefined ? [retryEvent(record.retry, triggered)] : [];
    });
    const now = new Date();
    for (const paused of rows.filter((row) => row.kind === 'cron.paused')) {
      await dropPendingEventsOfCron(tx, paused.id, now);
    }
    const alerts = rows.flatMap((row) => raisedAlerts(row, now));
    await insertPendingEvents(tx, timers, [...retries, ...alerts], now);
    return recorded.map((row) => row.id);
  });
}
