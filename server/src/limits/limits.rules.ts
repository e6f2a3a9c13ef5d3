import type { QuotaName, TeamLimits, ValidationIssue } from '@webhook-scheduler/contract';
import { nextOccurrences } from '@webhook-scheduler/scheduler';

/** The size of a payload as the limit counts it: its compact JSON text in UTF-8 bytes (null is none). */
export function payloadBytes(payload: unknown): number {
  if (payload === null || payload === undefined) return 0;
  return Buffer.byteLength(JSON.stringify(payload), 'utf8');
}

/** The size of custom headers as the limit counts it: every name and value, in UTF-8 bytes. */
export function headersBytes(headers: Record<string, string> | null): number {
  if (!headers) return 0;
  let total = 0;
  for (const [name, value] of Object.entries(headers))
    total += Buffer.byteLength(name) + Buffer.byteLength(value);
  return total;
}

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
  api_keys: 'active API keys',
  pending_invites: 'pending invites',
  teams: 'teams',
};

/** Refuses one more when `current` has reached `limit`. */
export function quotaRefusal(quota: QuotaName, limit: number, current: number): QuotaRefusal | undefined {
  if (current < limit) return undefined;
  // Every quota is a team's but the one on how many teams a user belongs to.
  const holder = quota === 'teams' ? 'the user belongs to' : 'the team has';
  return {
    message: `Quota exceeded: ${holder} ${current} ${QUOTA_WORDING[quota]} and its limit is ${limit}`,
    details: { quota, limit, current },
  };
}
