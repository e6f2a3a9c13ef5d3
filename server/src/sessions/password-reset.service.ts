import type { EntityManager } from '@mikro-orm/postgresql';
import { clearThrottle } from '../auth/throttle.service.js';
import { AppError } from '../errors.js';
import type { PasswordHasher } from '../users/password.js';
import { checkPasswordReset, usePasswordReset } from '../users/password-resets.service.js';
import { findUser, replacePasswordHash } from '../users/user-store.js';
import { type StartedSession, endUserSessions, startSession } from './sessions.service.js';
import { signInEmailKey } from './sign-in.service.js';

/**
 * Sets a new password from a one-time link and signs the user in, ending every other session of
 * theirs in the same transaction. The link is checked before the new password is hashed, so a bad
 * link costs no scrypt.
 */
export async function resetPassword(
  em: EntityManager,
  input: { token: string; password: string },
  passwords: PasswordHasher,
  now: Date,
): Promise<StartedSession> {
  await checkPasswordReset(em, input.token, now);
  const hash = await passwords.hash(input.password);
  const { session, email } = await em.transactional(async (tx) => {
    const userId = await usePasswordReset(tx, input.token, now);
    const user = await findUser(tx, userId);
    // The link's row goes with its user, so a user deleted since the check leaves an unknown link.
    if (!user) throw new AppError('BAD_REQUEST', 'This password reset link is not valid.');
    await replacePasswordHash(tx, user, hash, now);
    await endUserSessions(tx, userId);
    return { session: await startSession(tx, userId, now), email: user.email };
  });
  // A new password is a fresh start for the sign-in attempts of its email.
  await clearThrottle(em, signInEmailKey(email));
  return session;
}
