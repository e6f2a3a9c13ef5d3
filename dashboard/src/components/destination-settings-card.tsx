import type { Destination, RateLimitPer } from '@webhook-scheduler/sdk';
import { type SubmitEvent, useState } from 'react';
import { useTeamClient } from '../api/client.js';
import { ApiError, fieldError, formBanner, toApiError } from '../api/errors.js';
import { type SettingsForm, settingsFormOf, settingsPatchOf } from '../lib/destination-settings.js';
import { ErrorBanner } from './feedback.js';
import { Field } from './field.js';

const SHOWN_FIELDS = ['rate_limit', 'max_in_flight'];
const PERS: [RateLimitPer | '', string][] = [
  ['', 'No rate limit'],
  ['second', 'per second'],
  ['minute', 'per minute'],
  ['hour', 'per hour'],
];

/** The team's rate limit and most calls at once for the origin; a save sends both. */
export function DestinationSettingsCard({
  teamId,
  destination,
  onSaved,
}: {
  teamId: string;
  destination: Destination;
  onSaved: () => void;
}) {
  const client = useTeamClient(teamId);
  const [form, setForm] = useState<SettingsForm>(() => settingsFormOf(destination));
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => {
    setSaved(false);
    setForm((current) => ({ ...current, [key]: value }));
  };

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setSaved(false);
    const patch = settingsPatchOf(form);
    if ('problems' in patch) {
      setError(new ApiError('Fix the fields marked below.', 400, 'VALIDATION_ERROR', patch.problems));
      return;
    }
    setError(undefined);
    setBusy(true);
    client.destinations.patch(destination.origin, patch.body).then(
      () => {
        setBusy(false);
        setSaved(true);
        onSaved();
      },
      (failure: unknown) => {
        setBusy(false);
        setError(toApiError(failure));
      },
    );
  };

  return (
    <section className="card" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <form onSubmit={submit} noValidate>
        <ErrorBanner error={formBanner(error, SHOWN_FIELDS)} />
        <div className="row">
          <Field label="Requests" error={fieldError(error, 'rate_limit.requests')} hint="1 to 100,000">
            {(props) => (
              <input
                {...props}
                type="number"
                min={1}
                max={100_000}
                value={form.requests}
                disabled={form.per === ''}
                onChange={(e) => set('requests', e.target.value)}
              />
            )}
          </Field>
          <Field label="Rate limit" error={fieldError(error, 'rate_limit.per')}>
            {(props) => (
              <select
                {...props}
                value={form.per}
                onChange={(e) => set('per', e.target.value as SettingsForm['per'])}
              >
                {PERS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <Field
          label="Most calls at once"
          error={fieldError(error, 'max_in_flight')}
          hint="Empty for the service’s limit per origin."
        >
          {(props) => (
            <input
              {...props}
              type="number"
              min={1}
              placeholder="Service default"
              value={form.maxInFlight}
              onChange={(e) => set('maxInFlight', e.target.value)}
            />
          )}
        </Field>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save settings'}
          </button>
          {saved ? <span role="status">Saved.</span> : null}
        </div>
      </form>
    </section>
  );
}
