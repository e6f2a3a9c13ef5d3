import type { ErrorCode, ValidationIssue } from '../contract-types.js';
import { brand, hasBrand } from './brand.js';

const BRAND = Symbol.for('@webhook-scheduler/sdk.WebhookSchedulerError');

/** What the API said about a failed request. */
export interface WebhookSchedulerErrorInit {
  /** The HTTP status of the response. */
  status: number;
  /** The machine-readable error code. */
  code: ErrorCode;
  /** The human-readable explanation. */
  message: string;
  /** Field problems for `VALIDATION_ERROR`; an object such as `{ currentStatus }` for `BAD_REQUEST`. */
  details?: ValidationIssue[] | Record<string, unknown> | undefined;
  /** The `x-request-id` response header, to quote when reporting a problem. */
  requestId?: string | undefined;
}

/**
 * The API answered with an error status (400, 401, 404, 413, 429, 5xx…).
 *
 * `code` is always one of the API's error codes. When the body is not the API's error shape (a
 * proxy's HTML page, say), the code is derived from the status: 401 `UNAUTHORIZED`, 404 `NOT_FOUND`,
 * 413 `VALIDATION_ERROR`, another 4xx `BAD_REQUEST`, and anything else `INTERNAL_SERVER_ERROR`.
 */
export class WebhookSchedulerError extends Error {
  /** The HTTP status of the response. */
  readonly status: number;
  /** The machine-readable error code. */
  readonly code: ErrorCode;
  /** Field problems for `VALIDATION_ERROR`; an object such as `{ currentStatus }` for `BAD_REQUEST`. */
  readonly details: ValidationIssue[] | Record<string, unknown> | undefined;
  /** The `x-request-id` response header, to quote when reporting a problem. */
  readonly requestId: string | undefined;

  constructor(init: WebhookSchedulerErrorInit) {
    super(init.message);
    this.name = 'WebhookSchedulerError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    brand(this, BRAND);
  }
}

/** Whether `value` is a {@link WebhookSchedulerError}, from any realm or copy of the SDK. */
export function isWebhookSchedulerError(value: unknown): value is WebhookSchedulerError {
  return hasBrand(value, BRAND);
}
