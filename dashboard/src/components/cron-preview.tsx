import type { CronPreview as Preview } from '@webhook-scheduler/contract';
import { useCallback, useEffect, useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { formatRun, formatRelative, hasSeconds, viewerTimeZone } from '../lib/format.js';
import { type Loaded, useLoad } from '../lib/use-load.js';

const DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What the preview of a schedule shows: the expression it was computed for, and its answer. */
export interface SchedulePreview {
  /** The expression, once typing settled; empty when there is none. */
  expression: string;
  /** The time zone, once typing settled; empty for UTC. */
  timezone: string;
  result: Loaded<Preview | undefined>;
}

/** The preview's field problems when it is up to date with what the form holds, none otherwise. */
export function currentProblems(
  preview: SchedulePreview,
  expression: string,
  timezone: string,
): Record<string, string> {
  const current = preview.expression === expression.trim() && preview.timezone === timezone.trim();
  return current && !preview.result.loading ? { ...preview.result.error?.fields } : {};
}

/**
 * The next five occurrences of a schedule, computed by the server with the scheduler's own cron
 * arithmetic, so the preview is what will fire. Its errors are the API's, per field.
 */
export function useSchedulePreview(expression: string, timezone: string): SchedulePreview {
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
  return { expression: settledExpression, timezone: settledZone, result: useLoad(load) };
}

/** The next runs of a schedule, in its time zone and in the viewer's. */
export function CronPreview({ preview }: { preview: SchedulePreview }) {
  const { data, error } = preview.result;
  const viewer = viewerTimeZone();
  const zone = data?.timezone ?? 'UTC';
  const withSeconds = hasSeconds(data?.occurrences ?? []);

  return (
    <section className="preview" aria-labelledby="preview-title" aria-live="polite">
      <h3 id="preview-title">Next runs</h3>
      {preview.expression === '' ? (
        <p className="muted">Type a schedule to see when it fires.</p>
      ) : error ? (
        <p className="muted" data-testid="preview-error">
          {Object.keys(error.fields).length > 0
            ? 'Fix the schedule above to see when it fires.'
            : sentence(error.message)}
        </p>
      ) : !data ? (
        <p className="muted">Computing…</p>
      ) : data.occurrences.length === 0 ? (
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
            {data.occurrences.map((at) => (
              <tr key={at}>
                <td data-label="Cron zone">{formatRun(at, zone, withSeconds)}</td>
                {viewer !== zone ? (
                  <td data-label="Your time">{formatRun(at, viewer, withSeconds)}</td>
                ) : null}
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
