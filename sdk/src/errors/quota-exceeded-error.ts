import { brand, hasBrand } from './brand.js';
import { WebhookSchedulerError, type WebhookSchedulerErrorInit } from './webhook-scheduler-error.js';

const BRAND = Symbol.for('@webhook-scheduler/sdk.QuotaExceededError');

/**
 * A team quota: its active crons, its pending events created through the API, or the bytes of
 * their payloads and headers.
 */
export type QuotaName = 'active_crons' | 'pending_events' | 'pending_bytes';

/**
 * The API answered 403 `QUOTA_EXCEEDED`: the create would take a team quota past its limit, and
 * nothing was created. Waiting does not help until the team's usage goes down (events are sent,
 * crons are deleted or switched off) or an operator raises the limit.
 */
export class QuotaExceededError extends WebhookSchedulerError {
  /** Which quota is used up. */
  readonly quota: QuotaName | undefined;
  /** The team's limit for it. */
  readonly limit: number | undefined;
  /** How much of it the team uses now. */
  readonly current: number | undefined;

  constructor(init: WebhookSchedulerErrorInit) {
    super(init);
    this.name = 'QuotaExceededError';
    const details = Array.isArray(init.details) ? undefined : init.details;
    this.quota = isQuotaName(details?.quota) ? details.quota : undefined;
    this.limit = typeof details?.limit === 'number' ? details.limit : undefined;
    this.current = typeof details?.current === 'number' ? details.current : undefined;
    brand(this, BRAND);
  }
}

function isQuotaName(value: unknown): value is QuotaName {
  return value === 'active_crons' || value === 'pending_events' || value === 'pending_bytes';
}

/** Whether `value` is a {@link QuotaExceededError}, from any realm or copy of the SDK. */
export function isQuotaExceededError(value: unknown): value is QuotaExceededError {
  return hasBrand(value, BRAND);
}
