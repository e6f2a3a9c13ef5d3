import type { ValidationIssue } from '@webhook-scheduler/contract';
import { webhookOrigin } from '@webhook-scheduler/scheduler';

/**
 * The origin a path names, written as the service writes origins (`webhookOrigin`), or the problem
 * with it: it must be a bare http(s) origin (no path, query, fragment or user), in any spelling of it.
 */
export function originOf(raw: string): { origin: string } | { issue: ValidationIssue } {
  const problem = (message: string) => ({ issue: { path: ['origin'], message } });
  if (!URL.canParse(raw)) return problem('origin must be a URL origin such as https://hooks.example.com');
  const url = new URL(raw);
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password || raw.endsWith('/'))
    return problem('origin must be scheme, host and port only, such as https://hooks.example.com');
  const origin = webhookOrigin(raw);
  if (origin === 'null') return problem('origin must be an http or https origin with a host');
  return { origin };
}

/** A team's most calls at once to an origin may not exceed the service's limit per origin. */
export function maxInFlightIssues(
  maxInFlight: number | null | undefined,
  serviceMax: number,
): ValidationIssue[] {
  if (maxInFlight === null || maxInFlight === undefined || maxInFlight <= serviceMax) return [];
  return [
    {
      path: ['max_in_flight'],
      message: `max_in_flight must be from 1 to ${serviceMax} (the service's limit per origin, DESTINATION_MAX_IN_FLIGHT)`,
    },
  ];
}
