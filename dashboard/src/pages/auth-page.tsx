import type { Session } from '@webhook-scheduler/contract';
import { type SubmitEvent, useCallback, useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { type ApiError, fieldError, formBanner, toApiError } from '../api/errors.js';
import { AuthCard } from '../components/auth-card.js';
import { EmailField, PasswordField } from '../components/credential-fields.js';
import { ErrorBanner, Notice } from '../components/feedback.js';
import { useTitle } from '../lib/page-title.js';
import { Link } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';

const CLOSED = {
  invite: 'Sign-up is by invitation: open the invite link a team owner made for you.',
  closed: 'Accounts on this service are created by its operator: ask them for one.',
} as const;

/** Sign-in and sign-up: one form, two wordings; sign-up only where the service allows it. */
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
  const loadMode = useCallback(
    (signal: AbortSignal) => unwrap(dashboardApi.session.signUpMode({ fetchOptions: { signal } }), 200),
    [],
  );
  // Until the mode is known the page offers what an open service does.
  const signUpMode = useLoad(loadMode).data?.mode ?? 'open';

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

  const lead = signingUp
    ? 'You get a team of your own: create an API key and schedule your first webhook in a minute.'
    : 'Schedule webhooks, and see what every call answered.';
  return (
    <AuthCard title={signingUp ? 'Create your account' : 'Sign in'} lead={lead}>
      {signingUp && signUpMode !== 'open' ? (
        <Notice>{CLOSED[signUpMode]}</Notice>
      ) : (
        <form onSubmit={submit} noValidate>
          <ErrorBanner error={formBanner(error, ['email', 'password'])} />
          <EmailField value={email} onChange={setEmail} error={fieldError(error, 'email')} />
          <PasswordField
            value={password}
            onChange={setPassword}
            error={fieldError(error, 'password')}
            isNew={signingUp}
          />
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? 'Please wait…' : signingUp ? 'Create account' : 'Sign in'}
          </button>
        </form>
      )}
      <p className="auth-switch">
        {signingUp ? (
          <>
            Already have an account? <Link to="/sign-in">Sign in</Link>
          </>
        ) : signUpMode === 'open' ? (
          <>
            New here? <Link to="/sign-up">Create an account</Link>
          </>
        ) : null}
      </p>
      {signingUp ? null : (
        <p className="muted small">
          Forgot your password? The operator of this service can send you a reset link.
        </p>
      )}
    </AuthCard>
  );
}
