import type { Destination } from '@webhook-scheduler/sdk';
import { type ReactNode, useCallback } from 'react';
import { useTeamClient } from '../api/client.js';
import { destinationPath, destinationsToWatch, failureRate } from '../lib/destination-figures.js';
import { formatCount } from '../lib/overview-figures.js';
import { Link } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';
import { CircuitBadge, PausedBadge } from './destination-badges.js';

const REFRESH_MS = 15_000;
// The most recently called destinations: a team with more has its quiet ones left out.
const READ_AT_MOST = 200;

function Row({
  teamId,
  destination,
  children,
}: {
  teamId: string;
  destination: Destination;
  children: ReactNode;
}) {
  return (
    <li data-testid="watched-destination">
      <Link to={destinationPath(teamId, destination.origin)} className="url">
        {destination.origin}
      </Link>{' '}
      {children}
    </li>
  );
}

/** The Overview's card of destinations to look at: open circuits, paused ones, the most failing. */
export function DestinationsHealthCard({ teamId }: { teamId: string }) {
  const client = useTeamClient(teamId);
  const load = useCallback(
    (signal: AbortSignal) => client.destinations.list({ limit: READ_AT_MOST }, { signal }),
    [client],
  );
  const destinations = useLoad(load, REFRESH_MS);
  const page = destinations.data;
  if (!page || page.data.length === 0) return null;
  const { open, paused, failing } = destinationsToWatch(page.data);
  const calm = open.length + paused.length + failing.length === 0;

  return (
    <section className="card destinations-card" aria-labelledby="destinations-title">
      <h2 id="destinations-title">Destinations</h2>
      {calm ? (
        <p className="muted">No open circuit, no paused destination and no failed call in 24 hours.</p>
      ) : (
        <ul className="watch-list">
          {open.map((d) => (
            <Row key={d.origin} teamId={teamId} destination={d}>
              <CircuitBadge destination={d} />
            </Row>
          ))}
          {paused.map((d) => (
            <Row key={d.origin} teamId={teamId} destination={d}>
              <PausedBadge destination={d} />{' '}
              <span className="muted small">{formatCount(d.pending)} pending</span>
            </Row>
          ))}
          {failing.map((d) => (
            <Row key={d.origin} teamId={teamId} destination={d}>
              <span className="failure-streak small">
                {formatCount(d.failures_24h)} of {formatCount(d.calls_24h)} calls failed ({failureRate(d)})
              </span>
            </Row>
          ))}
        </ul>
      )}
      <p className="muted small">
        <Link to={`/t/${teamId}/destinations`}>All {formatCount(page.pagination.total)} destinations</Link>
      </p>
    </section>
  );
}
