import { z } from 'zod';

/**
 * The quotas a create can use up: refused with 403 `QUOTA_EXCEEDED` when full. A team's
 * `active_crons`, `pending_events`, `pending_bytes` and `api_keys` (active ones) and its
 * `pending_invites`; a user's `teams` (how many they belong to). Only the first three are answered
 * by `/api/v1`.
 */
export const QuotaName = z.enum([
  'active_crons',
  'pending_events',
  'pending_bytes',
  'api_keys',
  'pending_invites',
  'teams',
]);
/** A team quota. */
export type QuotaName = z.infer<typeof QuotaName>;

/** The `details` of a 403 `QUOTA_EXCEEDED`: which quota, its limit, and how much of it is used. */
export const QuotaExceededDetails = z.object({
  quota: QuotaName,
  limit: z.number().int().describe('The team’s limit for this quota.'),
  current: z.number().int().describe('How much of the quota the team uses now.'),
});
/** The `details` of a 403 `QUOTA_EXCEEDED`. */
export type QuotaExceededDetails = z.infer<typeof QuotaExceededDetails>;

/**
 * The response headers of rate limiting (IETF "RateLimit header fields for HTTP" draft): every
 * `/api/v1` response of an authenticated caller carries the first three; a 429 `RATE_LIMITED` also
 * carries `Retry-After`.
 */
export const RATE_LIMIT_HEADERS = {
  /** Requests per second the key may make (its burst may go above it for a moment). */
  limit: 'ratelimit-limit',
  /** Requests the key may still make right now. */
  remaining: 'ratelimit-remaining',
  /** Seconds until the key's allowance is full again. */
  reset: 'ratelimit-reset',
  /** Seconds to wait before the next request (on a 429 only). */
  retryAfter: 'retry-after',
} as const;

/** The limits that apply to one team: the service's defaults, or the team's own overrides. */
export const TeamLimits = z.object({
  max_payload_bytes: z.number().int().describe('Largest `payload`, as compact JSON, in bytes.'),
  max_headers_bytes: z
    .number()
    .int()
    .describe('Largest total of all custom `headers` (names and values), in bytes.'),
  max_active_crons: z.number().int().describe('Most active crons of the team.'),
  max_pending_events: z
    .number()
    .int()
    .describe(
      'Most pending events the team created itself at once (creates, batches, replays and manual runs of crons, with their retries; not the events a cron makes on its schedule).',
    ),
  max_pending_bytes: z
    .number()
    .int()
    .describe(
      'Most bytes of payload (as compact JSON) and custom headers (names and values) in those pending events together.',
    ),
  min_cron_interval_ms: z.number().int().describe('Shortest time between two occurrences of a cron.'),
  requests_per_second: z.number().int().describe('API requests per second, per key or dashboard session.'),
  request_burst: z.number().int().describe('Requests a key may make at once after being idle.'),
  event_retention_ms: z
    .number()
    .int()
    .describe('How long finished events are kept, in milliseconds; 0 keeps them forever.'),
  max_api_keys: z.number().int().describe('Most active (neither revoked nor expired) API keys of the team.'),
});
/** The limits that apply to one team. */
export type TeamLimits = z.infer<typeof TeamLimits>;

/** What a team uses now of its quotas. */
export const TeamUsage = z.object({
  active_crons: z.number().int(),
  pending_events: z
    .number()
    .int()
    .describe(
      'Pending events the team created itself (creates, batches, replays, manual runs), retries included.',
    ),
  pending_bytes: z
    .number()
    .int()
    .describe(
      'Bytes of payload and custom headers of those pending events, as counted by max_pending_bytes.',
    ),
  api_keys: z.number().int().describe('Active API keys: neither revoked nor expired.'),
});
/** What a team uses now of its quotas. */
export type TeamUsage = z.infer<typeof TeamUsage>;
