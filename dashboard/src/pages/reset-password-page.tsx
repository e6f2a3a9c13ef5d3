import type { Session } from '@webhook-scheduler/contract';
import { type SubmitEvent, useMemo, useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { type ApiError, fieldError, formBanner, toApiError } from '../api/errors.js';
import { AuthCard } from '../components/auth-card.js';
import { PasswordField } from '../components/credential-fields.js';
import { ErrorBanner } from '../components/feedback.js';
import { tokenFromHash } from '../lib/link-token.js';
import { useTitle } from '../lib/page-title.js';
import { navigate } from '../lib/router.js';

/** The page of a password-reset link (`/reset-password#<token>`, from `users reset-password`). */
export function ResetPasswordPage({ adopt }: { adopt: (session: Session) => void }) {
  const token = useMemo(() => tokenFromHash(window.location.hash), []);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  useTitle('Choose a new password');
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    unwrap(dashboardApi.session.resetPassword({ body: { token, password } }), 200).then(
      (session) => {
        adopt(session);
        navigate('/', { replace: true });
      },
      (failure: unknown) => {
        setBusy(false);
        setError(toApiError(failure));
      },
    );
  };
  return (
    <AuthCard
      title="Choose a new password"
      lead="The link works once. Setting a password signs you out everywhere else and signs you in here."
    >
      <form onSubmit={submit} noValidate>
        <ErrorBanner error={formBanner(error, ['password'])} />
        <PasswordField
          label="New password"
          value={password}
          onChange={setPassword}
          error={fieldError(error, 'password')}
          isNew
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Please wait…' : 'Set password and sign in'}
        </button>
      </form>
    </AuthCard>
  );
}
