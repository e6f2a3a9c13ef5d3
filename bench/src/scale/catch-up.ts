// The `catch-up` scenario of bench/scale: the only scheduler stopped for STOP_MS with the crons active
// and events falling due, then started again beside punctual events due from that moment (issue 25:
// occurrences within MISSED_EVENT_TOLERANCE delivered, those past it failed as missed, none twice, no
// back-fill, and the punctual events' lateness p99 ≤ 50 ms while the backlog drains).
import type pg from 'pg';
import { waitFor } from '../processes.ts';
import type { ServiceProcess } from './services.ts';
import { createThroughApi, eventInput, receiverUrl, skewedTeam } from './workload.ts';

export const STOP_MS = Number(process.env.SCALE_CATCHUP_STOP_S ?? 600) * 1000;
/** Half the stop: the first half's events end missed, the second half's are delivered late. */
export const TOLERANCE_S = Number(process.env.SCALE_CATCHUP_TOLERANCE_S ?? STOP_MS / 2000);
const BACKLOG_RATE = Number(process.env.SCALE_BACKLOG_RATE ?? 100);

/** The backlog: BACKLOG_RATE events a second due over the stop, from the teams in the seed's mix. */
export function backlogEvents(stopAt: number) {
  return Array.from({ length: Math.round((BACKLOG_RATE * STOP_MS) / 1000) }, (_, i) => ({
    team: skewedTeam(),
    input: eventInput(receiverUrl(i, `backlog/${i}`), new Date(stopAt + (i * 1000) / BACKLOG_RATE)),
  }));
}

/**
 * How long the backlog's creation may take before the scheduler stops: 60 s was too short for its
 * 60,000 events on a machine half as fast (the first batches came due before they were created).
 */
const CREATE_MS = 120_000;

/**
 * Creates the backlog (due from a minute on), stops the scheduler (`services[1]`, SIGTERM: a stop
 * for maintenance) as the first of it falls due, and says when to start it again.
 */
export async function stopTheScheduler(base: string, services: ServiceProcess[]): Promise<Window> {
  const stopAt = Date.now() + CREATE_MS;
  await createThroughApi(base, backlogEvents(stopAt));
  if (Date.now() > stopAt) console.error('[scale] !! the backlog was not all created before it fell due');
  await waitFor(() => (Date.now() >= stopAt ? true : undefined), 'the stop', CREATE_MS * 2);
  await services[1]?.running.stop();
  return { stopAt: new Date(stopAt), stoppedAt: new Date(), restartAt: new Date(stopAt + STOP_MS) };
}

interface Window {
  stopAt: Date;
  /** When the stopped scheduler had exited: a cron occurrence created after it is a back-fill. */
  stoppedAt: Date;
  restartAt: Date;
}

/** The events due while no scheduler ran: the backlog and the crons' occurrences made before the stop. */
const IN_WINDOW = `retry_of is null and scheduled_at >= $1 and scheduled_at < $2
  and (webhook_url like '%/backlog/%' or (cron_id is not null and not triggered))`;

/**
 * Each event due while no scheduler ran, by kind, by where its time fell against the tolerance when
 * the restarted scheduler began to serve, and by how it ended; with the events that ended otherwise
 * than they should and the occurrences created for the window after the stop (back-fills).
 */
export async function catchUpOutcomes(db: pg.Client, window: Window) {
  // The restarted scheduler's registration: no other scheduler lived, so service began then.
  const served = await db.query<{ since: Date }>(
    'select max(served_since) as since from scheduler_processes',
  );
  const servedSince = served.rows[0]?.since ?? window.restartAt;
  const edge = new Date(servedSince.getTime() - TOLERANCE_S * 1000);
  const { rows } = await db.query<{ kind: string; due: string; outcome: string; n: string }>(
    `select case when webhook_url like '%/backlog/%' then 'backlog' else 'cron' end as kind,
            case when scheduled_at < $3 then 'past tolerance' else 'within tolerance' end as due,
            case when status = 'success' and executed_at <= $4 then 'delivered before the stop'
                 when status = 'success' then 'delivered'
                 when status = 'failed' and response_error like 'missed:%' then 'missed'
                 else status end as outcome,
            count(*) as n
     from events where ${IN_WINDOW}
     group by 1, 2, 3 order by 1, 2, 3`,
    [window.stopAt, window.restartAt, edge, window.stoppedAt],
  );
  const outcomes = rows.map((row) => ({ ...row, n: Number(row.n) }));
  const wrong = outcomes
    .filter(({ outcome }) => outcome !== 'delivered before the stop')
    .filter(
      ({ due, outcome }) =>
        (due === 'past tolerance' && outcome !== 'missed') ||
        (due === 'within tolerance' && outcome !== 'delivered'),
    )
    .reduce((sum, row) => sum + row.n, 0);
  const backfilled = await db.query<{ n: string }>(
    `select count(*) as n from events
     where cron_id is not null and retry_of is null and not triggered
       and scheduled_at >= $1 and scheduled_at < $2 and created_at > $3`,
    [window.stopAt, window.restartAt, window.stoppedAt],
  );
  const drained = await db.query<{ last: Date | null }>(
    `select max(executed_at) as last from events where ${IN_WINDOW}`,
    [window.stopAt, window.restartAt],
  );
  return {
    stopS: STOP_MS / 1000,
    toleranceS: TOLERANCE_S,
    servedSince,
    outcomes,
    endedWrongly: wrong,
    backfilledOccurrences: Number(backfilled.rows[0]?.n ?? 0),
    lastEndedAt: drained.rows[0]?.last ?? null,
  };
}

/** Whether an event of the window is still waiting (pending or in a call). */
export async function windowWaiting(db: pg.Client, window: Pick<Window, 'stopAt' | 'restartAt'>) {
  const { rows } = await db.query<{ n: string }>(
    `select count(*) as n from events where ${IN_WINDOW} and status in ('pending', 'processing')`,
    [window.stopAt, window.restartAt],
  );
  return Number(rows[0]?.n ?? 0);
}
