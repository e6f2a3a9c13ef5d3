import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { Timestamp, Uuid, dataOf } from '../common.js';
import { Email, TeamParams, TeamRole } from './common.js';
import { LinkToken, MyTeam } from './session.js';

const c = initContract();

/** Most pending invites a team may have at once (403 `QUOTA_EXCEEDED`, quota `pending_invites`). */
export const MAX_PENDING_INVITES = 100;

/** How long an invite link works. */
export const INVITE_VALID_MS = 7 * 24 * 3600_000;

/** A pending invite of a team, as its owners see it: never the link's secret. */
export const Invite = z.object({
  id: Uuid,
  email: z.string().describe('The only email the invite can be used with.'),
  role: TeamRole,
  created_at: Timestamp,
  expires_at: Timestamp.describe('Seven days after it was made.'),
  invited_by: z.string().nullable().describe('The email of the owner who made it; null once they left.'),
});
/** A pending invite of a team. */
export type Invite = z.infer<typeof Invite>;

/** The body of an invite: who, and with which role they join. */
export const InviteInput = z.object({ email: Email, role: TeamRole.default('member') }).strict();
/** The body of an invite, as sent. */
export type InviteInput = z.input<typeof InviteInput>;

/** An invite just made: `token` is shown this once; the link is `<dashboard>/invite#<token>`. */
export const CreatedInvite = z.object({
  invite: Invite,
  token: z.string().describe('The secret of the invite link, stored only as a hash.'),
});
/** An invite just made. */
export type CreatedInvite = z.infer<typeof CreatedInvite>;

/** The body of the routes that use an invite link. */
export const InviteTokenInput = z.object({ token: LinkToken }).strict();
/** The body of the routes that use an invite link, as sent. */
export type InviteTokenInput = z.input<typeof InviteTokenInput>;

/** What the page of an invite link shows before it is used. */
export const InviteSummary = z.object({
  email: z.string(),
  team_name: z.string(),
  role: TeamRole,
  expires_at: Timestamp,
  account_exists: z
    .boolean()
    .describe('Whether the email has an account already: then sign in and accept, else sign up with it.'),
});
/** What the page of an invite link shows. */
export type InviteSummary = z.infer<typeof InviteSummary>;

const INVITE_PARAMS = TeamParams.extend({ inviteId: Uuid.describe('The invite id.') });

/**
 * Invites by email (docs/reference/behaviour.md#team-security): an owner makes a one-time link for one email, valid 7 days;
 * signing up with it, or signing in as that email and accepting it, joins the team.
 */
export const invitesContract = c.router({
  list: {
    method: 'GET',
    path: '/teams/:teamId/invites',
    pathParams: TeamParams,
    responses: { 200: dataOf(z.array(Invite)) },
    summary: 'List pending invites',
    description: 'Owners only. Invites neither used nor expired, newest first.',
  },
  create: {
    method: 'POST',
    path: '/teams/:teamId/invites',
    pathParams: TeamParams,
    body: InviteInput,
    responses: { 201: dataOf(CreatedInvite) },
    summary: 'Invite by email',
    description: `Owners only. Replaces a pending invite of the same email. 409 CONFLICT when the email is a member already; 403 QUOTA_EXCEEDED past ${MAX_PENDING_INVITES} pending invites.`,
  },
  revoke: {
    method: 'DELETE',
    path: '/teams/:teamId/invites/:inviteId',
    pathParams: INVITE_PARAMS,
    body: c.noBody(),
    responses: { 200: dataOf(z.object({ success: z.boolean() })) },
    summary: 'Revoke an invite',
    description: 'Owners only. Its link stops working at once.',
  },
  show: {
    method: 'POST',
    path: '/invites/show',
    body: InviteTokenInput,
    responses: { 200: dataOf(InviteSummary) },
    summary: 'Read an invite link',
    description:
      'Needs no session. A POST, so the secret never appears in a URL. An unknown, used or expired link is a 400 BAD_REQUEST with `details.reason`.',
  },
  accept: {
    method: 'POST',
    path: '/invites/accept',
    body: InviteTokenInput,
    responses: { 200: dataOf(MyTeam) },
    summary: 'Accept an invite',
    description:
      'The signed-in user joins the invite’s team; the invite must be for their email (else 403 FORBIDDEN). 409 CONFLICT when they are in the team already; 403 QUOTA_EXCEEDED when they belong to as many teams as the service allows.',
  },
});
