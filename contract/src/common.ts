import { z } from 'zod';

/**
 * The machine-readable error codes every error body carries: the API document's five, plus
 * `QUOTA_EXCEEDED` (403, a team quota is used up), `RATE_LIMITED` (429, too many requests for
 * the key; see `Retry-After`) and the two of `Idempotency-Key` (422 `IDEMPOTENCY_KEY_MISMATCH`,
 * 409 `IDEMPOTENCY_KEY_IN_USE`).
 */
export const ErrorCode = z.enum([
  'UNAUTHORIZED',
  'NOT_FOUND',
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'INTERNAL_SERVER_ERROR',
  'QUOTA_EXCEEDED',
  'RATE_LIMITED',
  'IDEMPOTENCY_KEY_MISMATCH',
  'IDEMPOTENCY_KEY_IN_USE',
]);
/** One of the API's error codes. */
export type ErrorCode = z.infer<typeof ErrorCode>;

/** One field problem in a `VALIDATION_ERROR`: the path to the field and what is wrong with it. */
export const ValidationIssue = z.object({
  path: z
    .array(z.union([z.string(), z.number()]))
    .describe('Path to the offending field, e.g. ["retry_config", "maxRetries"].'),
  message: z.string(),
});
/** One field problem in a `VALIDATION_ERROR`. */
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** The body of every error response. */
export const ErrorBody = z.object({
  error: z.object({
    message: z.string().describe('Human-readable explanation.'),
    code: ErrorCode,
    details: z
      .union([z.array(ValidationIssue), z.record(z.unknown())])
      .optional()
      .describe(
        'For VALIDATION_ERROR an array of { path, message }; for BAD_REQUEST an object such as { currentStatus }; for QUOTA_EXCEEDED { quota, limit, current }; for the 500 of a page past the end of a list { page, limit, total } (that 500 would come again: do not retry it).',
      ),
  }),
});
/** The body of every error response. */
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The exact message of every 401 response. */
export const UNAUTHORIZED_MESSAGE = 'Unauthorized. Invalid or missing API key.';

/** HTTP methods a webhook can be sent with. */
export const HttpMethod = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
/** An HTTP method a webhook can be sent with. */
export type HttpMethod = z.infer<typeof HttpMethod>;

/** The lifecycle states of an event: `pending → processing → success | failed`. */
export const EventStatus = z.enum(['pending', 'processing', 'success', 'failed']);
/** The lifecycle state of an event. */
export type EventStatus = z.infer<typeof EventStatus>;

/** Bounds of the retry configuration. */
export const RETRY_LIMITS = { maxRetries: { min: 1, max: 10 }, backoffMs: { min: 100, max: 5000 } } as const;

function boundedInteger(name: string, { min, max }: { min: number; max: number }, unit = '') {
  const bounds = `${name} must be from ${min} to ${max}${unit}`;
  return z.number().int(`${name} must be a whole number`).min(min, bounds).max(max, bounds);
}

const retryFields = {
  maxRetries: boundedInteger('maxRetries', RETRY_LIMITS.maxRetries).describe(
    'How many retries after the first attempt fails (1–10).',
  ),
  backoffMs: boundedInteger('backoffMs', RETRY_LIMITS.backoffMs, ' milliseconds').describe(
    'Base delay in milliseconds (100–5000).',
  ),
};
/** How the delay grows from one retry to the next. */
export const BackoffType = z
  .enum(['exponential', 'linear'])
  .describe('Retry n waits backoffMs × n (linear) or backoffMs × 2^(n−1) (exponential).');
/** How the delay grows from one retry to the next. */
export type BackoffType = z.infer<typeof BackoffType>;

/** How failed webhook calls are retried, as returned by the API (all three fields always present). */
export const RetryConfig = z.object({ ...retryFields, backoffType: BackoffType });
/** How failed webhook calls are retried. */
export type RetryConfig = z.infer<typeof RetryConfig>;

/** Retry configuration as accepted on input: `backoffType` may be omitted and defaults to `exponential`. */
export const RetryConfigInput = z
  .object({ ...retryFields, backoffType: BackoffType.default('exponential') })
  .strict();
/** Retry configuration as accepted on input. */
export type RetryConfigInput = z.input<typeof RetryConfigInput>;

/** Shortest `timeout_ms` of an event or cron: the longest is the service's `WEBHOOK_TIMEOUT_MS`. */
export const MIN_TIMEOUT_MS = 1000;

/**
 * How long one attempt's call may take (connect, response headers and body read), in milliseconds:
 * from 1,000 to the service's `WEBHOOK_TIMEOUT_MS`, which the server checks. `null` takes that value.
 */
