import type { EntityManager } from '@mikro-orm/postgresql';
import type { TeamRole } from '@webhook-scheduler/contract';
import { AppError, NotFoundError, QuotaExceededError, ValidationError } from '../errors.js';
import { quotaRefusal } from '../limits/limits.rules.js';
import { lockUserMemberships } from '../limits/quota-locks.js';
import { findUserByEmail } from '../users/user-store.js';
import { revokeKeysCreatedBy } from './api-key-store.js';
import {
  type MemberRow,
  type MyTeamRow,
  countOwners,
  countTeamsOf,
  deleteMember,
  findMember,
  insertMember,
  memberRole,
  membersOf,
  setMemberRole,
} from './member-store.js';
import {
  type MembershipRefusal,
  addMemberRefusal,
  ownerOnlyRefusal,
  removeMemberRefusal,
} from './membership.rules.js';
import { findTeam } from './team-store.js';
import { createTeam, requireTeam } from './teams.service.js';

// Reads that are one statement of the store, for the routers, the API's auth and the DTOs.

function refuse(refusal: MembershipRefusal | undefined): void {
  if (refusal) throw new AppError(refusal.code, refusal.message);
}

/** The user's role in the team; a team they are not in is answered as not found. */
export async function roleIn(em: EntityManager, userId: string, teamId: string): Promise<TeamRole> {
  const role = await memberRole(em, userId, teamId);
  if (!role) throw new NotFoundError('Team');
  return role;
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
  const refusal = quotaRefusal('teams', maxTeams, await countTeamsOf(tx, userId));
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
    await insertMember(tx, { teamId: team.id, userId, role: 'owner', createdAt: now });
    return { id: team.id, name: team.name, role: 'owner', createdAt: team.createdAt };
  });
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
    refuse(addMemberRefusal(actorRole, await memberRole(tx, user.id, teamId)));
    await requireRoomForTeam(tx, user.id, maxTeams);
    await insertMember(tx, { teamId, userId: user.id, role: input.role, createdAt: now });
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
    await findTeam(tx, teamId, 'update');
    const targetRole = await memberRole(tx, targetId, teamId);
    if (!targetRole) throw new NotFoundError('Member');
    const ownerCount = await countOwners(tx, teamId);
    refuse(removeMemberRefusal({ actorId, actorRole, targetId, targetRole, ownerCount }));
    await deleteMember(tx, teamId, targetId);
    return { revokedKeyHashes: await revokeKeysCreatedBy(tx, teamId, targetId, now) };
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
    await requireTeam(tx, teamId);
    const user = await findUserByEmail(tx, email);
    if (!user) return undefined;
    const member = await findMember(tx, teamId, user.id);
    if (!member) {
      await requireRoomForTeam(tx, user.id, maxTeams);
      await insertMember(tx, { teamId, userId: user.id, role: 'owner', createdAt: now });
    } else if (member.role !== 'owner') await setMemberRole(tx, teamId, user.id, 'owner');
    return { userId: user.id, email: user.email, role: 'owner', joinedAt: member?.createdAt ?? now };
  });
}
