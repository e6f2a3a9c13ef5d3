import { useCallback, useEffect, useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { type ApiError, toApiError } from '../api/errors.js';
import { useLoad } from '../lib/use-load.js';
import { ErrorBanner } from './feedback.js';

/** Whether the team's webhook calls carry the delivery attempt's W3C traceparent; owners change it. */
export function TracingSection({ teamId, isOwner }: { teamId: string; isOwner: boolean }) {
  const load = useCallback(
    (signal: AbortSignal) =>
      unwrap(dashboardApi.tracing.get({ params: { teamId }, fetchOptions: { signal } }), 200),
    [teamId],
  );
  const tracing = useLoad(load);
  const [error, setError] = useState<ApiError>();
  const saved = tracing.data?.send_traceparent ?? false;
  // The box shows the choice at once; a refusal puts it back.
  const [on, setOn] = useState(saved);
  useEffect(() => setOn(saved), [saved]);

  // Applied at once: a checkbox with a separate Save would be a second form on the page.
  const change = (sendTraceparent: boolean) => {
    setError(undefined);
    setOn(sendTraceparent);
    unwrap(
      dashboardApi.tracing.set({ params: { teamId }, body: { send_traceparent: sendTraceparent } }),
      200,
    ).then(
      () => tracing.reload(),
      (failure: unknown) => {
        setOn(saved);
        setError(toApiError(failure));
      },
    );
  };

  return (
    <section className="card" id="tracing" aria-labelledby="tracing-title">
      <h2 id="tracing-title">Tracing</h2>
      <p className="muted">
        Where the service exports OpenTelemetry traces, each webhook call can carry a W3C{' '}
        <code>traceparent</code> header, so that your receivers&apos; traces continue the delivery
        attempt&apos;s.
      </p>
      <ErrorBanner error={tracing.error ?? error} />
      <label className="check">
        <input
          type="checkbox"
          checked={on}
          disabled={!isOwner || tracing.data === undefined}
          onChange={(event) => change(event.target.checked)}
        />
        Send a traceparent header with every webhook call
      </label>
      <p className="muted small" role="status">
        {saved ? 'Webhook calls carry a traceparent header.' : 'Webhook calls carry no traceparent header.'}
        {isOwner ? '' : ' Only owners can change it.'}
      </p>
    </section>
  );
}
