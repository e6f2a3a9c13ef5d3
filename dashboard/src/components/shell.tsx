import type { ReactNode } from 'react';
import { Link, navigate, useLocation } from '../lib/router.js';
import { useSession } from '../session.js';

const SECTIONS = [
  ['overview', 'Overview'],
  ['events', 'Events'],
  ['crons', 'Crons'],
  // The soft hyphen lets the word break in the phone's bar of six sections.
  ['destinations', 'Desti\u00ADnations'],
  ['settings', 'Settings'],
] as const;

function TeamSwitcher({ teamId, section }: { teamId: string | undefined; section: string }) {
  const { session } = useSession();
  const change = (value: string) => {
    if (value === 'new') navigate('/teams/new');
    else navigate(`/t/${value}/${section}`);
  };
  return (
    <label className="team-switcher">
      <span className="visually-hidden">Team</span>
      <select value={teamId ?? 'new'} onChange={(event) => change(event.target.value)}>
        {session.teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
        <option value="new">+ New team…</option>
      </select>
    </label>
  );
}

/**
 * The frame of every signed-in page, in one row: brand, the team's sections, the team switcher and
 * the user. On a phone the sections move to a bar at the bottom of the screen, the API reference
 * with them.
 */
export function Shell({ teamId, children }: { teamId: string | undefined; children: ReactNode }) {
  const { session, signOut } = useSession();
  const { pathname } = useLocation();
  const base = `/t/${teamId ?? ''}`;
  const section = SECTIONS.find(([key]) => pathname.startsWith(`${base}/${key}`))?.[0] ?? 'overview';
  return (
    <div className={`shell${teamId ? ' with-sections' : ''}`}>
      <header className="topbar">
        <Link to="/" className="brand">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          <span>Webhook Scheduler</span>
        </Link>
        {teamId ? (
          <nav className="tabs" aria-label="Sections">
            {SECTIONS.map(([key, label]) => (
              <Link key={key} to={`${base}/${key}`} aria-current={key === section ? 'page' : undefined}>
                {label}
              </Link>
            ))}
            <a href="/docs" className="tabs-docs" aria-label="API reference">
              API<span className="tabs-long">reference</span>
            </a>
          </nav>
        ) : null}
        <div className="topbar-end">
          <TeamSwitcher teamId={teamId} section={section} />
          <span className="user-email" title={session.user.email}>
            {session.user.email}
          </span>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main className="content">{children}</main>
    </div>
  );
}
