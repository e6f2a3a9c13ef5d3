import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { usableLink } from '../shared/one-time-link.js';
import { rawQuery } from '../shared/raw-query.js';
import { generateSecretToken, hashSecretToken } from '../shared/secret-token.js';

// password_resets is read and written here only, in bound SQL: using a link is one locked read
// and one update in the caller's transaction.

/** How long the link of `users reset-password` works. */
export const RESET_LINK_VALID_MS = 3600_000;
/** How long the link of `users create` works: the new user may not read it at once. */
export const NEW_ACCOUNT_LINK_VALID_MS = 7 * 24 * 3600_000;

/**
 * Makes a one-time link that sets the user's password, valid `validMs`. Only the newest link of a
 * user works: making one drops the others not used yet.
 */
export async function createPasswordResetLink(
  em: EntityManager,
  userId: string,
  validMs: number,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const token = generateSecretToken();
  const expiresAt = new Date(now.getTime() + validMs);
  await em.transactional(async (tx) => {
    await rawQuery(
      tx,
      'delete from password_resets where user_id = $1 and (used_at is null or expires_at <= $2)',
      [userId, now],
    );
    await rawQuery(
      tx,
      `insert into password_resets (id, user_id, token_hash, created_at, expires_at)
       values ($1, $2, $3, $4, $5)`,
      [randomUUID(), userId, hashSecretToken(token), now, expiresAt],
    );
  });
  return { token, expiresAt };
}

interface ResetRow {
  id: string;
  user_id: string;
  used_at: Date | string | null;
  expires_at: Date | string;
}

const SELECT = 'select id, user_id, used_at, expires_at from password_resets where token_hash = $1';

/** The user a reset link is for; 400 BAD_REQUEST (`details.reason`) when it cannot be used. */
export async function checkPasswordReset(em: EntityManager, token: string, now: Date): Promise<string> {
  return (await usableLink<ResetRow>(em, SELECT, token, 'password reset link', now)).user_id;
}

/** Uses a reset link inside `tx` (locked, so it works once however many use it at once): its user. */
export async function usePasswordReset(tx: EntityManager, token: string, now: Date): Promise<string> {
  const row = await usableLink<ResetRow>(tx, `${SELECT} for update`, token, 'password reset link', now);
  await rawQuery(tx, 'update password_resets set used_at = $2 where id = $1', [row.id, now]);
  return row.user_id;
}
