import { AlertMessage } from '@webhook-scheduler/contract';
import { expect } from 'vitest';

/**
 * An alert message as sent (its JSON text, or as parsed), checked against its contract schema: every field the schema has, of its
 * type, and no field it lacks (zod drops those, so the parsed message would differ from the sent one).
 */
export function expectAlertMessage(sent: unknown): AlertMessage {
  const message: unknown = typeof sent === 'string' ? JSON.parse(sent) : sent;
  const parsed = AlertMessage.safeParse(message);
  expect(parsed.error?.issues, JSON.stringify(message)).toBeUndefined();
  expect(parsed.data).toEqual(message);
  return parsed.data as AlertMessage;
}
