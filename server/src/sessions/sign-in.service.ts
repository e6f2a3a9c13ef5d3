import type { EntityManager } from '@mikro-orm/postgresql';
import { clearThrottle, hitThrottle } from '../auth/throttle.service.js';
import type { AuthLimits } from '../auth/throttle.rules.js';
import { AppError } from '../errors.js';
import type { PasswordHasher } from '../users/password.js';
import { createUserWithTeam } from '../teams/accounts.service.js';
import { findUserByEmail, replacePasswordHash } from '../users/users.service.js';
import { type StartedSession, startSession } from './sessions.service.js';

/** What signing up and in need besides the database. */
export interface SignInDeps {
  passwords: PasswordHasher;
  limits: AuthLimits;
}

/** Who is asking: their email (lower-cased) and password, and the client address they ask from. */
export interface Attempt {
  email: string;
  password: string;
  address: string;
}

/** The one answer to a wrong email and to a wrong password, so neither reveals which emails exist. */
export const WRONG_CREDENTIALS = 'Email or password is incorrect.';

export async function signUp(
  em: EntityManager,
  attempt: Attempt,
  deps: SignInDeps,
  now: Date,
): Promise<StartedSession> {
  await hitThrottle(
    em,
    `sign-up:address:${attempt.address}`,
    deps.limits.signUpPerAddress,
    now,
    'Too many sign-ups from this address.',
  );
  const hash = await deps.passwords.hash(attempt.password);
  const user = await createUserWithTeam(em, attempt.email, hash, now);
  return startSession(em, user.id, now);
}

/**
 * Checks the credentials and starts a session. Every attempt counts against the email and the
 * client address before the password is checked, so concurrent guesses cannot slip past the limit;
 * an unknown email costs the same scrypt as a known one.
 */
export async function signIn(
  em: EntityManager,
  attempt: Attempt,
  deps: SignInDeps,
  now: Date,
): Promise<StartedSession> {
  const refusal = 'Too many sign-in attempts.';
  await hitThrottle(em, `sign-in:address:${attempt.address}`, deps.limits.signInPerAddress, now, refusal);
  const emailKey = `sign-in:email:${attempt.email}`;
  await hitThrottle(em, emailKey, deps.limits.signInPerEmail, now, refusal);
  const user = await findUserByEmail(em, attempt.email);
  const valid = user
    ? await deps.passwords.verify(attempt.password, user.passwordHash)
    : await deps.passwords.verifyNothing(attempt.password);
  if (!user || !valid) throw new AppError('UNAUTHORIZED', WRONG_CREDENTIALS);
  await clearThrottle(em, emailKey);
  if (deps.passwords.needsRehash(user.passwordHash)) {
    await replacePasswordHash(em, user, await deps.passwords.hash(attempt.password), now);
  }
  return startSession(em, user.id, now);
}
