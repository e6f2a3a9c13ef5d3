import type { QuotaName, TeamLimits, ValidationIssue } from '@webhook-scheduler/contract';
import { nextOccurrences } from '@webhook-scheduler/scheduler';
import { headersBytes, payloadBytes } from '../shared/request-bytes.js';

export { headersBytes, payloadBytes };

/** The payload and headers of a webhook within the team's limits, or the fields that are not. */
export function requestSizeIssues(
  input: { payload: unknown; headers: Record<string, string> | null },
  limits: Pick<TeamLimits, 'max_payload_bytes' | 'max_headers_bytes'>,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const payload = payloadBytes(input.payload);
  if (payload > limits.max_payload_bytes) {
    issues.push({
      path: ['payload'],
      message: `payload is ${payload} bytes as JSON; the limit is ${limits.max_payload_bytes} bytes`,
    });
  }
  const headers = headersBytes(input.headers);
  if (headers > limits.max_headers_bytes) {
    issues.push({
      path: ['headers'],
      message: `headers total ${headers} bytes (names and values); the limit is ${limits.max_headers_bytes} bytes`,
    });
  }
  return issues;
}

/** How many upcoming occurrences the shortest interval of a schedule is measured over. */
const INTERVAL_SAMPLE = 200;

/**
 * The shortest time between two of the schedule's next occurrences after `now` (over its next 200),
 * or undefined when it fires fewer than twice.
 */
export function shortestIntervalMs(
  expression: string,
  timezone: string | null,
  now: Date,
): number | undefined {
  const at = nextOccurrences(expression, timezone, now, {
    until: now,
    min: INTERVAL_SAMPLE,
    max: INTERVAL_SAMPLE,
  }).map((date) => date.getTime());
  let shortest: number | undefined;
  for (let i = 1; i < at.length; i++) {
    const gap = (at[i] ?? 0) - (at[i - 1] ?? 0);
    if (shortest === undefined || gap < shortest) shortest = gap;
  }
  return shortest;
}

/** Seconds as people write them: 1s, 90s, 1.5s. */
function seconds(ms: number): string {
  return `${ms / 1000}s`;
}

/** A schedule that fires more often than the team's shortest cron interval allows. */
export function cronIntervalIssues(
  input: { cron_expression: string; timezone: string | null },
  minIntervalMs: number,
  now: Date,
): ValidationIssue[] {
  // Any valid expression fires at most once a second: the 1 s floor needs no walk.
  if (minIntervalMs <= 1000) return [];
  const shortest = shortestIntervalMs(input.cron_expression, input.timezone, now);
  if (shortest === undefined || shortest >= minIntervalMs) return [];
  return [
    {
      path: ['cron_expression'],
      message: `cron_expression fires ${seconds(shortest)} apart at its closest; the shortest interval allowed is ${seconds(minIntervalMs)}`,
    },
  ];
}

/** A create that would take a quota past its limit, with what the client is told. */
export interface QuotaRefusal {
  message: string;
  details: { quota: QuotaName; limit: number; current: number };
}

const QUOTA_WORDING: Record<QuotaName, string> = {
  active_crons: 'active crons',
  pending_events: 'pending events created through the API',
  pending_bytes: 'bytes of payloads and headers in its pending events',
  api_keys: 'active API keys',
  pending_invites: 'pending invites',
  teams: 'teams',
};

/** What the client is told when a request adding `adding` would take a quota past its limit. */
export function refusalOf(quota: QuotaName, limit: number, current: number, adding: number): QuotaRefusal {
  // Every quota is a team's but the one on how many teams a user belongs to.
  const holder = quota === 'teams' ? 'the user belongs to' : 'the team has';
  const has = `Quota exceeded: ${holder} ${current} ${QUOTA_WORDING[quota]}`;
  return {
    message:
      adding === 1 && quota !== 'pending_bytes'
        ? `${has} and its limit is ${limit}`
        : `${has}, its limit is ${limit}, and this request adds ${adding}`,
    details: { quota, limit, current },
  };
}

/** Refuses adding `adding` (one by default) when `current` plus it would pass `limit`. */
export function quotaRefusal(
  quota: QuotaName,
  limit: number,
  current: number,
  adding = 1,
): QuotaRefusal | undefined {
  if (current + adding <= limit) return undefined;
  return refusalOf(quota, limit, current, adding);
}
