import type { EventRow } from '../lib/event-groups.js';
import { originOf } from '../lib/event-actions.js';
import { formatDuration, formatRelative, formatShort } from '../lib/format.js';
import { Link } from '../lib/router.js';
import { HttpStatus, StatusBadge } from './status-badge.js';

function originLabel(row: EventRow): string {
  if (row.kind === 'retry') return row.number === undefined ? 'retry' : `retry ${row.number}`;
  return originOf(row.event);
}

function Cells({ teamId, row }: { teamId: string; row: EventRow }) {
  const { event } = row;
  return (
    <>
      <td data-label="Status">
        {row.kind === 'retry' ? (
          <span className="retry-mark" aria-hidden="true">
            ↳
          </span>
        ) : null}
        <StatusBadge status={event.status} />
      </td>
      <td data-label="Scheduled">
        <Link to={`/t/${teamId}/events/${event.id}`} title={event.scheduled_at}>
          {formatShort(event.scheduled_at)}
        </Link>
        <div className="muted small">{formatRelative(event.scheduled_at)}</div>
      </td>
      <td data-label="Request" className="cell-url">
        <span className="method">{event.method}</span> <span className="url">{event.webhook_url}</span>
      </td>
      <td data-label="Response">
        <HttpStatus status={event.response_status} />
        {event.response_duration !== null ? (
          <span className="muted small"> {formatDuration(event.response_duration)}</span>
        ) : null}
        {event.response_error ? <div className="error-text small">{event.response_error}</div> : null}
      </td>
      <td data-label="Origin">
        <span className={`origin origin-${originOf(event)}`}>{originLabel(row)}</span>
      </td>
    </>
  );
}

/**
 * Events as a table on wide screens and as cards on phones (the CSS decides); a retry attempt sits
 * indented under its original.
 */
export function EventsTable({ teamId, rows }: { teamId: string; rows: EventRow[] }) {
  return (
    <table className="table events-table">
      <thead>
        <tr>
          <th>Status</th>
          <th>Scheduled</th>
          <th>Request</th>
          <th>Response</th>
          <th>Origin</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.event.id}
            data-testid="event-row"
            data-status={row.event.status}
            data-id={row.event.id}
            className={row.kind === 'retry' ? 'retry-row' : undefined}
          >
            <Cells teamId={teamId} row={row} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}
