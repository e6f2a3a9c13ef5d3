export {
  createClient,
  type CronsResource,
  type DestinationsResource,
  type EventsResource,
  type WebhookSchedulerClient,
} from './client.js';
export type {
  AlertMessage,
  AlertType,
  BackoffType,
  CircuitClosedAlert,
  CircuitClosedAlertData,
  CircuitOpenedAlert,
  CircuitOpenedAlertData,
  Cron,
  CronInput,
  CronListQuery,
  CronPatch,
  CronPausedAlert,
  CronPausedAlertData,
  CronRunStatus,
  CircuitState,
  Destination,
  DestinationListQuery,
  DestinationPatch,
  DestinationRateLimit,
  ErrorCode,
  Event,
  EventFailedAlert,
  EventFailedAlertData,
  EventInput,
  EventListQuery,
  EventReplayFilter,
  EventReplayResult,
  EventStatus,
  HttpMethod,
  JsonValue,
  Pagination,
  PausedReason,
  RateLimitPer,
  RetryConfig,
  RetryConfigInput,
  ValidationIssue,
} from './contract-types.js';
export { NetworkError, isNetworkError } from './errors/network-error.js';
export { QuotaExceededError, isQuotaExceededError, type QuotaName } from './errors/quota-exceeded-error.js';
export { RateLimitedError, isRateLimitedError } from './errors/rate-limited-error.js';
export { TimeoutError, isTimeoutError } from './errors/timeout-error.js';
export {
  WebhookSchedulerError,
  isWebhookSchedulerError,
  type WebhookSchedulerErrorInit,
} from './errors/webhook-scheduler-error.js';
export {
  WebhookVerificationError,
  isWebhookVerificationError,
  type WebhookVerificationFailure,
} from './errors/webhook-verification-error.js';
export type { Page } from './paginate.js';
export type { DeleteResult, Resource } from './resource.js';
export type { RetryOptions } from './retry-policy.js';
export type { ClientOptions, CreateOptions, RequestOptions } from './transport.js';
export {
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  type WebhookHeaders,
  verifyWebhook,
} from './webhooks/verify-webhook.js';
