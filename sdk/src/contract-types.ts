// Generated from @webhook-scheduler/contract by sdk/scripts/contract-types.ts: do not edit.
// Run `npm run generate -w sdk` after changing the contract.

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One of the machine-readable error codes of the API. */
export type ErrorCode =
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'VALIDATION_ERROR'
  | 'BAD_REQUEST'
  | 'INTERNAL_SERVER_ERROR'
  | 'QUOTA_EXCEEDED'
  | 'RATE_LIMITED'
  | 'IDEMPOTENCY_KEY_MISMATCH'
  | 'IDEMPOTENCY_KEY_IN_USE';

/** One field problem of a `VALIDATION_ERROR`. */
export interface ValidationIssue {
  /** Path to the offending field, e.g. ["retry_config", "maxRetries"]. */
  path: (string | number)[];
  message: string;
}

/** An HTTP method a webhook can be sent with. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** The state of an event: `pending → processing → success | failed`. */
export type EventStatus = 'failed' | 'pending' | 'success' | 'processing';

/** How the delay grows from one retry to the next. */
export type BackoffType = 'exponential' | 'linear';

/** How failed webhook calls are retried, as the API returns it. */
export interface RetryConfig {
  /** How many retries after the first attempt fails (1–10). */
  maxRetries: number;
  /** Base delay in milliseconds (100–5000). */
  backoffMs: number;
  /** Retry n waits backoffMs × n (linear) or backoffMs × 2^(n−1) (exponential). */
  backoffType: BackoffType;
}

/** How failed webhook calls are retried, as sent: `backoffType` defaults to `exponential`. */
export interface RetryConfigInput {
  /** How many retries after the first attempt fails (1–10). */
  maxRetries: number;
  /** Base delay in milliseconds (100–5000). */
  backoffMs: number;
  /** Retry n waits backoffMs × n (linear) or backoffMs × 2^(n−1) (exponential). */
  backoffType?: BackoffType | undefined;
}

/** Where a page sits in a list. */
export interface Pagination {
  /** 0-indexed page number. */
  page: number;
  limit: number;
  /** Items across all pages. */
  total: number;
}

/** How an occurrence of a cron ended. */
export type CronRunStatus = 'failed' | 'success';

/** Why the service paused a cron. */
export type PausedReason = 'failures';

/** A recurring webhook. */
export interface Cron {
  id: string;
  /** 5 fields, or 6 with a leading seconds field; or a nickname such as @hourly. */
  cron_expression: string;
  /** IANA time zone the schedule is read in; null means UTC. */
  timezone: string | null;
  webhook_url: string;
  method: HttpMethod;
  headers: Record<string, string> | null;
  payload: JsonValue;
  retry_config: RetryConfig | null;
  /** Deadline of each attempt in milliseconds; null: the service’s WEBHOOK_TIMEOUT_MS. */
  timeout_ms: number | null;
  is_active: boolean;
  /** ISO 8601 timestamp with Z or an offset. */
  created_at: string;
  /** ISO 8601 timestamp with Z or an offset. */
  updated_at: string;
  team_id: string;
  /** After this many failed occurrences in a row the cron is paused; null never pauses it. */
  pause_after_failures: number | null;
  /** The next occurrence of the schedule; null when inactive. */
  next_run_at: string | null;
  /** When the last finished occurrence was last attempted. */
  last_run_at: string | null;
  /** How the last finished occurrence ended; null before any. */
  last_status: CronRunStatus | null;
  /** Failed occurrences since the last successful one (an occurrence fails when its final attempt fails). */
  consecutive_failures: number;
  /** Why the service paused the cron: "failures" after pause_after_failures failed occurrences; null otherwise. Setting is_active to true clears it. */
  paused_reason: PausedReason | null;
}

