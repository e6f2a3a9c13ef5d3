import type { Destination } from '@webhook-scheduler/sdk';
import { destinationPath, failureRate, settingsSummary } from '../lib/destination-figures.js';
import { formatRelative, formatShort } from '../lib/format.js';
import { formatCount } from '../lib/overview-figures.js';
import { Link, openOnClick } from '../lib/router.js';
import { CircuitBadge, PausedBadge } from './destination-badges.js';
import { HttpStatus, StatusBadge } from './status-badge.js';

/** How the last call ended and when it started, or a dash before any. */
export function LastCall({ destination }: { destination: Destination }) {
  const { last_status: status, last_call_at: at } = destination;
  if (status === null || at === null) return <span className="muted">no call yet</span>;
  return (
    <>
      <StatusBadge status={status} /> <HttpStatus status={destination.last_response_status} />
      <div className="muted small" title={at}>
        {formatShort(at)} · {formatRelative(at)}
      </div>
    </>
  );
}

function Health({ destination }: { destination: Destination }) {
  const rate = failureRate(destination);
  return (
    <>
      {formatCount(destination.calls_24h)} calls
      <div className={`small ${destination.failures_24h > 0 ? 'failure-streak' : 'muted'}`}>
        {destination.failures_24h > 0
          ? `${formatCount(destination.failures_24h)} failed (${rate ?? ''})`
          : 'no failure'}
      </div>
    </>
  );
}

/**
 * The team's destinations: health over 24 hours, the last call, waiting work, the circuit and the
 * settings. A click anywhere on a row opens it; the origin's link is the way in for keyboards.
 */
export function DestinationsTable({ teamId, rows }: { teamId: string; rows: Destination[] }) {
  return (
    <table className="table destinations-table">
      <thead>
        <tr>
          <th>Destination</th>
          <th>Last 24 hours</th>
          <th>Last call</th>
          <th>Waiting</th>
          <th>Circuit</th>
          <th>Settings</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((destination) => (
          <tr
            key={destination.origin}
            data-testid="destination-row"
            data-origin={destination.origin}
            className="clickable"
            onClick={openOnClick(destinationPath(teamId, destination.origin))}
          >
            <td data-label="Destination" className="cell-url">
              <Link to={destinationPath(teamId, destination.origin)} className="row-link url">
                {destination.origin}
              </Link>{' '}
              <PausedBadge destination={destination} />
            </td>
            <td data-label="24 hours">
              <Health destination={destination} />
            </td>
            <td data-label="Last call">
              <LastCall destination={destination} />
            </td>
            <td data-label="Waiting">
              {formatCount(destination.pending)} pending
              <div className="muted small">{formatCount(destination.in_flight)} in flight</div>
            </td>
            <td data-label="Circuit">
              <CircuitBadge destination={destination} />
            </td>
            <td data-label="Settings" className="small">
              {settingsSummary(destination)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