export const TimeoutMsInput = z
  .number()
  .int('timeout_ms must be a whole number of milliseconds')
  .min(MIN_TIMEOUT_MS, `timeout_ms must be at least ${MIN_TIMEOUT_MS} (1 s)`)
  .nullable()
  .describe(
    'Deadline of each attempt in milliseconds (connect, response headers and body), from 1000 to the service’s WEBHOOK_TIMEOUT_MS (30000 by default); null or omitted: WEBHOOK_TIMEOUT_MS.',
  );

/** `timeout_ms` as responses show it: `null` when the service's `WEBHOOK_TIMEOUT_MS` applies. */
export const TimeoutMs = z
  .number()
  .int()
  .nullable()
  .describe('Deadline of each attempt in milliseconds; null: the service’s WEBHOOK_TIMEOUT_MS.');

/** Longest accepted `webhook_url`. */
export const MAX_URL_LENGTH = 2048;

/** An absolute `http:` or `https:` URL: the target of a webhook call. */
export const WebhookUrl = z
  .string()
  .max(MAX_URL_LENGTH, `webhook_url must be at most ${MAX_URL_LENGTH} characters`)
  .superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  })
  .describe('Absolute http(s) URL the webhook is sent to.');

/** Whitespace or a control character: the URL parser would silently drop or encode it. */
function hasInvisibleCharacters(value: string): boolean {
  if (/\s/.test(value)) return true;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

// Validity first: "not a url" has spaces too, but what is wrong with it is that it is no URL at all.
function webhookUrlProblem(value: string): string | undefined {
  const trimmed = value.trim();
  if (!URL.canParse(trimmed)) {
    if (!SCHEME.test(trimmed)) {
      return 'webhook_url is not a valid URL: it must be absolute, such as https://example.com/hook';
    }
    return /\s/.test(trimmed)
      ? 'webhook_url is not a valid URL: it contains whitespace'
      : 'webhook_url is not a valid URL';
  }
  if (hasInvisibleCharacters(value)) return 'webhook_url must not contain whitespace or control characters';
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `webhook_url must use http or https, not ${url.protocol.slice(0, -1)}`;
  }
  // The call goes to the host without its trailing dots (the DNS root): `http://./` names none, and
  // `http://a.1../` names `a.1`, which is no host.
  const host = url.hostname.replace(/\.+$/, '');
  if (host === '' || !URL.canParse(`${url.protocol}//${host}`)) return 'webhook_url must name a host';
  return undefined;
}

/** Limits on custom webhook headers. */
export const HEADER_LIMITS = { count: 50, nameLength: 256, valueLength: 8192 } as const;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Visible ASCII, space, tab and obs-text (RFC 9110 field-value); no CR, LF or NUL.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

function headerNameProblem(name: string): string | undefined {
  if (!TOKEN.test(name)) return `"${name}" is not a valid header name`;
  if (name.length > HEADER_LIMITS.nameLength)
    return `header names are limited to ${HEADER_LIMITS.nameLength} characters`;
  const lower = name.toLowerCase();
  if (RESERVED_HEADERS.has(lower) || lower.startsWith('proxy-')) {
    return `header "${name}" is set by the service or the connection and cannot be overridden`;
  }
  return undefined;
}

/** Custom headers sent with the webhook: string values, valid names, no hop-by-hop or framing headers. */
export const WebhookHeaders = z
  .record(z.string())
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > HEADER_LIMITS.count) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `at most ${HEADER_LIMITS.count} headers are allowed`,
      });
    }
    const seen = new Set<string>();
    for (const name of names) {
      const value = headers[name] ?? '';
      const nameProblem = headerNameProblem(name);
      if (nameProblem) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message: nameProblem });
      if (seen.has(name.toLowerCase())) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [name],
          message: `header "${name}" is given twice`,
        });
      }
      seen.add(name.toLowerCase());
      if (!FIELD_VALUE.test(value) || value.length > HEADER_LIMITS.valueLength) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [name],
          message: `header values must be at most ${HEADER_LIMITS.valueLength} characters without line breaks`,
        });
      }
    }
  })
  .describe('Custom headers sent with the webhook request (string values).');

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** Any JSON value. */
export const JsonValue: z.ZodType<Json> = z.lazy(() => jsonValueUnion);
// Built once: zod calls a lazy schema's getter on every parse, for every value of the payload.
const jsonValueUnion: z.ZodType<Json> = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(JsonValue),
  z.record(JsonValue),
]);

/**
 * A webhook's payload as accepted on `POST` and `PUT`: any JSON value, or null (the default) for no
 * body. The service stores it exactly as sent or refuses it.
 */
