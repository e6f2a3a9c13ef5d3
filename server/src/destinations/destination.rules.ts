import type { ValidationIssue } from '@webhook-scheduler/contract';

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
