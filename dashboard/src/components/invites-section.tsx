import type { Invite, TeamRole } from '@webhook-scheduler/contract';
import { useCallback, useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { formatShort } from '../lib/format.js';
import { inviteLink } from '../lib/link-token.js';
import { useLoad } from '../lib/use-load.js';
import { ConfirmButton } from './confirm-button.js';
import { CodeBlock } from './copy-button.js';
import { EmailRoleForm } from './email-role-form.js';
import { ErrorBanner } from './feedback.js';

/** The link of an invite just made: the only time its secret is shown. */
function NewInvite({ email, link }: { email: string; link: string }) {
  return (
    <div className="new-key" data-testid="invite-link">
      <p>
        <strong>Send this link to {email}.</strong> It is shown only this once, works once, for 7 days, and
        only for that email.
      </p>
      <CodeBlock code={link} label="Copy link" />
    </div>
  );
}

/** Owners invite people by email (a link to copy and send) and revoke invites still pending. */
export function InvitesSection({ teamId }: { teamId: string }) {
  const load = useCallback(
    (signal: AbortSignal) =>
      unwrap(dashboardApi.invites.list({ params: { teamId }, fetchOptions: { signal } }), 200),
    [teamId],
  );
  const invites = useLoad(load);
  const [created, setCreated] = useState<{ email: string; link: string }>();
  const create = async (body: { email: string; role: TeamRole }) => {
    const { invite, token } = await unwrap(dashboardApi.invites.create({ params: { teamId }, body }), 201);
    setCreated({ email: invite.email, link: inviteLink(window.location.origin, token) });
    invites.reload();
  };
  const revoke = async (invite: Invite) => {
    await unwrap(dashboardApi.invites.revoke({ params: { teamId, inviteId: invite.id } }), 200);
    invites.reload();
  };
  return (
    <div className="invites">
      <h3>Invite by email</h3>
      <EmailRoleForm
        emailLabel="Email to invite"
        hint="Whether or not they have an account: you get a link to send them."
        roleLabel="Invite as"
        submitLabel="Create invite link"
        send={create}
      />
      {created ? <NewInvite email={created.email} link={created.link} /> : null}
      <ErrorBanner error={invites.error} />
      {invites.data && invites.data.length > 0 ? (
        <ul className="members" aria-label="Pending invites">
          {invites.data.map((invite) => (
            <li key={invite.id}>
              <span className="member-email">{invite.email}</span>
              <span className={`badge badge-role-${invite.role}`}>{invite.role}</span>
              <span className="muted small">invited, until {formatShort(invite.expires_at)}</span>
              <ConfirmButton
                small
                label="Revoke"
                title={`Revoke the invite of ${invite.email}?`}
                confirmLabel="Revoke invite"
                onConfirm={() => revoke(invite)}
              >
                <p>Its link stops working at once.</p>
              </ConfirmButton>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
