import type { Event } from '@webhook-scheduler/sdk';
import { formatDuration, formatInstant } from '../lib/format.js';
import { countOf } from '../lib/plural.js';
import { HttpStatus } from './status-badge.js';

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">none</span>;
  return <pre className="pre">{JSON.stringify(value, null, 2)}</pre>;
}

function HeaderTable({ headers }: { headers: Record<string, string> | null }) {
  const entries = Object.entries(headers ?? {});
  if (entries.length === 0) return <span className="muted">none</span>;
  return (
    <table className="kv">
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the event sends. */
export function RequestSummary({ event }: { event: Event }) {
  const retry = event.retry_config;
  return (
    <section className="card" aria-labelledby="request-title">
      <h2 id="request-title">Request</h2>
      <p className="request-line">
        <span className="method">{event.method}</span> <span className="url">{event.webhook_url}</span>
      </p>
      <h3>Headers</h3>
      <HeaderTable headers={event.headers} />
      <h3>Payload</h3>
      <Json value={event.payload} />
      <h3>Retries</h3>
      <p>
        {retry
          ? `Up to ${countOf(retry.maxRetries, 'retry', 'retries')}, ${retry.backoffType} backoff from ${formatDuration(retry.backoffMs)}`
          : 'None: a failed call is final.'}
      </p>
    </section>
  );
}

/** What the endpoint answered, once the event ran. */
export function ResponseSummary({ event }: { event: Event }) {
  return (
    <section className="card" aria-labelledby="response-title">
      <h2 id="response-title">Outcome</h2>
      {event.executed_at === null ? (
        <p className="muted">
          Not called yet{event.status === 'pending' ? ': it runs at its scheduled time.' : '.'}
        </p>
      ) : (
        <>
          <dl className="facts compact">
            <div>
              <dt>Status</dt>
              <dd data-testid="response-status">
                <HttpStatus status={event.response_status} />
              </dd>
            </div>
            <div>
              <dt>Duration</dt>
              <dd>{event.response_duration === null ? '—' : formatDuration(event.response_duration)}</dd>
            </div>
            <div>
              <dt>Called at</dt>
              <dd>{formatInstant(event.executed_at)}</dd>
            </div>
          </dl>
          {event.response_error ? (
            <p className="banner banner-error" data-testid="response-error">
              {event.response_error}
            </p>
          ) : null}
          <h3>Response headers</h3>
          <HeaderTable headers={event.response_headers} />
          <h3>Response body</h3>
          {event.response_body ? (
            <pre className="pre">{event.response_body}</pre>
          ) : (
            <span className="muted">empty</span>
          )}
          <p className="muted small">The first 1 KB of the body is kept.</p>
        </>
      )}
    </section>
  );
}
