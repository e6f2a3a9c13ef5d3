import type { CreatedApiKey } from '@webhook-scheduler/contract';
import { type SubmitEvent, useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { type ApiError, fieldError, toApiError } from '../api/errors.js';
import { curlCreateEvent } from '../lib/snippets.js';
import { useNow } from '../lib/use-now.js';
import { CodeBlock } from './copy-button.js';
import { ErrorBanner } from './feedback.js';
import { Field } from './field.js';

const EXPIRIES = [
  ['', 'Never'],
  ['7', 'In 7 days'],
  ['30', 'In 30 days'],
  ['90', 'In 90 days'],
  ['365', 'In a year'],
] as const;

// Long enough to paste the command, short enough to see the result at once; the command is
// rewritten every few seconds, so a copy is always at least LEAD − REFRESH ahead.
const LEAD_MS = 30_000;
const REFRESH_MS = 5_000;

/** A key just created: shown once, with a curl command that uses it. */
export function NewKey({ created }: { created: CreatedApiKey }) {
  const [target, setTarget] = useState('https://example.com/hook');
  const now = useNow(REFRESH_MS);
  const command = curlCreateEvent(window.location.origin, created.key, target, new Date(now + LEAD_MS));
  return (
    <div className="new-key" data-testid="new-key">
      <h3>Your new API key “{created.api_key.name}”</h3>
      <p>
        <strong>Copy it now: it is shown only this once.</strong> It is stored as a hash; if you lose it,
        create another and revoke this one.
      </p>
      <CodeBlock code={created.key} label="Copy key" />
      <h3>Try it: schedule a webhook 30 seconds from now</h3>
      <Field label="Send it to" hint="Any URL of yours that answers 2xx, e.g. a request bin.">
        {(props) => (
          <input {...props} type="url" value={target} onChange={(e) => setTarget(e.target.value)} />
        )}
      </Field>
      <CodeBlock code={command} label="Copy command" />
      <p className="muted">
        Then watch it in Events: pending, then success or failed with the answer it got.
      </p>
    </div>
  );
}

/** The form that creates an API key, then shows it once. */
export function KeyCreator({
  teamId,
  defaultName = '',
  onCreated,
}: {
  teamId: string;
  defaultName?: string;
  onCreated?: () => void;
}) {
  const [name, setName] = useState(defaultName);
  const [expiry, setExpiry] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey>();

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const expires_at = expiry ? new Date(Date.now() + Number(expiry) * 86_400_000).toISOString() : null;
    unwrap(dashboardApi.keys.create({ params: { teamId }, body: { name, expires_at } }), 201).then(
      (result) => {
        setBusy(false);
        setCreated(result);
        setName(defaultName);
        onCreated?.();
      },
      (failure: unknown) => {
        setBusy(false);
        setError(toApiError(failure));
      },
    );
  };

  return (
    <div className="key-creator">
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field
          label="Key name"
          error={fieldError(error, 'name')}
          hint="To recognise it later, e.g. “production” or “CI”."
        >
          {(props) => (
            <input {...props} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
        <Field label="Expires" error={fieldError(error, 'expires_at')}>
          {(props) => (
            <select {...props} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
              {EXPIRIES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create API key'}
        </button>
      </form>
      <ErrorBanner error={error && Object.keys(error.fields).length === 0 ? error : undefined} />
      {created ? <NewKey created={created} /> : null}
    </div>
  );
}
