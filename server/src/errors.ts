import type { DashboardErrorBody, DashboardErrorCode, ValidationIssue } from '@webhook-scheduler/contract';

type Details = ValidationIssue[] | Record<string, unknown>;

/**
 * An error the API answers with its own status and code. FORBIDDEN, CONFLICT and
 * TOO_MANY_REQUESTS come from the dashboard routes only.
 */
export class AppError extends Error {
  constructor(
    readonly code: DashboardErrorCode,
    message: string,
    readonly details?: Details,
    readonly status: number = statusFor(code),
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): DashboardErrorBody {
    return {
      error: { message: this.message, code: this.code, ...(this.details ? { details: this.details } : {}) },
    };
  }
}

/** 404 for an unknown id, another team's resource or a deleted one. */
export class NotFoundError extends AppError {
  constructor(
    resource: 'Cron' | 'Event' | 'Route' | 'Team' | 'API key' | 'Member' | 'Invite' | 'Destination',
  ) {
    super('NOT_FOUND', `${resource} not found`);
  }
}

/** 400 for a business-rule violation. */
export class BadRequestError extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('BAD_REQUEST', message, details);
  }
}

/** 400 for invalid input, naming each offending field. */
export class ValidationError extends AppError {
  constructor(issues: ValidationIssue[], status?: number) {
    super('VALIDATION_ERROR', validationMessage(issues), issues, status);
  }
}

function validationMessage(issues: ValidationIssue[]): string {
  const [first] = issues;
  if (!first) return 'Validation failed';
  const where = first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `Validation failed: ${where}${first.message}${more}`;
}

/** 403 for an action the caller's role does not allow. */
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super('FORBIDDEN', message);
  }
}

/** 409 for a resource that already exists. */
export class ConflictError extends AppError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

/** 429 for an attempt over a rate limit; `retryAfterS` goes in the Retry-After header. */
export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super('TOO_MANY_REQUESTS', message);
  }
}

/** 403 for a create that would take a team quota past its limit. */
export class QuotaExceededError extends AppError {
  constructor(message: string, details: { quota: string; limit: number; current: number }) {
    super('QUOTA_EXCEEDED', message, details);
  }
}

/** 429 for a request over its key's (or session's) rate limit; `retryAfterS` goes in Retry-After. */
export class RateLimitedError extends AppError {
  constructor(readonly retryAfterS: number) {
    super(
      'RATE_LIMITED',
      `Rate limit exceeded: retry in ${retryAfterS} second${retryAfterS === 1 ? '' : 's'}`,
    );
  }
}

/** The HTTP status of each error code. */
export function statusFor(code: DashboardErrorCode): number {
  switch (code) {
    case 'UNAUTHORIZED':
      return 401;
    case 'FORBIDDEN':
    case 'QUOTA_EXCEEDED':
      return 403;
    case 'CONFLICT':
    case 'IDEMPOTENCY_KEY_IN_USE':
      return 409;
    case 'IDEMPOTENCY_KEY_MISMATCH':
      return 422;
    case 'TOO_MANY_REQUESTS':
    case 'RATE_LIMITED':
      return 429;
    case 'NOT_FOUND':
      return 404;
    case 'VALIDATION_ERROR':
    case 'BAD_REQUEST':
      return 400;
    case 'INTERNAL_SERVER_ERROR':
      return 500;
  }
}
