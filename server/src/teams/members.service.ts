import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { TeamRole } from '@webhook-scheduler/contract';
import { asDate, rawQuery } from '../shared/raw-query.js';
import { AppError, NotFoundError, QuotaExceededError, ValidationError } from '../errors.js';
import { quotaRefusal } from '../limits/limits.rules.js';
import { lockUserMemberships } from '../limits/quota-locks.js';
import { emailOfUser } from '../users/user-fragments.js';
import { findUserByEmail } from '../users/users.service.js';
import {
  type MembershipRefusal,
  addMemberRefusal,
  ownerOnlyRefusal,
  removeMemberRefusal,
} from './membership.rules.js';
import { TeamMemberSchema } from './team-member.entity.js';
import { TeamSchema } from './team.entity.js';
import { createTeam } from './teams.service.js';

/** A team as its member sees it. */
export interface MyTeamRow {
  id: string;
  name: string;
  role: TeamRole;
  createdAt: Date;
}

/** A member as the team sees them. */
export interface MemberRow {
  userId: string;
  email: string;
  role: TeamRole;
  joinedAt: Date;
}

function refuse(refusal: MembershipRefusal | undefined): void {
  if (refusal) throw new AppError(refusal.code, refusal.message);
}

export async function listMyTeams(em: EntityManager, userId: string): Promise<MyTeamRow[]> {
  const rows = await rawQuery<{ id: string; name: string; role: TeamRole; created_at: string }>(
    em,
    `select t.id, t.name, m.role, t.created_at from team_members m join teams t on t.id = m.team_id
     where m.user_id = $1 order by t.created_at, t.id`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    createdAt: asDate(row.created_at),
  }));
}

/** The user's role in the team, or undefined when they are not in it. */
export async function memberRole(
  em: EntityManager,
  userId: string,
  teamId: string,
): Promise<TeamRole | undefined> {
  const [row] = await rawQuery<{ role: TeamRole }>(
    em,
    'select role from team_members where user_id = $1 and team_id = $2',
    [userId, teamId],
  );
  return row?.role;
}

/** The user's role in the team; a team they are not in is answered as not found. */
export async function roleIn(em: EntityManager, userId: string, teamId: string): Promise<TeamRole> {
  const member = await em.findOne(TeamMemberSchema, { teamId, userId });
  if (!member) throw new NotFoundError('Team');
  return member.role;
}

/** Refuses with 403 unless the user owns the team. */
export async function requireOwner(em: EntityManager, userId: string, teamId: string, action: string) {
  refuse(ownerOnlyRefusal(await roleIn(em, userId, teamId), action));
}

/**
 * Refuses with 403 QUOTA_EXCEEDED when the user already belongs to `maxTeams` teams. Exact under
 * concurrency: it takes the user's membership lock (the transaction's last lock) before counting,
 * so the transaction must add the membership after it and take no other lock.
 */
export async function requireRoomForTeam(tx: EntityManager, userId: string, maxTeams: number): Promise<void> {
  await lockUserMemberships(tx, userId);
  const refusal = quotaRefusal('teams', maxTeams, await tx.count(TeamMemberSchema, { userId }));
  if (refusal) throw new QuotaExceededError(refusal.message, refusal.details);
}

/** Creates a team owned by the user, unless they belong to `maxTeams` teams already. */
export async function createTeamFor(
  em: EntityManager,
  userId: string,
  name: string,
  maxTeams: number,
  now: Date,
): Promise<MyTeamRow> {
  return em.transactional(async (tx) => {
    await requireRoomForTeam(tx, userId, maxTeams);
    const team = await createTeam(tx, name, now);
    tx.create(TeamMemberSchema, { teamId: team.id, userId, role: 'owner', createdAt: now });
    await tx.flush();
    return { id: team.id, name: team.name, role: 'owner', createdAt: team.createdAt };
  });
}

