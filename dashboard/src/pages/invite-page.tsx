import type { InviteSummary, MyTeam, Session } from '@webhook-scheduler/contract';
import { type SubmitEvent, useCallback, useMemo, useState } from 'react';
import { dashboardApi, setCsrfToken, unwrap } from '../api/dashboard.js';
import { type ApiError, fieldError, formBanner, toApiError } from '../api/errors.js';
import { AuthCard } from '../components/auth-card.js';
import { EmailField, PasswordField } from '../components/credential-fields.js';
import { ErrorBanner, Loading } from '../components/feedback.js';
import { formatShort } from '../lib/format.js';
import { tokenFromHash } from '../lib/link-token.js';
import { useTitle } from '../lib/page-title.js';
import { navigate } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';

type Adopt = (session: Session | null) => void;

/** Joins the invite's team as the session's user, then shows the team with the session re-read. */
async function accept(token: string, session: Session, adopt: Adopt): Promise<void> {
  setCsrfToken(session.csrf_token);
  const team: MyTeam = await unwrap(dashboardApi.invites.accept({ body: { token } }), 200);
  adopt(await unwrap(dashboardApi.session.get(), 200));
  navigate(`/t/${team.id}/overview`, { replace: true });
}

/** Signs up with the invite, or signs in and accepts it when the email has an account. */
function SignedOut({ invite, token, adopt }: { invite: InviteSummary; token: string; adopt: Adopt }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const email = invite.email;
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const done = invite.account_exists
      ? unwrap(dashboardApi.session.signIn({ body: { email, password } }), 200).then((session) =>
          accept(token, session, adopt),
        )
      : unwrap(dashboardApi.session.signUp({ body: { email, password, invite: token } }), 201).then(
          (session) => {
            adopt(session);
            navigate(`/t/${session.teams[0]?.id ?? ''}/overview`, { replace: true });
          },
        );
    done.catch((failure: unknown) => {
      setBusy(false);
      setError(toApiError(failure));
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <ErrorBanner error={formBanner(error, ['email', 'password'])} />
      <EmailField value={email} onChange={() => {}} error={fieldError(error, 'email')} fixed />
      <PasswordField
        value={password}
        onChange={setPassword}
        error={fieldError(error, 'password')}
        isNew={!invite.account_exists}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? 'Please wait…' : invite.account_exists ? 'Sign in and join' : 'Create account and join'}
      </button>
    </form>
  );
}

/** Accepts the invite as the signed-in user, who must be the one it is for. */
function SignedIn({
  invite,
  token,
  session,
  adopt,
}: {
  invite: InviteSummary;
  token: string;
  session: Session;
  adopt: Adopt;
}) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const act = (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    work().catch((failure: unknown) => {
      setBusy(false);
      setError(toApiError(failure));
    });
  };
  if (session.user.email !== invite.email) {
    const signOut = async () => {
      await unwrap(dashboardApi.session.signOut(), 200);
      adopt(null);
    };
    return (
      <>
        <p>
          You are signed in as <strong>{session.user.email}</strong>: sign out to use this invite as{' '}
          {invite.email}.
        </p>
        <ErrorBanner error={error} />
        <button
          type="button"
          className="btn btn-primary btn-block"
          disabled={busy}
          onClick={() => act(signOut)}
        >
          Sign out
        </button>
      </>
    );
  }
  return (
    <>
      <ErrorBanner error={error} />
      <button
        type="button"
        className="btn btn-primary btn-block"
        disabled={busy}
        onClick={() => act(() => accept(token, session, adopt))}
      >
        {busy ? 'Joining…' : `Join ${invite.team_name}`}
      </button>
    </>
  );
}

/** The page of an invite link (`/invite#<token>`): whom it is for, and how to join its team. */
export function InvitePage({ session, adopt }: { session: Session | null; adopt: Adopt }) {
  const token = useMemo(() => tokenFromHash(window.location.hash), []);
  useTitle('Invitation');
  const load = useCallback(
    (signal: AbortSignal) =>
      unwrap(dashboardApi.invites.show({ body: { token }, fetchOptions: { signal } }), 200),
    [token],
  );
  const { data: invite, error } = useLoad(load);
  if (!invite) {
    return (
      <AuthCard title="Invitation">
        {error ? <ErrorBanner error={error} /> : <Loading label="Reading the invite…" />}
      </AuthCard>
    );
  }
  const lead = `${invite.email} is invited to join ${invite.team_name} as ${invite.role}. The link works until ${formatShort(invite.expires_at)}.`;
  return (
    <AuthCard title={`Join ${invite.team_name}`} lead={lead}>
      {session ? (
        <SignedIn invite={invite} token={token} session={session} adopt={adopt} />
      ) : (
        <SignedOut invite={invite} token={token} adopt={adopt} />
      )}
    </AuthCard>
  );
}
