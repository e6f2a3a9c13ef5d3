import type { EntityManager } from '@mikro-orm/postgresql';
import type { Timers } from '@webhook-scheduler/scheduler';
import { type RaisedAlert, alertEvent } from '../events/store/alert-events.js';
import { insertPendingEvents } from '../events/store/pending-events.js';
import { getAlertUrl } from '../teams/team-alerts.service.js';
import type { CircuitChange } from './store/destination-calls.js';

/**
 * Tells each team whose circuit to an origin opened or closed (`destination.circuit_opened`,
 * `destination.circuit_closed`), at its alert URL.
 */
export async function sendCircuitAlerts(
  em: EntityManager,
  timers: Timers,
  changes: CircuitChange[],
  now: Date,
): Promise<void> {
  const alerts = [];
  for (const change of changes) {
    const alert: RaisedAlert =
      change.transition === 'opened'
        ? {
            type: 'destination.circuit_opened',
            data: {
              origin: change.origin,
              consecutive_failures: change.health.consecutiveFailures,
              open_until: change.health.openUntil?.toISOString() ?? null,
            },
          }
        : { type: 'destination.circuit_closed', data: { origin: change.origin } };
    const url = await getAlertUrl(em, change.teamId).catch(() => null);
    alerts.push(...alertEvent(change.teamId, url, alert, now));
  }
  await insertPendingEvents(em, timers, alerts, now);
}