/** The body of `crons.create` and `crons.update`. `update` replaces the whole cron: omitted fields take their defaults. */
export interface CronInput {
  /** Absolute http(s) URL the webhook is sent to. */
  webhook_url: string;
  /** Standard 5-field cron, or 6 fields with a leading seconds field. Ranges, lists, steps, names (MON, JAN), L, W, # and @yearly @annually @monthly @weekly @daily @midnight @hourly. */
  cron_expression: string;
  method?: HttpMethod | undefined;
  /** IANA time zone name (a different letter case is corrected: europe/paris → Europe/Paris); null means UTC. */
  timezone?: string | null | undefined;
  /** Custom headers sent with the webhook request (string values). */
  headers?: Record<string, string> | null | undefined;
  /** Any JSON value, sent as the webhook body; null (the default) sends none. It is stored exactly as sent, so these are refused with 400 VALIDATION_ERROR naming their path: a string or key containing U+0000 or an unpaired UTF-16 surrogate such as \ud800 (refused in every string of any request body), and a number that would not come back as sent — out of range (1e400), too small (1e-400) or more precise than a double (12345678901234567890; send such values as strings). */
  payload?: JsonValue | undefined;
  retry_config?: RetryConfigInput | null | undefined;
  /** Deadline of each attempt in milliseconds (connect, response headers and body), from 1000 to the service’s WEBHOOK_TIMEOUT_MS (30000 by default); null or omitted: WEBHOOK_TIMEOUT_MS. */
  timeout_ms?: number | null | undefined;
  is_active?: boolean | undefined;
  /** Pause the cron (is_active false, paused_reason "failures") after this many failed occurrences in a row, 1–1000; null (the default) never pauses it. */
  pause_after_failures?: number | null | undefined;
}

/** The body of `crons.patch`: any fields of `CronInput`; fields left out keep their value. */
export interface CronPatch {
  /** Absolute http(s) URL the webhook is sent to. */
  webhook_url?: string | undefined;
  /** Standard 5-field cron, or 6 fields with a leading seconds field. Ranges, lists, steps, names (MON, JAN), L, W, # and @yearly @annually @monthly @weekly @daily @midnight @hourly. */
  cron_expression?: string | undefined;
  method?: HttpMethod | undefined;
  /** IANA time zone name (a different letter case is corrected: europe/paris → Europe/Paris); null means UTC. */
  timezone?: string | null | undefined;
  /** Custom headers sent with the webhook request (string values). */
  headers?: Record<string, string> | null | undefined;
  /** Any JSON value, sent as the webhook body; null (the default) sends none. It is stored exactly as sent, so these are refused with 400 VALIDATION_ERROR naming their path: a string or key containing U+0000 or an unpaired UTF-16 surrogate such as \ud800 (refused in every string of any request body), and a number that would not come back as sent — out of range (1e400), too small (1e-400) or more precise than a double (12345678901234567890; send such values as strings). */
  payload?: JsonValue | undefined;
  retry_config?: RetryConfigInput | null | undefined;
  /** Deadline of each attempt in milliseconds (connect, response headers and body), from 1000 to the service’s WEBHOOK_TIMEOUT_MS (30000 by default); null or omitted: WEBHOOK_TIMEOUT_MS. */
  timeout_ms?: number | null | undefined;
  is_active?: boolean | undefined;
  /** Pause the cron (is_active false, paused_reason "failures") after this many failed occurrences in a row, 1–1000; null (the default) never pauses it. */
  pause_after_failures?: number | null | undefined;
}

/** Filters and paging of `crons.list`. */
export interface CronListQuery {
  /** 0-indexed page number. */
  page?: number;
  /** Items per page, 1–1000. */
  limit?: number;
  /** Only active (true) or inactive (false) crons. */
  is_active?: boolean | undefined;
}

/** One webhook call and, once made, its outcome. */
export interface Event {
  id: string;
  /** The cron that created this event; null when created through the API. */
  cron_id: string | null;
  /** The original event when this event is a retry attempt; null otherwise. */
  retry_of: string | null;
  /** The event this one replays (POST /events/{id}/replay); null otherwise. */
  replay_of: string | null;
  /** ISO 8601 timestamp with Z or an offset. */
  scheduled_at: string;
  /** When the call was made; null until executed. */
  executed_at: string | null;
  status: EventStatus;
  webhook_url: string;
  method: HttpMethod;
  headers: Record<string, string> | null;
  payload: JsonValue;
  retry_config: RetryConfig | null;
  /** Deadline of each attempt in milliseconds; null: the service’s WEBHOOK_TIMEOUT_MS. */
  timeout_ms: number | null;
  /** HTTP status of the response; null until executed or when no response came. */
  response_status: number | null;
  response_headers: Record<string, string> | null;
  /** First 1 KB of the response body. */
  response_body: string | null;
  /** Milliseconds from the start of the call to the end of the response. */
  response_duration: number | null;
  /** Why the call failed; null on success or before execution. */
  response_error: string | null;
  /** ISO 8601 timestamp with Z or an offset. */
  created_at: string;
  /** ISO 8601 timestamp with Z or an offset. */
  updated_at: string;
  team_id: string;
}