export const PayloadInput = JsonValue.nullable()
  .default(null)
  .describe(
    'Any JSON value, sent as the webhook body; null (the default) sends none. It is stored exactly as sent, so these are refused with 400 VALIDATION_ERROR naming their path: a string or key containing U+0000 or an unpaired UTF-16 surrogate such as \\ud800 (refused in every string of any request body), and a number that would not come back as sent — out of range (1e400), too small (1e-400) or more precise than a double (12345678901234567890; send such values as strings).',
  );

/** An ISO 8601 timestamp with a time zone designator (`Z` or an offset). */
export const Timestamp = z
  .string()
  .datetime({ offset: true })
  .describe('ISO 8601 timestamp with Z or an offset.');

/** An IANA time zone name such as `Europe/Paris`; `null` means UTC. */
export const TimeZone = z
  .string()
  .max(64)
  .refine(isIanaTimeZone, { message: 'timezone must be an IANA time zone name such as "Europe/Paris"' })
  .transform(canonicalTimeZone)
  .describe(
    'IANA time zone name (a different letter case is corrected: europe/paris → Europe/Paris); null means UTC.',
  );

function isIanaTimeZone(value: string): boolean {
  // Intl also accepts bare offsets ("+01:00"); those are not IANA names.
  if (!/^[A-Za-z]/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone's usual spelling when only the case differs ("europe/paris" → "Europe/Paris"). Intl's
 * resolved names are CLDR's older ones (Asia/Kolkata → Asia/Calcutta), so any other name is kept.
 */
function canonicalTimeZone(value: string): string {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === value.toLowerCase() ? resolved : value;
}

/** A UUID. */
export const Uuid = z.string().uuid('must be a UUID');

/** Path parameters of the routes that address one resource. */
export const IdParams = z.object({ id: Uuid.describe('The resource id (UUID).') });

/** Page-size bounds and defaults of every list. */
export const PAGE_LIMITS = { defaultLimit: 100, maxLimit: 1000 } as const;

function integerParam(name: string) {
  return z
    .string()
    .regex(/^\d+$/, `${name} must be a non-negative integer`)
    .transform((value) => Number(value));
}

/** `page` and `limit` query parameters shared by every list. */
export const PaginationQuery = z.object({
  page: integerParam('page').pipe(z.number().int().min(0)).default('0').describe('0-indexed page number.'),
  limit: integerParam('limit')
    .pipe(z.number().int().min(1).max(PAGE_LIMITS.maxLimit))
    .default(String(PAGE_LIMITS.defaultLimit))
    .describe(`Items per page, 1–${PAGE_LIMITS.maxLimit}.`),
});

/** A boolean query parameter spelled `true` or `false`. */
export const BooleanParam = z.enum(['true', 'false']).transform((value) => value === 'true');

/** The pagination object of every list response. */
export const Pagination = z.object({
  page: z.number().int().describe('0-indexed page number.'),
  limit: z.number().int(),
  total: z.number().int().describe('Items across all pages.'),
});
/** The pagination object of every list response. */
export type Pagination = z.infer<typeof Pagination>;

/** Wraps a schema as `{ data: T }`. */
export function dataOf<T extends z.ZodTypeAny>(schema: T) {
  return z.object({ data: schema });
}

/** Wraps a schema as `{ data: T[], pagination }`. */
export function pageOf<T extends z.ZodTypeAny>(schema: T) {
  return z.object({ data: z.array(schema), pagination: Pagination });
}

/** The body of a successful `DELETE`. */
export const DeleteResult = dataOf(z.object({ success: z.boolean() }));

/** The request header that makes a create safe to retry. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** The response header of an answer repeated for an `Idempotency-Key` seen before. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** An `Idempotency-Key`: 1–255 printable ASCII characters. */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x20-\x7e]{1,255}$/, 'Idempotency-Key must be 1 to 255 printable ASCII characters')
  .describe(
    'Makes the create safe to retry (scoped to the team, remembered 24 h): a repeat with the same body answers the first 2xx or 4xx response again with Idempotent-Replayed: true and creates nothing; the same key with another body → 422 IDEMPOTENCY_KEY_MISMATCH; a repeat while the first is still being handled → 409 IDEMPOTENCY_KEY_IN_USE.',
  );

/** The headers of the routes that create: an optional `Idempotency-Key`. */
export const CreateHeaders = z.object({ [IDEMPOTENCY_HEADER]: IdempotencyKey.optional() });

/** The error statuses of `Idempotency-Key`, added to the routes that take it. */
export const idempotencyResponses = { 409: ErrorBody, 422: ErrorBody } as const;
