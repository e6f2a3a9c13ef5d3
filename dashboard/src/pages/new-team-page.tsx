import { type SubmitEvent, useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { type ApiError, fieldError, formBanner, toApiError } from '../api/errors.js';
import { Field } from '../components/field.js';
import { ErrorBanner } from '../components/feedback.js';
import { useTitle } from '../lib/page-title.js';
import { navigate } from '../lib/router.js';
import { useSession } from '../session.js';

/** A new team, owned by its creator: its crons, events and keys are its own. */
export function NewTeamPage() {
  const { refresh, session } = useSession();
  const [name, setName] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  useTitle('New team');
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    unwrap(dashboardApi.teams.create({ body: { name } }), 201).then(
      async (team) => {
        await refresh();
        navigate(`/t/${team.id}/overview`);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(toApiError(failure));
      },
    );
  };
  return (
    <section className="page narrow">
      <h1>New team</h1>
      <p className="muted">
        {session.teams.length === 0
          ? 'You are in no team yet. Create one, or ask an owner to add you to theirs.'
          : 'Each team has its own crons, events, API keys and signing secret. You will be its owner.'}
      </p>
      <form className="form card" onSubmit={submit} noValidate>
        <ErrorBanner error={formBanner(error, ['name'])} />
        <Field label="Team name" error={fieldError(error, 'name')}>
          {(props) => (
            <input {...props} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create team'}
          </button>
        </div>
      </form>
    </section>
  );
}
