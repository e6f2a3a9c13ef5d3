import type { Destination, DestinationRateLimit } from '@webhook-scheduler/sdk';
import { formatInstant } from './format.js';
import { formatCount, formatShare } from './overview-figures.js';

/** The dashboard's address of a destination: its origin URL-encoded as one path segment. */
export const destinationPath = (teamId: string, origin: string) =>
  `/t/${teamId}/destinations/${encodeURIComponent(origin)}`;

/**
 * The events list searching for the origin. The events list has no destination filter; a URL
 * written with its default port (`https://a.example:443/x`) or another spelling of the host is not
 * found by it, though it calls the same origin.
 */
export const eventsOfDestinationPath = (teamId: string, origin: string) =>
  `/t/${teamId}/events?${new URLSearchParams({ q: origin }).toString()}`;

/** `12.5 %` of the last 24 hours' calls that failed, or undefined without a call. */
export const failureRate = (destination: Pick<Destination, 'calls_24h' | 'failures_24h'>) =>
  formatShare(destination.failures_24h, destination.calls_24h);

/** The circuit in words: `Closed`, `Half-open` (one call probes it) or `Open until …` in `timeZone`. */
export function circuitText(
  destination: Pick<Destination, 'circuit' | 'open_until'>,
  timeZone?: string,
): { label: string; detail: string | undefined } {
  switch (destination.circuit) {
    case 'closed':
      return { label: 'Closed', detail: undefined };
    case 'half_open':
      return { label: 'Half-open', detail: 'one call is probing the origin' };
    case 'open':
      return {
        label: 'Open',
        detail: destination.open_until
          ? `until ${formatInstant(destination.open_until, timeZone)}`
          : 'until a call probes the origin',
      };
  }
}

/** `10 calls per minute`, `1 call per second`. */
export function rateLimitText(limit: DestinationRateLimit): string {
  return `${formatCount(limit.requests)} ${limit.requests === 1 ? 'call' : 'calls'} per ${limit.per}`;
}

/** The team's settings in one line: `10 calls per minute · 5 at once`, or `No limits`. */
export function settingsSummary(destination: Pick<Destination, 'rate_limit' | 'max_in_flight'>): string {
  const parts = [
    ...(destination.rate_limit ? [rateLimitText(destination.rate_limit)] : []),
    ...(destination.max_in_flight === null ? [] : [`${formatCount(destination.max_in_flight)} at once`]),
  ];
  return parts.length === 0 ? 'No limits' : parts.join(' · ');
}

/** What the Overview points at: open circuits, paused destinations, and the most failing ones. */
export interface DestinationsToWatch {
  open: Destination[];
  paused: Destination[];
  failing: Destination[];
}

/**
 * The destinations that need a look, each listed once: open or half-open circuits first, then
 * paused ones, then the `top` others with the most failures in 24 hours (none without a failure).
 */
export function destinationsToWatch(destinations: readonly Destination[], top = 3): DestinationsToWatch {
  const open = destinations.filter((d) => d.circuit !== 'closed');
  const paused = destinations.filter((d) => d.circuit === 'closed' && d.paused);
  const failing = destinations
    .filter((d) => d.circuit === 'closed' && !d.paused && d.failures_24h > 0)
    .sort((a, b) => b.failures_24h - a.failures_24h || a.origin.localeCompare(b.origin))
    .slice(0, top);
  return { open, paused, failing };
}
