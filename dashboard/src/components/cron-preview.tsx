import { useCallback, useEffect, useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { formatOccurrence, formatRelative, viewerTimeZone } from '../lib/format.js';
import { useLoad } from '../lib/use-load.js';

const DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The next five occurrences of a schedule, in its time zone and in the viewer's. Computed by the
 * server with the scheduler's own cron arithmetic, so the preview is what will fire.
 */
export function CronPreview({ expression, timezone }: { expression: string; timezone: string }) {
  // A string, so that equal inputs are equal dependencies.
  const key = useDebounced(`${expression.trim()}\n${timezone.trim()}`, DEBOUNCE_MS);
  const [settledExpression = '', settledZone = ''] = key.split('\n');
  const load = useCallback(
    (signal: AbortSignal) =>
      settledExpression === ''
        ? Promise.resolve(undefined)
        : unwrap(
            dashboardApi.insights.cronPreview({
              query: {
                cron_expression: settledExpression,
                ...(settledZone ? { timezone: settledZone } : {}),
              },
              fetchOptions: { signal },
            }),
            200,
          ),
    [settledExpression, settledZone],
  );
  const preview = useLoad(load);
  const viewer = viewerTimeZone();
  const zone = preview.data?.timezone ?? 'UTC';

  return (
    <section className="preview" aria-labelledby="preview-title" aria-live="polite">
      <h3 id="preview-title">Next runs</h3>
      {settledExpression === '' ? (
        <p className="muted">Type a schedule to see when it fires.</p>
      ) : preview.error ? (
        <p className="field-error" data-testid="preview-error">
          {Object.values(preview.error.fields)[0] ?? preview.error.message}
        </p>
      ) : !preview.data ? (
        <p className="muted">Computing…</p>
      ) : preview.data.occurrences.length === 0 ? (
        <p className="muted">This schedule never fires again.</p>
      ) : (
        <table className="table preview-table" data-testid="preview">
          <thead>
            <tr>
              <th>In {zone}</th>
              {viewer !== zone ? <th>Your time ({viewer})</th> : null}
              <th>When</th>
            </tr>
          </thead>
          <tbody>
            {preview.data.occurrences.map((at) => (
              <tr key={at}>
                <td data-label="Cron zone">{formatOccurrence(at, zone)}</td>
                {viewer !== zone ? <td data-label="Your time">{formatOccurrence(at, viewer)}</td> : null}
                <td data-label="When" className="muted">
                  {formatRelative(at)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
