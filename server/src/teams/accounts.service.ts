import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, ConflictError, ValidationError } from '../errors.js';
import { isUniqueViolation } from '../shared/raw-query.js';
import { type UserView, createUser, findUser, findUserByEmail } from '../users/user-store.js';
import { type MyTeamRow, insertMember, listMyTeams } from './member-store.js';
import { firstTeamName } from './membership.rules.js';
import { useInvite } from './invites.service.js';
import { createTeam } from './teams.service.js';

/** A user's account: the user with the teams they belong to, from sign-up on. */

// Without email verification, sign-up cannot hide that an address is taken; the message at least
// points to sign-in, and sign-ups are rate-limited per client address.
const TAKEN = 'Could not sign up with this email. If you already have an account, sign in instead.';

/** Creates a user in one transaction with what `then` adds; an email in use is a 409 CONFLICT. */
async function createUserAnd(
  em: EntityManager,
  email: string,
  passwordHash: string,
  now: Date,
  then: (tx: EntityManager, user: UserView) => Promise<void>,
): Promise<UserView> {
  try {
    return await em.transactional(async (tx) => {
      if (await findUserByEmail(tx, email)) throw new ConflictError(TAKEN);
      const user = await createUser(tx, email, passwordHash, now);
      await then(tx, user);
      return user;
    });
  } catch (error) {
    // Two sign-ups with one email at once: the unique index decides.
    if (isUniqueViolation(error)) throw new ConflictError(TAKEN);
    throw error;
  }
}

/** Creates a user and a first team they own, in one transaction. */
export async function createUserWithTeam(em: EntityManager, email: string, passwordHash: string, now: Date) {
  return createUserAnd(em, email, passwordHash, now, async (tx, user) => {
    const team = await createTeam(tx, firstTeamName(email), now);
    await insertMember(tx, { teamId: team.id, userId: user.id, role: 'owner', createdAt: now });
  });
}

/**
 * Creates a user who joins the team of an invite link made for their email, and uses the link, in
 * one transaction. A new user belongs to no team yet, so the teams quota needs no count.
 */
export async function createUserFromInvite(
  em: EntityManager,
  email: string,
  passwordHash: string,
  token: string,
  now: Date,
): Promise<UserView> {
  const otherEmail = (inviteEmail: string) =>
    new ValidationError([
      { path: ['email'], message: `this invite is for ${inviteEmail}: sign up with that email` },
    ]);
  return createUserAnd(em, email, passwordHash, now, async (tx, user) => {
    const team = await useInvite(tx, token, email, otherEmail, now);
    await insertMember(tx, { teamId: team.id, userId: user.id, role: team.role, createdAt: now });
  });
}

/** Creates a user without a team (the command line's `users create`). */
export async function createUserAlone(em: EntityManager, email: string, passwordHash: string, now: Date) {
  return createUserAnd(em, email, passwordHash, now, async () => {});
}

/** A signed-in user and the teams they belong to. */
export async function userWithTeams(
  em: EntityManager,
  userId: string,
): Promise<{ user: UserView; teams: MyTeamRow[] }> {
  const user = await findUser(em, userId);
  // The session was just checked; a user deleted since then is signed out like an expired session.
  if (!user) throw new AppError('UNAUTHORIZED', 'Sign in to continue.');
  return { user, teams: await listMyTeams(em, userId) };
}
