import { type SubmitEvent, useState } from 'react';
import { ApiError, fieldError, formBanner, toApiError } from '../api/errors.js';
import { useTeamClient } from '../api/client.js';
import { failedReplayOf } from '../lib/destination-settings.js';
import { toLocalInput } from '../lib/format.js';
import { countOf } from '../lib/plural.js';
import { ErrorBanner, Notice } from './feedback.js';
import { Field } from './field.js';

const DAY_MS = 86_400_000;

/** "Replay failed since…": every failed event to the origin scheduled after a time, sent again. */
export function ReplayFailedCard({ teamId, origin }: { teamId: string; origin: string }) {
  const [since, setSince] = useState(() => toLocalInput(new Date(Date.now() - DAY_MS)));
  const [error, setError] = useState<ApiError>();
  const [replayed, setReplayed] = useState<number>();
  const [busy, setBusy] = useState(false);
  const client = useTeamClient(teamId);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setReplayed(undefined);
    const request = failedReplayOf(origin, since);
    if ('problems' in request) {
      setError(new ApiError('Fix the fields marked below.', 400, 'VALIDATION_ERROR', request.problems));
      return;
    }
    setError(undefined);
    setBusy(true);
    client.events.replayMany(request.body).then(
      (result) => {
        setBusy(false);
        setReplayed(result.replayed);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(toApiError(failure));
      },
    );
  };

  return (
    <section className="card" aria-labelledby="replay-title">
      <h2 id="replay-title">Replay failed since…</h2>
      <p className="muted">
        Every failed event to this origin scheduled after this time is scheduled again as a new event, due
        now, as Replay does on an event’s page: at most 10,000, within the team’s pending limits.
      </p>
      <form className="inline-form" onSubmit={submit} noValidate>
        <ErrorBanner error={formBanner(error, ['scheduled_after'])} title="Could not replay:" />
        <Field label="Failed events scheduled after" error={fieldError(error, 'scheduled_after')}>
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              step={1}
              value={since}
              onChange={(e) => setSince(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="btn" disabled={busy}>
          {busy ? 'Replaying…' : 'Replay failed events'}
        </button>
        {replayed === undefined ? null : (
          <Notice tone="success">{countOf(replayed, 'event', 'events')} replayed.</Notice>
        )}
      </form>
    </section>
  );
}
