import type { DashboardErrorBody } from '@webhook-scheduler/contract';
import { isNetworkError, isTimeoutError, isWebhookSchedulerError } from '@webhook-scheduler/sdk';

/** Any failed call, as the pages show it: a message, and per-field messages for validation errors. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** Field messages keyed by path (`webhook_url`, `retry_config.maxRetries`); `''` for the body. */
    readonly fields: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Fired when a call answers 401: the session ended or the team is no longer the user's. */
export const UNAUTHORIZED_EVENT = 'dashboard:unauthorized';

function fieldsOf(details: unknown): Record<string, string> {
  if (!Array.isArray(details)) return {};
  const fields: Record<string, string> = {};
  for (const issue of details as { path?: unknown; message?: unknown }[]) {
    const path = Array.isArray(issue.path) ? issue.path.join('.') : '';
    if (typeof issue.message === 'string') fields[path] ??= issue.message;
  }
  return fields;
}

function signal(error: ApiError): ApiError {
  if (error.status === 401) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  return error;
}

/** The error of a dashboard route's response. */
export function fromErrorResponse(status: number, body: unknown): ApiError {
  const error = (body as Partial<DashboardErrorBody> | undefined)?.error;
  if (!error) return new ApiError(`The service answered ${status}.`, status, 'INTERNAL_SERVER_ERROR');
  return new ApiError(error.message, status, error.code, fieldsOf(error.details));
}

/** Whatever a call threw, as an ApiError; a 401 also tells the app to check the session. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return signal(error);
  if (isWebhookSchedulerError(error)) {
    return signal(new ApiError(error.message, error.status, error.code, fieldsOf(error.details)));
  }
  if (isTimeoutError(error)) return new ApiError('The service took too long to answer.', 0, 'TIMEOUT');
  if (isNetworkError(error) || error instanceof TypeError) {
    return new ApiError('Cannot reach the service. Is it running?', 0, 'NETWORK');
  }
  return new ApiError(error instanceof Error ? error.message : 'Something went wrong.', 0, 'UNKNOWN');
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The API's message for the field at `path`, as a form shows it under the field's label: without
 * the field's API name it starts with (`webhook_url is not a valid URL` → `Not a valid URL`).
 */
export function plainFieldMessage(path: string, message: string): string {
  const name = path.split('.').at(-1) ?? '';
  if (name === '') return message;
  const spoken = name.replaceAll('_', ' ');
  const plain = message.replace(new RegExp(`^(${escaped(name)} (is )?|invalid ${escaped(spoken)}: )`), '');
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** The message of a field, or of the first problem under it (`retry_config` finds `retry_config.backoffMs`). */
export function fieldError(error: ApiError | undefined, field: string): string | undefined {
  if (!error) return undefined;
  const exact = error.fields[field];
  if (exact) return plainFieldMessage(field, exact);
  const nested = Object.keys(error.fields).find((path) => path.startsWith(`${field}.`));
  return nested === undefined
    ? undefined
    : `${nested.slice(field.length + 1)}: ${plainFieldMessage(nested, error.fields[nested] ?? '')}`;
}

/**
 * What the banner above a form says: the error itself, or, when fields are to blame, a pointer to
 * the fields marked below and the problems of any field the form does not show.
 */
export function formBanner(error: ApiError | undefined, shown: readonly string[]): ApiError | undefined {
  if (!error) return undefined;
  const paths = Object.keys(error.fields);
  if (paths.length === 0) return error;
  const unshown = paths.filter((path) => !shown.includes(path.split('.')[0] ?? ''));
  const message =
    unshown.length === 0
      ? 'Fix the fields marked below.'
      : unshown.map((path) => (path ? `${path}: ` : '') + (error.fields[path] ?? '')).join('; ');
  return new ApiError(message, error.status, error.code, error.fields);
}

/** Whether the error says the resource does not exist: a 404, or an id the API refuses outright. */
export function isNotFound(error: ApiError | undefined): boolean {
  if (!error) return false;
  return error.status === 404 || (error.code === 'VALIDATION_ERROR' && 'id' in error.fields);
}