async function membersOf(em: EntityManager, teamId: string): Promise<MemberRow[]> {
  const rows = await rawQuery<{ user_id: string; email: string; role: TeamRole; created_at: string }>(
    em,
    `select m.user_id, ${emailOfUser('m.user_id')} as email, m.role, m.created_at from team_members m
     where m.team_id = $1 order by m.role = 'owner' desc, m.created_at, email`,
    [teamId],
  );
  return rows.map((row) => ({
    userId: row.user_id,
    email: row.email,
    role: row.role,
    joinedAt: asDate(row.created_at),
  }));
}

export async function listMembers(em: EntityManager, userId: string, teamId: string): Promise<MemberRow[]> {
  await roleIn(em, userId, teamId);
  return membersOf(em, teamId);
}

/** Adds an existing user to the team (owners only), unless they belong to `maxTeams` teams already. */
export async function addMember(
  em: EntityManager,
  actorId: string,
  teamId: string,
  input: { email: string; role: TeamRole },
  maxTeams: number,
  now: Date,
): Promise<MemberRow> {
  return em.transactional(async (tx) => {
    const actorRole = await roleIn(tx, actorId, teamId);
    refuse(ownerOnlyRefusal(actorRole, 'add members'));
    const user = await findUserByEmail(tx, input.email);
    if (!user) {
      throw new ValidationError([
        { path: ['email'], message: 'no account uses this email yet: ask them to sign up, then add them' },
      ]);
    }
    const existing = await tx.findOne(TeamMemberSchema, { teamId, userId: user.id });
    refuse(addMemberRefusal(actorRole, existing?.role));
    await requireRoomForTeam(tx, user.id, maxTeams);
    tx.create(TeamMemberSchema, { teamId, userId: user.id, role: input.role, createdAt: now });
    await tx.flush();
    return { userId: user.id, email: user.email, role: input.role, joinedAt: now };
  });
}

/**
 * Removes a member and revokes the API keys they created in the team, in one transaction; returns
 * how many keys were revoked. The team row is locked first, so two owners removing each other at
 * once cannot leave the team without an owner.
 */
export async function removeMember(
  em: EntityManager,
  actorId: string,
  teamId: string,
  targetId: string,
  now: Date,
): Promise<{ revokedKeyHashes: string[] }> {
  return em.transactional(async (tx) => {
    const actorRole = await roleIn(tx, actorId, teamId);
    await tx.findOne(TeamSchema, { id: teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const target = await tx.findOne(TeamMemberSchema, { teamId, userId: targetId });
    if (!target) throw new NotFoundError('Member');
    const ownerCount = await tx.count(TeamMemberSchema, { teamId, role: 'owner' });
    refuse(removeMemberRefusal({ actorId, actorRole, targetId, targetRole: target.role, ownerCount }));
    tx.remove(target);
    await tx.flush();
    const revoked = await rawQuery<{ key_hash: string }>(
      tx,
      `update api_keys set revoked_at = $3 where team_id = $1 and created_by = $2 and revoked_at is null
       returning key_hash`,
      [teamId, targetId, now],
    );
    return { revokedKeyHashes: revoked.map((row) => row.key_hash) };
  });
}

/**
 * Makes the user with this email an owner of the team (for teams made by the CLI); one who is not
 * in it yet joins it unless they belong to `maxTeams` teams already.
 */
export async function addOwnerByEmail(
  em: EntityManager,
  teamId: string,
  email: string,
  maxTeams: number,
  now: Date,
): Promise<MemberRow | undefined> {
  return em.transactional(async (tx) => {
    const team = await tx.findOne(TeamSchema, { id: teamId });
    if (!team) throw new NotFoundError('Team');
    const user = await findUserByEmail(tx, email);
    if (!user) return undefined;
    const member = await tx.findOne(TeamMemberSchema, { teamId, userId: user.id });
    if (member) member.role = 'owner';
    else {
      await requireRoomForTeam(tx, user.id, maxTeams);
      tx.create(TeamMemberSchema, { teamId, userId: user.id, role: 'owner', createdAt: now });
    }
    await tx.flush();
    return { userId: user.id, email: user.email, role: 'owner', joinedAt: member?.createdAt ?? now };
  });
}
