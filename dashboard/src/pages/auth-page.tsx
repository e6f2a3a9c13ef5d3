import type { Session } from '@webhook-scheduler/contract';
import { type SubmitEvent, useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { type ApiError, fieldError, formBanner, toApiError } from '../api/errors.js';
import { ErrorBanner } from '../components/feedback.js';
import { Field } from '../components/field.js';
import { useTitle } from '../lib/page-title.js';
import { Link } from '../lib/router.js';

/** Sign-in and sign-up: one form, two wordings. */
export function AuthPage({
  mode,
  onSignedIn,
}: {
  mode: 'sign-in' | 'sign-up';
  onSignedIn: (session: Session) => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const signingUp = mode === 'sign-up';
  useTitle(signingUp ? 'Create your account' : 'Sign in');

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const body = { email, password };
    const call = signingUp
      ? unwrap(dashboardApi.session.signUp({ body }), 201)
      : unwrap(dashboardApi.session.signIn({ body }), 200);
    call.then(onSignedIn, (failure: unknown) => {
      setBusy(false);
      setError(toApiError(failure));
    });
  };

  return (
    <main className="auth">
      <div className="auth-card">
        <div className="auth-brand">
          <img src="/favicon.svg" alt="" width="32" height="32" />
          <span>Webhook Scheduler</span>
        </div>
        <h1>{signingUp ? 'Create your account' : 'Sign in'}</h1>
        <p className="muted">
          {signingUp
            ? 'You get a team of your own: create an API key and schedule your first webhook in a minute.'
            : 'Schedule webhooks, and see what every call answered.'}
        </p>
        <form onSubmit={submit} noValidate>
          <ErrorBanner error={formBanner(error, ['email', 'password'])} />
          <Field label="Email" error={fieldError(error, 'email')}>
            {(props) => (
              <input
                {...props}
                type="email"
                autoComplete="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Password"
            error={fieldError(error, 'password')}
            {...(signingUp ? { hint: 'At least 8 characters.' } : {})}
          >
            {(props) => (
              <input
                {...props}
                type="password"
                autoComplete={signingUp ? 'new-password' : 'current-password'}
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? 'Please wait…' : signingUp ? 'Create account' : 'Sign in'}
          </button>
        </form>
        <p className="auth-switch">
          {signingUp ? (
            <>
              Already have an account? <Link to="/sign-in">Sign in</Link>
            </>
          ) : (
            <>
              New here? <Link to="/sign-up">Create an account</Link>
            </>
          )}
        </p>
      </div>
    </main>
  );
}
