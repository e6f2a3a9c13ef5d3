import { z } from 'zod';
import { PausedReason } from './crons.js';
import { Timestamp, Uuid } from './common.js';

/**
 * The messages a team's alert URL receives (docs/reference/behaviour.md#alerts): each a signed JSON
 * `POST`, with the Standard Webhooks headers of the team's webhooks, of the shape
 * `{ type, created_at, data }`. Receivers should accept fields added later.
 */

/** What every alert message has around its `data`. */
function alertMessage<Type extends string, Data extends z.ZodRawShape>(
  type: Type,
  data: z.ZodObject<Data>,
  description: string,
) {
  return z
    .object({
      type: z.literal(type).describe('What happened; one name per message shape.'),
      created_at: Timestamp.describe('When the service raised the alert.'),
      data,
    })
    .describe(description);
}

/** The origin (scheme, host and port) a circuit alert is about. */
const CircuitOrigin = z.string().describe('The origin (scheme, host and port) the circuit is about.');

/** What `event.failed` says: the event whose final attempt failed. */
export const EventFailedAlertData = z.object({
  event_id: Uuid.describe('The original event of the delivery that failed.'),
  cron_id: Uuid.nullable().describe(
    'The cron that made the event; null for an event created through the API.',
  ),
  webhook_url: z.string().describe('Where the event was sent.'),
  scheduled_at: Timestamp.describe('When the event was due.'),
  response_status: z
    .number()
    .int()
    .nullable()
    .describe('The final attempt’s HTTP status; null when it got no response.'),
  response_error: z.string().nullable().describe('Why the final attempt failed.'),
});
/** What `event.failed` says. */
export type EventFailedAlertData = z.infer<typeof EventFailedAlertData>;

/** Sent once per event when its final attempt failed (never about an alert). */
export const EventFailedAlert = alertMessage(
  'event.failed',
  EventFailedAlertData,
  'An event’s final attempt failed: no retry is left.',
);
/** Sent once per event when its final attempt failed. */
export type EventFailedAlert = z.infer<typeof EventFailedAlert>;

/** What `cron.paused` says: the cron the service deactivated after failed occurrences. */
export const CronPausedAlertData = z.object({
  cron_id: Uuid,
  webhook_url: z.string().describe('Where the cron’s events are sent.'),
  consecutive_failures: z.number().int().describe('The failed occurrences in a row that paused it.'),
  paused_reason: PausedReason,
});
/** What `cron.paused` says. */
export type CronPausedAlertData = z.infer<typeof CronPausedAlertData>;

/** Sent when a cron reached its `pause_after_failures` and the service deactivated it. */
export const CronPausedAlert = alertMessage(
  'cron.paused',
  CronPausedAlertData,
  'A cron failed pause_after_failures occurrences in a row and was deactivated.',
);
/** Sent when a cron reached its `pause_after_failures`. */
export type CronPausedAlert = z.infer<typeof CronPausedAlert>;

/** What `destination.circuit_opened` says: the origin no call of the team starts to for now. */
export const CircuitOpenedAlertData = z.object({
  origin: CircuitOrigin,
  consecutive_failures: z.number().int().describe('Calls in a row that got no response or a 5xx.'),
  open_until: Timestamp.nullable().describe('When one call will probe the origin again.'),
});
/** What `destination.circuit_opened` says. */
export type CircuitOpenedAlertData = z.infer<typeof CircuitOpenedAlertData>;

/** Sent when the team's calls to an origin failed enough times in a row to stop calling it for a while. */
export const CircuitOpenedAlert = alertMessage(
  'destination.circuit_opened',
  CircuitOpenedAlertData,
  'The circuit to an origin opened: the team’s events to it wait pending until a probe succeeds.',
);
/** Sent when the circuit to an origin opened. */
export type CircuitOpenedAlert = z.infer<typeof CircuitOpenedAlert>;

/** What `destination.circuit_closed` says: the origin calls go to again. */
export const CircuitClosedAlertData = z.object({
  origin: CircuitOrigin,
});
/** What `destination.circuit_closed` says. */
export type CircuitClosedAlertData = z.infer<typeof CircuitClosedAlertData>;

/** Sent when a probe of an origin whose circuit was open succeeded. */
export const CircuitClosedAlert = alertMessage(
  'destination.circuit_closed',
  CircuitClosedAlertData,
  'The circuit to an origin closed: a probe succeeded and its waiting events are sent again.',
);
/** Sent when the circuit to an origin closed. */
export type CircuitClosedAlert = z.infer<typeof CircuitClosedAlert>;

/** Any message a team's alert URL receives, told apart by `type`. */
export const AlertMessage = z.discriminatedUnion('type', [
  EventFailedAlert,
  CronPausedAlert,
  CircuitOpenedAlert,
  CircuitClosedAlert,
]);
/** Any message a team's alert URL receives. */
export type AlertMessage = z.infer<typeof AlertMessage>;
/** The `type` of an alert message. */
export type AlertType = AlertMessage['type'];