/** The body of `events.create` and `events.update`. `update` replaces the whole event: omitted fields take their defaults. */
export interface EventInput {
  /** Absolute http(s) URL the webhook is sent to. */
  webhook_url: string;
  /** When to call the webhook; must be in the future. */
  scheduled_at: string;
  method?: HttpMethod | undefined;
  /** Custom headers sent with the webhook request (string values). */
  headers?: Record<string, string> | null | undefined;
  /** Any JSON value, sent as the webhook body; null (the default) sends none. It is stored exactly as sent, so these are refused with 400 VALIDATION_ERROR naming their path: a string or key containing U+0000 or an unpaired UTF-16 surrogate such as \ud800 (refused in every string of any request body), and a number that would not come back as sent — out of range (1e400), too small (1e-400) or more precise than a double (12345678901234567890; send such values as strings). */
  payload?: JsonValue | undefined;
  retry_config?: RetryConfigInput | null | undefined;
  /** Deadline of each attempt in milliseconds (connect, response headers and body), from 1000 to the service’s WEBHOOK_TIMEOUT_MS (30000 by default); null or omitted: WEBHOOK_TIMEOUT_MS. */
  timeout_ms?: number | null | undefined;
}

/** Filters and paging of `events.list`. */
export interface EventListQuery {
  /** 0-indexed page number. */
  page?: number;
  /** Items per page, 1–1000. */
  limit?: number;
  /** Only events in this state. */
  status?: EventStatus | undefined;
  /** Only events created by this cron. */
  cron_id?: string | undefined;
  /** created_at (default) or -created_at: newest created first; scheduled_at: soonest due first; -scheduled_at: latest due first. */
  sort?: 'scheduled_at' | 'created_at' | '-created_at' | '-scheduled_at';
  /** Only events scheduled at or after this time (inclusive). */
  scheduled_after?: string | undefined;
  /** Only events scheduled before this time (exclusive). */
  scheduled_before?: string | undefined;
  /** Only events whose webhook_url contains this text, ignoring case. Its rows are read (no index): combine it with scheduled_after or cron_id on a large team. */
  url_contains?: string | undefined;
}

/** The body of `events.replayMany`: which finished events of the team to replay. */
export interface EventReplayFilter {
  /** Replay the deliveries that ended in this state (original events; their retry attempts are not replayed again). */
  status: CronRunStatus;
  /** Only events created by this cron. */
  cron_id?: string | undefined;
  /** Only events whose calls go to this origin (scheme, host and port, e.g. https://hooks.example.com), in any spelling of it. */
  destination?: string | undefined;
  /** Only events scheduled at or after this time (inclusive). */
  scheduled_after?: string | undefined;
  /** Only events scheduled before this time (exclusive). */
  scheduled_before?: string | undefined;
}

/** What `events.replayMany` resolves to: how many events were replayed and the first 100 new ones. */
export interface EventReplayResult {
  /** How many events were replayed: one new event for each match. */
  replayed: number;
  /** The first 100 new events, in the scheduled order of the events they replay. */
  data: Event[];
}

/** The window a destination’s rate limit counts calls in. */
export type RateLimitPer = 'hour' | 'minute' | 'second';

/** At most `requests` calls of the team start to the origin in any window of one `per`. */
export interface DestinationRateLimit {
  requests: number;
  per: RateLimitPer;
}

/** The state of a destination’s circuit breaker. */
export type CircuitState = 'closed' | 'open' | 'half_open';

/** An origin the team’s webhooks call: its health, its waiting and running calls, and the team’s settings for it. */
export interface Destination {
  /** Scheme, host and port the calls connect to, as the URL standard writes an origin (https://hooks.example.com, http://127.0.0.1:8080). */
  origin: string;
  /** The team’s events to this origin waiting to be sent. */
  pending: number;
  /** The team’s calls to this origin under way now. */
  in_flight: number;
  /** Calls the team made to this origin in the last 24 hours. */
  calls_24h: number;
  /** Of those, the calls that failed. */
  failures_24h: number;
  /** How the team’s last call to this origin ended; null before any. */
  last_status: CronRunStatus | null;
  /** The HTTP status of that call; null when no response arrived or before any call. */
  last_response_status: number | null;
  /** When the team’s last call to this origin started. */
  last_call_at: string | null;
  /** closed: calls go through. open: after repeated failures no call starts until open_until. half_open: one call probes the origin. */
  circuit: CircuitState;
  /** While the circuit is open: when one call will probe the origin. */
  open_until: string | null;
  /** When the origin answered 429 or 503 with Retry-After: no call of the team starts to it before this time. */
  retry_after_until: string | null;
  /** The team’s rate limit for this origin; null for none. */
  rate_limit: DestinationRateLimit | null;
  /** Most calls of the team to this origin at once; null for the service’s limit per origin. */
  max_in_flight: number | null;
  /** While true, no call of the team starts to this origin; its events wait. */
  paused: boolean;
}

