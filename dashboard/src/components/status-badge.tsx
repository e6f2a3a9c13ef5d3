import type { EventStatus } from '@webhook-scheduler/sdk';

/** An event's state as a coloured label. */
export function StatusBadge({ status }: { status: EventStatus }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}

/** A response status code, coloured by class (2xx green, others red). */
export function HttpStatus({ status }: { status: number | null }) {
  if (status === null) return <span className="muted">—</span>;
  return <span className={`http-status ${status >= 200 && status < 300 ? 'ok' : 'bad'}`}>{status}</span>;
}
