import type { AlertMessage, AlertType } from '../contract-types.js';

// Every alert type of the contract, and no other: the compiler fails when the contract changes them.
const ALERT_TYPES = {
  'event.failed': true,
  'cron.paused': true,
  'destination.circuit_opened': true,
  'destination.circuit_closed': true,
} as const satisfies Record<AlertType, true>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A webhook body read as an alert message: `{ type, created_at, data }` with a `type` the service
 * sends alerts of. Only the envelope is checked (the SDK carries no schemas at run time); anything
 * else is null. A webhook's own payload could look the same: alerts are what the alert URL receives.
 */
export function alertMessageOf(body: Uint8Array): AlertMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return null;
  }
  if (!isObject(value) || typeof value.type !== 'string' || !Object.hasOwn(ALERT_TYPES, value.type))
    return null;
  if (typeof value.created_at !== 'string' || !isObject(value.data)) return null;
  // The envelope is checked; the data is the contract's for that type.
  return value as unknown as AlertMessage;
}
