import type { EventRow, ListRow } from '../lib/event-groups.js';
import { originOf } from '../lib/event-actions.js';
import { formatDuration, formatRelative, formatShort } from '../lib/format.js';
import { Link, openOnClick } from '../lib/router.js';
import { countOf } from '../lib/plural.js';
import { HttpStatus, StatusBadge } from './status-badge.js';

function Origin({ teamId, row }: { teamId: string; row: EventRow }) {
  const { event } = row;
  if (row.kind === 'retry') {
    return (
      <span className="origin origin-retry">
        {row.number === undefined ? 'retry' : `retry ${row.number}`}
      </span>
    );
  }
  if (event.cron_id) {
    return (
      <Link className="origin origin-cron" to={`/t/${teamId}/crons/${event.cron_id}`}>
        cron
      </Link>
    );
  }
  return <span className={`origin origin-${originOf(event)}`}>{originOf(event)}</span>;
}

function When({ iso, pending }: { iso: string; pending: boolean }) {
  return (
    <span className="when" title={`${iso} (${formatRelative(iso)})`}>
      {formatShort(iso)}
      {pending ? <span className="muted"> · {formatRelative(iso)}</span> : null}
    </span>
  );
}

function EventCells({ teamId, row }: { teamId: string; row: EventRow }) {
  const { event } = row;
  return (
    <>
      <td data-label="Status" className="cell-status">
        {row.kind === 'retry' ? (
          <span className="retry-mark" aria-hidden="true">
            ↳
          </span>
        ) : null}
        <Link to={`/t/${teamId}/events/${event.id}`} className="row-link">
          <StatusBadge status={event.status} />
          <span className="visually-hidden"> event, scheduled {formatShort(event.scheduled_at)}</span>
        </Link>
      </td>
      <td data-label="Response" className="cell-response">
        <HttpStatus status={event.response_status} />
        {event.response_duration !== null ? (
          <span className="muted small"> {formatDuration(event.response_duration)}</span>
        ) : null}
        {event.response_error ? <div className="error-text small clip">{event.response_error}</div> : null}
      </td>
      <td data-label="Scheduled" className="cell-when">
        <When iso={event.scheduled_at} pending={event.status === 'pending'} />
      </td>
      <td data-label="Request" className="cell-url">
        <span className="method">{event.method}</span> <span className="url">{event.webhook_url}</span>
      </td>
      <td data-label="Origin" className="cell-origin">
        <Origin teamId={teamId} row={row} />
      </td>
    </>
  );
}

function UpcomingCells({ teamId, row }: { teamId: string; row: Extract<ListRow, { kind: 'upcoming' }> }) {
  const next = row.events[0];
  if (!next) return null;
  return (
    <>
      <td data-label="Status" className="cell-status">
        <Link to={`/t/${teamId}/events?cron_id=${row.cronId}&status=pending`} className="row-link">
          <StatusBadge status="pending" />
          <span className="visually-hidden"> runs of a cron</span>
        </Link>
      </td>
      <td data-label="Response" className="cell-response">
        <span className="upcoming-count">{countOf(row.events.length, 'upcoming run', 'upcoming runs')}</span>
      </td>
      <td data-label="Scheduled" className="cell-when">
        next <When iso={next.scheduled_at} pending />
      </td>
      <td data-label="Request" className="cell-url">
        <span className="method">{next.method}</span> <span className="url">{next.webhook_url}</span>
      </td>
      <td data-label="Origin" className="cell-origin">
        <Link className="origin origin-cron" to={`/t/${teamId}/crons/${row.cronId}`}>
          cron
        </Link>
      </td>
    </>
  );
}

/** Where a click on a row leads: its event, or a cron's pending runs. */
const targetOf = (teamId: string, row: ListRow) =>
  row.kind === 'upcoming'
    ? `/t/${teamId}/events?cron_id=${row.cronId}&status=pending`
    : `/t/${teamId}/events/${row.event.id}`;

/**
 * Events as a table on wide screens and as two-line cards on phones (the CSS decides), outcome
 * first; a retry attempt sits indented under its original, a cron's upcoming runs in one row.
 * A click anywhere on a row opens it; the link in its first cell is the way in for keyboards.
 */
export function EventsTable({ teamId, rows }: { teamId: string; rows: ListRow[] }) {
  const open = (row: ListRow) => openOnClick(targetOf(teamId, row));
  return (
    <table className="table events-table">
      <thead>
        <tr>
          <th>Status</th>
          <th>Response</th>
          <th>Scheduled</th>
          <th>Request</th>
          <th>Origin</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) =>
          row.kind === 'upcoming' ? (
            <tr
              key={`upcoming-${row.cronId}`}
              data-testid="upcoming-row"
              data-cron={row.cronId}
              className="clickable upcoming-row"
              onClick={open(row)}
            >
              <UpcomingCells teamId={teamId} row={row} />
            </tr>
          ) : (
            <tr
              key={row.event.id}
              data-testid="event-row"
              data-status={row.event.status}
              data-id={row.event.id}
              className={`clickable${row.kind === 'retry' ? ' retry-row' : ''}`}
              onClick={open(row)}
            >
              <EventCells teamId={teamId} row={row} />
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}
