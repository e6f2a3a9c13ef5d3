import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  INVITE_VALID_MS,
  MAX_PENDING_INVITES,
  type SignUpMode,
  type TeamRole,
} from '@webhook-scheduler/contract';
import {
  AppError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  QuotaExceededError,
  ValidationError,
} from '../errors.js';
import { quotaRefusal } from '../limits/limits.rules.js';
import { lockTeamQuotas } from '../limits/quota-locks.js';
import { usableLink } from '../shared/one-time-link.js';
import { asDate, rawQuery } from '../shared/raw-query.js';
import { generateSecretToken, hashSecretToken } from '../shared/secret-token.js';
import { accountExists, emailOfUser } from '../users/user-fragments.js';
import { findUser, findUserByEmail } from '../users/user-store.js';
import { type MyTeamRow, insertMember, memberRole } from './member-store.js';
import { requireOwner, requireRoomForTeam } from './members.service.js';

// team_invites is read and written here only: using a link is one conditional statement under a
// row lock.

/** A pending invite as its team's owners see it. */
export interface InviteView {
  id: string;
  email: string;
  role: TeamRole;
  createdAt: Date;
  expiresAt: Date;
  invitedBy: string | null;
}

interface InviteRow {
  id: string;
  team_id: string;
  email: string;
  role: TeamRole;
  created_at: Date | string;
  expires_at: Date | string;
  used_at: Date | string | null;
  invited_by_email: string | null;
}

const SELECT = `select i.id, i.team_id, i.email, i.role, i.created_at, i.expires_at, i.used_at,
  ${emailOfUser('i.invited_by')} as invited_by_email from team_invites i`;

function toView(row: InviteRow): InviteView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: asDate(row.created_at),
    expiresAt: asDate(row.expires_at),
    invitedBy: row.invited_by_email,
  };
}

/** The team's invites neither used nor expired, newest first (owners only). */
export async function listInvites(em: EntityManager, actorId: string, teamId: string, now: Date) {
  await requireOwner(em, actorId, teamId, 'see invites');
  const rows = await rawQuery<InviteRow>(
    em,
    `${SELECT} where i.team_id = $1 and i.used_at is null and i.expires_at > $2
     order by i.created_at desc, i.id desc`,
    [teamId, now],
  );
  return rows.map(toView);
}

/**
 * Makes a one-time link for one email, valid 7 days, replacing a pending invite of that email
 * (owners only). At most MAX_PENDING_INVITES wait at once: the count runs under the team's quota
 * lock, after which the transaction only sweeps and writes the team's own invites.
 */
