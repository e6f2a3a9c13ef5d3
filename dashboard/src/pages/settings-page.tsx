import { AlertsSection } from '../components/alerts-section.js';
import { CopyButton } from '../components/copy-button.js';
import { KeysSection } from '../components/keys-section.js';
import { LimitsSection } from '../components/limits-section.js';
import { MembersSection } from '../components/members-section.js';
import { SigningSecretSection } from '../components/signing-secret-section.js';
import { TracingSection } from '../components/tracing-section.js';
import { useTeamTitle } from '../lib/page-title.js';
import { useSession } from '../session.js';

const SECTIONS = [
  ['keys', 'API keys'],
  ['signing-secret', 'Signing secret'],
  ['alerts', 'Alerts'],
  ['tracing', 'Tracing'],
  ['members', 'Members'],
  ['limits', 'Limits and usage'],
] as const;

/**
 * Team settings: API keys, the signing secret, failure alerts, tracing, members, limits and usage, with a
 * list of the sections beside them (above them on a phone) that jumps to each.
 */
export function SettingsPage({ teamId }: { teamId: string }) {
  const { session } = useSession();
  const team = session.teams.find((t) => t.id === teamId);
  const isOwner = team?.role === 'owner';
  useTeamTitle(teamId, 'Settings');
  return (
    <section className="page">
      <header className="page-header">
        <h1>Settings of {team?.name ?? 'the team'}</h1>
      </header>
      <p className="muted">
        Team id <code>{teamId}</code> <CopyButton text={teamId} /> · your role: {team?.role}
      </p>
      <div className="settings-layout">
        <nav className="section-nav" aria-label="Settings sections">
          <ul>
            {SECTIONS.map(([id, label]) => (
              <li key={id}>
                <a href={`#${id}`}>{label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-sections">
          <KeysSection teamId={teamId} isOwner={isOwner} />
          <SigningSecretSection teamId={teamId} isOwner={isOwner} />
          <AlertsSection teamId={teamId} isOwner={isOwner} />
          <TracingSection teamId={teamId} isOwner={isOwner} />
          <MembersSection teamId={teamId} isOwner={isOwner} />
          <LimitsSection teamId={teamId} />
        </div>
      </div>
    </section>
  );
}
