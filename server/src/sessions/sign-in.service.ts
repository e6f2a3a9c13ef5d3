import type { EntityManager } from '@mikro-orm/postgresql';
import { clearThrottle, hitThrottle } from '../auth/throttle.service.js';
import type { AuthLimits } from '../auth/throttle.rules.js';
import type { AccountPolicy } from '../config.js';
import { AppError, ForbiddenError } from '../errors.js';
import type { PasswordHasher } from '../users/password.js';
import { createUserFromInvite, createUserWithTeam } from '../teams/accounts.service.js';
import { showInvite } from '../teams/invites.service.js';
import { signUpRefusal } from './sign-up.rules.js';
import { findUserByEmail, replacePasswordHash } from '../users/user-store.js';
import { type StartedSession, startSession } from './sessions.service.js';

/** What signing up and in need besides the database. */
export interface SignInDeps {
  passwords: PasswordHasher;
  limits: AuthLimits;
  /** Who may sign up, and how many teams a user may belong to. */
  accounts: AccountPolicy;
}

/** Who is asking: their email (lower-cased) and password, and the client address they ask from. */
export interface Attempt {
  email: string;
  password: string;
  address: string;
}

/** The throttle key of an email's sign-in attempts. */
export const signInEmailKey = (email: string) => `sign-in:email:${email}`;

/** The one answer to a wrong email and to a wrong password, so neither reveals which emails exist. */
export const WRONG_CREDENTIALS = 'Email or password is incorrect.';

/**
 * Creates an account as the sign-up mode allows: with an invite link the user joins its team,
 * without one they get a team of their own. The mode is checked before anything is counted, the
 * invite before the password is hashed.
 */
export async function signUp(
  em: EntityManager,
  attempt: Attempt & { invite?: string | undefined },
  deps: SignInDeps,
  now: Date,
): Promise<StartedSession> {
  const refusal = signUpRefusal(deps.accounts.signUp, attempt.invite !== undefined);
  if (refusal) throw new ForbiddenError(refusal);
  await hitThrottle(
    em,
    `sign-up:address:${attempt.address}`,
    deps.limits.signUpPerAddress,
    now,
    'Too many sign-ups from this address.',
  );
  const { invite } = attempt;
  if (invite !== undefined) await showInvite(em, invite, now);
  const hash = await deps.passwords.hash(attempt.password);
  const user =
    invite === undefined
      ? await createUserWithTeam(em, attempt.email, hash, now)
      : await createUserFromInvite(em, attempt.email, hash, invite, now);
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
  const emailKey = signInEmailKey(attempt.email);
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
