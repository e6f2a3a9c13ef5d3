import type { Event } from '@webhook-scheduler/sdk';
import { originOf } from '../lib/event-actions.js';
import { formatDuration, formatRelative, formatShort } from '../lib/format.js';
import { Link } from '../lib/router.js';
import { HttpStatus, StatusBadge } from './status-badge.js';

/** Events as a table on wide screens and as cards on phones (the CSS decides). */
export function EventsTable({ teamId, events }: { teamId: string; events: Event[] }) {
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
        {events.map((event) => (
          <tr key={event.id} data-testid="event-row" data-status={event.status}>
            <td data-label="Status">
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
              <span className={`origin origin-${originOf(event)}`}>{originOf(event)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