export async function createInvite(
  em: EntityManager,
  actorId: string,
  teamId: string,
  input: { email: string; role: TeamRole },
  signUp: SignUpMode,
  now: Date,
): Promise<{ invite: InviteView; token: string }> {
  return em.transactional(async (tx) => {
    await requireOwner(tx, actorId, teamId, 'invite members');
    const user = await findUserByEmail(tx, input.email);
    if (user && (await memberRole(tx, user.id, teamId)))
      throw new ConflictError(`${input.email} is a member of this team already.`);
    if (!user && signUp === 'closed') {
      throw new ValidationError([
        {
          path: ['email'],
          message: 'no account uses this email, and sign-up is closed: the operator creates accounts',
        },
      ]);
    }
    await lockTeamQuotas(tx, teamId);
    await rawQuery(
      tx,
      `delete from team_invites where team_id = $1
       and (expires_at <= $3 or (email = $2 and used_at is null))`,
      [teamId, input.email, now],
    );
    const [pending] = await rawQuery<{ n: string }>(
      tx,
      'select count(*) as n from team_invites where team_id = $1 and used_at is null',
      [teamId],
    );
    const refusal = quotaRefusal('pending_invites', MAX_PENDING_INVITES, Number(pending?.n ?? 0));
    if (refusal) throw new QuotaExceededError(refusal.message, refusal.details);
    const token = generateSecretToken();
    const id = randomUUID();
    await rawQuery(
      tx,
      `insert into team_invites (id, team_id, email, role, token_hash, invited_by, created_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, teamId, input.email, input.role, hashSecretToken(token), actorId, now, invitesExpiry(now)],
    );
    const [row] = await rawQuery<InviteRow>(tx, `${SELECT} where i.id = $1`, [id]);
    if (!row) throw new Error('the invite just inserted is gone');
    return { invite: toView(row), token };
  });
}

const invitesExpiry = (now: Date) => new Date(now.getTime() + INVITE_VALID_MS);

/** Revokes a pending invite (owners only): its link stops working at once. */
export async function revokeInvite(em: EntityManager, actorId: string, teamId: string, inviteId: string) {
  await requireOwner(em, actorId, teamId, 'revoke invites');
  const deleted = await rawQuery<{ id: string }>(
    em,
    'delete from team_invites where id = $1 and team_id = $2 and used_at is null returning id',
    [inviteId, teamId],
  );
  if (deleted.length === 0) throw new NotFoundError('Invite');
}

interface LinkRow extends InviteRow {
  team_name: string;
  team_created_at: Date | string;
  account_exists: boolean;
}

/** The invite of a link with its team; 400 BAD_REQUEST (`details.reason`) when it cannot be used. */
function usableInvite(em: EntityManager, token: string, now: Date, lock: boolean): Promise<LinkRow> {
  const select = `select i.id, i.team_id, i.email, i.role, i.created_at, i.expires_at, i.used_at,
      null as invited_by_email, t.name as team_name, t.created_at as team_created_at,
      ${accountExists('i.email')} as account_exists
    from team_invites i join teams t on t.id = i.team_id
    where i.token_hash = $1 ${lock ? 'for update of i' : ''}`;
  return usableLink<LinkRow>(em, select, token, 'invite link', now);
}

/** What the page of an invite link shows: for whom, which team, and whether to sign up or sign in. */
export async function showInvite(em: EntityManager, token: string, now: Date) {
  const row = await usableInvite(em, token, now, false);
  return {
    email: row.email,
    teamName: row.team_name,
    role: row.role,
    expiresAt: asDate(row.expires_at),
    accountExists: row.account_exists,
  };
}

/**
 * Uses the invite of a link inside `tx`, for `email` only: locks it, checks it, and marks it used.
 * A link for another email is refused with `mismatch`'s error. Returns the team and role it gives.
 */
export async function useInvite(
  tx: EntityManager,
  token: string,
  email: string,
  mismatch: (inviteEmail: string) => Error,
  now: Date,
): Promise<MyTeamRow> {
  const row = await usableInvite(tx, token, now, true);
  if (row.email !== email) throw mismatch(row.email);
  await rawQuery(tx, 'update team_invites set used_at = $2 where id = $1', [row.id, now]);
  return { id: row.team_id, name: row.team_name, role: row.role, createdAt: asDate(row.team_created_at) };
}

/** The signed-in user joins the team of an invite made for their email. */
export async function acceptInvite(
  em: EntityManager,
  userId: string,
  token: string,
  maxTeams: number,
  now: Date,
): Promise<MyTeamRow> {
  return em.transactional(async (tx) => {
    const user = await findUser(tx, userId);
    if (!user) throw new AppError('UNAUTHORIZED', 'Sign in to continue.');
    const otherEmail = (inviteEmail: string) =>
      new ForbiddenError(
        `This invite is for ${inviteEmail}, and you are signed in as ${user.email}: sign out, then open the link again.`,
      );
    const team = await useInvite(tx, token, user.email, otherEmail, now);
    if (await memberRole(tx, userId, team.id))
      throw new ConflictError('You are a member of this team already.');
    await requireRoomForTeam(tx, userId, maxTeams);
    await insertMember(tx, { teamId: team.id, userId, role: team.role, createdAt: now });
    return team;
  });
}
