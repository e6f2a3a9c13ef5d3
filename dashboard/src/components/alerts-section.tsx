import { type SubmitEvent, useCallback, useEffect, useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { type ApiError, toApiError } from '../api/errors.js';
import { useLoad } from '../lib/use-load.js';
import { ErrorBanner } from './feedback.js';
import { Field } from './field.js';

/** Where the team's failure alerts (event.failed, cron.paused) go; owners change it. */
export function AlertsSection({ teamId, isOwner }: { teamId: string; isOwner: boolean }) {
  const load = useCallback(
    (signal: AbortSignal) =>
      unwrap(dashboardApi.alerts.get({ params: { teamId }, fetchOptions: { signal } }), 200),
    [teamId],
  );
  const alerts = useLoad(load);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  const current = alerts.data?.alert_url ?? null;
  useEffect(() => setUrl(current ?? ''), [current]);

  const save = (alertUrl: string | null) => {
    setError(undefined);
    setSaved(false);
    unwrap(dashboardApi.alerts.set({ params: { teamId }, body: { alert_url: alertUrl } }), 200).then(
      () => {
        setSaved(true);
        alerts.reload();
      },
      (failure: unknown) => setError(toApiError(failure)),
    );
  };
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    save(url.trim() === '' ? null : url.trim());
  };

  return (
    <section className="card" id="alerts" aria-labelledby="alerts-title">
      <h2 id="alerts-title">Alerts</h2>
      <p className="muted">
        When an event&apos;s last attempt fails, or a cron is paused after failing runs, the service POSTs a
        signed message (<code>event.failed</code>, <code>cron.paused</code>) to this URL.
      </p>
      <ErrorBanner error={alerts.error ?? error} />
      <form onSubmit={submit} noValidate>
        <Field label="Alert URL" hint={current ? 'Alerts are on.' : 'Alerts are off.'}>
          {(props) => (
            <input
              {...props}
              type="url"
              value={url}
              placeholder="https://ops.example.com/webhook-alerts"
              disabled={!isOwner}
              onChange={(event) => setUrl(event.target.value)}
            />
          )}
        </Field>
        {isOwner ? (
          <div className="actions">
            <button type="submit" className="btn btn-primary">
              Save
            </button>
            {current ? (
              <button type="button" className="btn" onClick={() => save(null)}>
                Turn off
              </button>
            ) : null}
            {saved ? <span role="status">Saved.</span> : null}
          </div>
        ) : (
          <p className="muted small">Only owners can change it.</p>
        )}
      </form>
    </section>
  );
}