/** The body of `destinations.patch`: fields left out keep their value, `null` clears one. */
export interface DestinationPatch {
  rate_limit?: DestinationRateLimit | null | undefined;
  /** Most calls at once, from 1 to the service’s limit per origin (DESTINATION_MAX_IN_FLIGHT). */
  max_in_flight?: number | null | undefined;
  /** Pause (true) or resume (false or null) the team’s calls. */
  paused?: boolean | null | undefined;
}

/** Order and paging of `destinations.list`. */
export interface DestinationListQuery {
  /** 0-indexed page number. */
  page?: number;
  /** Items per page, 1–1000. */
  limit?: number;
  /** -last_call_at (default: most recently called first) or origin. */
  sort?: 'origin' | '-last_call_at' | undefined;
}

/** What an `event.failed` alert says: the event whose final attempt failed. */
export interface EventFailedAlertData {
  /** The original event of the delivery that failed. */
  event_id: string;
  /** The cron that made the event; null for an event created through the API. */
  cron_id: string | null;
  /** Where the event was sent. */
  webhook_url: string;
  /** When the event was due. */
  scheduled_at: string;
  /** The final attempt’s HTTP status; null when it got no response. */
  response_status: number | null;
  /** Why the final attempt failed. */
  response_error: string | null;
}

/** The alert sent once per event whose final attempt failed. */
export interface EventFailedAlert {
  /** What happened; one name per message shape. */
  type: 'event.failed';
  /** When the service raised the alert. */
  created_at: string;
  data: EventFailedAlertData;
}

/** What a `cron.paused` alert says: the cron the service deactivated. */
export interface CronPausedAlertData {
  cron_id: string;
  /** Where the cron’s events are sent. */
  webhook_url: string;
  /** The failed occurrences in a row that paused it. */
  consecutive_failures: number;
  /** Why the service paused a cron: "failures" when pause_after_failures occurrences failed in a row. */
  paused_reason: PausedReason;
}

/** The alert sent when a cron reached its `pause_after_failures` and was deactivated. */
export interface CronPausedAlert {
  /** What happened; one name per message shape. */
  type: 'cron.paused';
  /** When the service raised the alert. */
  created_at: string;
  data: CronPausedAlertData;
}

/** What a `destination.circuit_opened` alert says. */
export interface CircuitOpenedAlertData {
  /** The origin (scheme, host and port) the circuit is about. */
  origin: string;
  /** Calls in a row that got no response or a 5xx. */
  consecutive_failures: number;
  /** When one call will probe the origin again. */
  open_until: string | null;
}

/** The alert sent when the circuit to an origin opened. */
export interface CircuitOpenedAlert {
  /** What happened; one name per message shape. */
  type: 'destination.circuit_opened';
  /** When the service raised the alert. */
  created_at: string;
  data: CircuitOpenedAlertData;
}

/** What a `destination.circuit_closed` alert says. */
export interface CircuitClosedAlertData {
  /** The origin (scheme, host and port) the circuit is about. */
  origin: string;
}

/** The alert sent when the circuit to an origin closed again. */
export interface CircuitClosedAlert {
  /** What happened; one name per message shape. */
  type: 'destination.circuit_closed';
  /** When the service raised the alert. */
  created_at: string;
  data: CircuitClosedAlertData;
}

/** Any message a team’s alert URL receives, told apart by `type`. */
export type AlertMessage = EventFailedAlert | CronPausedAlert | CircuitOpenedAlert | CircuitClosedAlert;

/** The `type` of an alert message. */
export type AlertType =
  'event.failed' | 'cron.paused' | 'destination.circuit_opened' | 'destination.circuit_closed';
