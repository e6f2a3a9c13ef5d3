import type { Member } from '@webhook-scheduler/contract';
import { useCallback, useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { formatShort } from '../lib/format.js';
import { leaveBlocker } from '../lib/membership.js';
import { countOf } from '../lib/plural.js';
import { navigate } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';
import { useSession } from '../session.js';
import { ConfirmButton } from './confirm-button.js';
import { EmailRoleForm } from './email-role-form.js';
import { ErrorBanner, Loading, Notice } from './feedback.js';
import { InvitesSection } from './invites-section.js';

function AddMember({ teamId, onAdded }: { teamId: string; onAdded: () => void }) {
  return (
    <EmailRoleForm
      emailLabel="Add a member by email"
      hint="They need to have signed up already."
      roleLabel="Role"
      submitLabel="Add"
      send={(body) => unwrap(dashboardApi.members.add({ params: { teamId }, body }), 201).then(onAdded)}
    />
  );
}

/** Who is in the team. Owners add and remove members; anyone may leave. */
export function MembersSection({ teamId, isOwner }: { teamId: string; isOwner: boolean }) {
  const { session, refresh } = useSession();
  const load = useCallback(
    (signal: AbortSignal) =>
      unwrap(dashboardApi.members.list({ params: { teamId }, fetchOptions: { signal } }), 200),
    [teamId],
  );
  const members = useLoad(load);
  const [removed, setRemoved] = useState<string>();
  const remove = async (member: Member) => {
    const data = await unwrap(
      dashboardApi.members.remove({ params: { teamId, userId: member.user_id } }),
      200,
    );
    if (member.user_id === session.user.id) {
      await refresh();
      navigate('/');
      return;
    }
    const were = data.revoked_keys === 1 ? 'was' : 'were';
    setRemoved(
      `${member.email} was removed; ${countOf(data.revoked_keys, 'API key')} they created ${were} revoked.`,
    );
    members.reload();
  };

  return (
    <section className="card" id="members" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {removed ? <Notice tone="success">{removed}</Notice> : null}
      <ErrorBanner error={members.error} />
      {!members.data ? (
        members.error ? null : (
          <Loading />
        )
      ) : (
        <ul className="members">
          {members.data.map((member) => {
            const self = member.user_id === session.user.id;
            const cannotLeave = self ? leaveBlocker(members.data ?? [], member.user_id) : undefined;
            return (
              <li key={member.user_id}>
                <span className="member-email">
                  {member.email}
                  {self ? <span className="muted"> (you)</span> : null}
                </span>
                <span className={`badge badge-role-${member.role}`}>{member.role}</span>
                <span className="muted small">since {formatShort(member.joined_at)}</span>
                {cannotLeave ? (
                  <span className="muted small member-note" data-testid="cannot-leave">
                    {cannotLeave}
                  </span>
                ) : isOwner || self ? (
                  <ConfirmButton
                    small
                    label={self ? 'Leave' : 'Remove'}
                    title={self ? 'Leave this team?' : `Remove ${member.email}?`}
                    confirmLabel={self ? 'Leave team' : 'Remove member'}
                    onConfirm={() => remove(member)}
                  >
                    <p>
                      {self
                        ? 'You lose access to its crons, events and keys.'
                        : 'They lose access to this team, and the API keys they created are revoked.'}
                    </p>
                  </ConfirmButton>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {isOwner ? (
        <>
          <AddMember teamId={teamId} onAdded={members.reload} />
          <InvitesSection teamId={teamId} />
        </>
      ) : null}
    </section>
  );
}
