import type { Session } from '@webhook-scheduler/contract';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { dashboardApi, setCsrfToken, unwrap } from './api/dashboard.js';
import { UNAUTHORIZED_EVENT } from './api/errors.js';
import { Loading } from './components/feedback.js';
import { Shell } from './components/shell.js';
import { matchPath, navigate, useLocation } from './lib/router.js';
import { useSessionRefresh } from './lib/use-session-refresh.js';
import { AuthPage } from './pages/auth-page.js';
import { CronFormPage } from './pages/cron-form-page.js';
import { CronsPage } from './pages/crons-page.js';
import { DestinationPage } from './pages/destination-page.js';
import { DestinationsPage } from './pages/destinations-page.js';
import { EventFormPage } from './pages/event-form-page.js';
import { EventPage } from './pages/event-page.js';
import { EventsPage } from './pages/events-page.js';
import { InvitePage } from './pages/invite-page.js';
import { NewTeamPage } from './pages/new-team-page.js';
import { NotFound } from './pages/not-found.js';
import { OverviewPage } from './pages/overview-page.js';
import { ResetPasswordPage } from './pages/reset-password-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { SessionContext, type SessionState, useSession } from './session.js';

type Params = Record<string, string>;
const team = (params: Params) => params.teamId ?? '';

// First match wins: `/events/new` must come before `/events/:eventId`.
const TEAM_ROUTES: [string, (params: Params) => ReactNode][] = [
  ['/t/:teamId', (p) => <OverviewPage teamId={team(p)} />],
  ['/t/:teamId/overview', (p) => <OverviewPage teamId={team(p)} />],
  ['/t/:teamId/events', (p) => <EventsPage teamId={team(p)} />],
  ['/t/:teamId/events/new', (p) => <EventFormPage key="new" teamId={team(p)} />],
  [
    '/t/:teamId/events/:eventId',
    (p) => <EventPage key={p.eventId} teamId={team(p)} eventId={p.eventId ?? ''} />,
  ],
  [
    '/t/:teamId/events/:eventId/edit',
    (p) => <EventFormPage key={p.eventId} teamId={team(p)} eventId={p.eventId ?? ''} />,
  ],
  ['/t/:teamId/crons', (p) => <CronsPage teamId={team(p)} />],
  ['/t/:teamId/crons/new', (p) => <CronFormPage key="new" teamId={team(p)} />],
  [
    '/t/:teamId/crons/:cronId',
    (p) => <CronFormPage key={p.cronId} teamId={team(p)} cronId={p.cronId ?? ''} />,
  ],
  ['/t/:teamId/destinations', (p) => <DestinationsPage teamId={team(p)} />],
  [
    '/t/:teamId/destinations/:origin',
    (p) => <DestinationPage key={p.origin} teamId={team(p)} origin={p.origin ?? ''} />,
  ],
  ['/t/:teamId/settings', (p) => <SettingsPage teamId={team(p)} />],
];

const LAST_TEAM = 'webhook-scheduler.team';
function homeOf(session: Session): string {
  const remembered = window.localStorage.getItem(LAST_TEAM);
  const chosen = session.teams.find((t) => t.id === remembered) ?? session.teams[0];
  return chosen ? `/t/${chosen.id}/overview` : '/teams/new';
}

// An unchanged session keeps its object, so that a background check re-renders nothing.
const sameSession = (a: Session, b: Session) => JSON.stringify(a) === JSON.stringify(b);

function SignedIn() {
  const { pathname } = useLocation();
  const { session } = useSession();
  if (pathname === '/teams/new') {
    return (
      <Shell teamId={undefined}>
        <NewTeamPage />
      </Shell>
    );
  }
  for (const [pattern, render] of TEAM_ROUTES) {
    const params = matchPath(pattern, pathname);
    if (!params) continue;
    const known = session.teams.some((t) => t.id === params.teamId);
    if (known) window.localStorage.setItem(LAST_TEAM, params.teamId ?? '');
    return (
      <Shell teamId={known ? params.teamId : undefined}>
        {known ? render(params) : <NotFound what="team" />}
      </Shell>
    );
  }
  return (
    <Shell teamId={undefined}>
      <NotFound what="page" />
    </Shell>
  );
}

/** The whole dashboard: the session decides between the sign-in pages and the app. */
export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const { pathname } = useLocation();

  const adopt = useCallback((next: Session | null) => {
    setCsrfToken(next?.csrf_token ?? '');
    setSession((current) => (current && next && sameSession(current, next) ? current : next));
  }, []);
  const refresh = useCallback(async () => {
    const response = await dashboardApi.session.get().catch(() => undefined);
    if (response?.status === 200) adopt(response.body.data);
    else if (response?.status === 401) adopt(null);
    // Any other failure keeps a session already there: a network blip must not sign the user out.
    else setSession((current) => current ?? null);
  }, [adopt]);

  // A 401 while signed in may mean the session ended: check it. Signed out (a wrong password on
  // the sign-in page), there is no session to check.
  const signedIn = useRef(false);
  useEffect(() => {
    signedIn.current = Boolean(session);
  }, [session]);
  useEffect(() => {
    void refresh();
    const onUnauthorized = () => {
      if (signedIn.current) void refresh();
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
  }, [refresh]);
  useSessionRefresh(Boolean(session), refresh, pathname);

  const state = useMemo<SessionState | undefined>(
    () =>
      session
        ? {
            session,
            refresh,
            signOut: async () => {
              await unwrap(dashboardApi.session.signOut(), 200).catch(() => undefined);
              adopt(null);
              navigate('/sign-in');
            },
          }
        : undefined,
    [session, refresh, adopt],
  );

  const isAuthPage = pathname === '/sign-in' || pathname === '/sign-up';
  // The pages of one-time links work signed in or out.
  const isLinkPage = pathname === '/invite' || pathname === '/reset-password';
  useEffect(() => {
    if (session === null && !isAuthPage && !isLinkPage) navigate('/sign-in', { replace: true });
    if (session && (isAuthPage || pathname === '/')) navigate(homeOf(session), { replace: true });
  }, [session, isAuthPage, isLinkPage, pathname]);

  if (session === undefined) return <Loading label="Loading the dashboard…" />;
  if (pathname === '/invite') return <InvitePage session={session} adopt={adopt} />;
  if (pathname === '/reset-password') return <ResetPasswordPage adopt={adopt} />;
  if (!state) return <AuthPage mode={pathname === '/sign-up' ? 'sign-up' : 'sign-in'} onSignedIn={adopt} />;
  return (
    <SessionContext.Provider value={state}>
      <SignedIn />
    </SessionContext.Provider>
  );
}
