import {
  Cron,
  DashboardErrorBody,
  type DashboardErrorCode,
  DeleteResult,
  ErrorBody,
  ErrorCode,
  Event,
  dataOf,
  pageOf,
} from '@webhook-scheduler/contract';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ApiResponse } from './harness.js';

/** An id the service makes for an event: a UUID of version 7 (docs/guides/concepts.md). */
export const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * The contract's response schemas, made strict so that a field the contract does not declare
 * (say an internal lease column) fails the test instead of slipping through.
 */
export const bodies = {
  cron: dataOf(Cron.strict()).strict(),
  cronPage: pageOf(Cron.strict()).strict(),
  event: dataOf(Event.strict()).strict(),
  eventPage: pageOf(Event.strict()).strict(),
  deleted: DeleteResult.strict(),
  error: z.object({ error: ErrorBody.shape.error.strict() }).strict(),
  dashboardError: z.object({ error: DashboardErrorBody.shape.error.strict() }).strict(),
};

function failWith(response: ApiResponse, expected: string): never {
  return expect.fail(`expected ${expected}, got ${response.status}: ${response.text.slice(0, 1000)}`);
}

function parse<T extends z.ZodTypeAny>(response: ApiResponse, schema: T): z.output<T> {
  // Every response carries its request id, so each asserted response checks it in passing.
  expect(response.headers.get('x-request-id'), 'x-request-id header').toBeTruthy();
  const result = schema.safeParse(response.body);
  if (!result.success) {
    expect.fail(
      `body does not match the contract: ${JSON.stringify(result.error.issues)}\n${response.text.slice(0, 1000)}`,
    );
  }
  return result.data as z.output<T>;
}

/** Asserts the status and that the body parses with the contract's schema; returns the parsed body. */
export function expectBody<T extends z.ZodTypeAny>(
  response: ApiResponse,
  status: number,
  schema: T,
): z.output<T> {
  if (response.status !== status) failWith(response, String(status));
  return parse(response, schema);
}

/**
 * Asserts an error response: its status, its code, and the contract's ErrorBody shape. The API's
 * five codes are checked against the API's own schema, so an /api/v1 route answering with a
 * dashboard-only code fails.
 */
export function expectError(
  response: ApiResponse,
  status: number,
  code: DashboardErrorCode,
): z.output<typeof bodies.dashboardError>['error'] {
  if (response.status !== status) failWith(response, `${status} ${code}`);
  const schema = ErrorCode.safeParse(code).success ? bodies.error : bodies.dashboardError;
  const { error } = parse(response, schema);
  expect(error.code).toBe(code);
  return error;
}

/** Asserts a 400 VALIDATION_ERROR and returns its issues. */
export function expectValidationError(response: ApiResponse) {
  const error = expectError(response, 400, 'VALIDATION_ERROR');
  expect(Array.isArray(error.details), 'details is an array of { path, message }').toBe(true);
  return error.details as { path: (string | number)[]; message: string }[];
}
