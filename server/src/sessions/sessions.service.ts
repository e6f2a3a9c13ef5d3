import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { asDate, rawQuery } from '../shared/raw-query.js';
import {
  csrfTokenFor,
  generateSessionToken,
  hashSessionToken,
  isSessionUsable,
  looksLikeSessionToken,
  sessionExpiry,
  shouldTouchSession,
} from './session.rules.js';

/** A session just started: `token` goes in the cookie and nowhere else. */
export interface StartedSession {
  token: string;
  userId: string;
  expiresAt: Date;
}

/** A live session, as the request handlers see it. */
export interface SessionContext {
  sessionId: string;
  userId: string;
  csrfToken: string;
}

/** Starts a session for the user, and drops their expired ones. */
export async function startSession(em: EntityManager, userId: string, now: Date): Promise<StartedSession> {
  const token = generateSessionToken();
  const expiresAt = sessionExpiry(now, now);
  await rawQuery(em, 'delete from sessions where user_id = $1 and expires_at <= $2', [userId, now]);
  await rawQuery(
    em,
    `insert into sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at)
     values ($1, $2, $3, $4, $4, $5)`,
    [randomUUID(), userId, hashSessionToken(token), now, expiresAt],
  );
  return { token, userId, expiresAt };
}

interface SessionRow {
  id: string;
  user_id: string;
  created_at: string | Date;
  last_seen_at: string | Date;
  expires_at: string | Date;
}

/** The live session of a cookie's token, its idle expiry pushed back; undefined for any other token. */
export async function resumeSession(
  em: EntityManager,
  token: string,
  now: Date,
): Promise<SessionContext | undefined> {
  if (!looksLikeSessionToken(token)) return undefined;
  const [row] = await rawQuery<SessionRow>(
    em,
    'select id, user_id, created_at, last_seen_at, expires_at from sessions where token_hash = $1',
    [hashSessionToken(token)],
  );
  if (!row || !isSessionUsable({ expiresAt: asDate(row.expires_at) }, now)) return undefined;
  if (shouldTouchSession({ lastSeenAt: asDate(row.last_seen_at) }, now)) {
    await rawQuery(em, 'update sessions set last_seen_at = $2, expires_at = $3 where id = $1', [
      row.id,
      now,
      sessionExpiry(asDate(row.created_at), now),
    ]);
  }
  return { sessionId: row.id, userId: row.user_id, csrfToken: csrfTokenFor(token) };
}

export async function endSession(em: EntityManager, sessionId: string): Promise<void> {
  await rawQuery(em, 'delete from sessions where id = $1', [sessionId]);
}

/** Ends every session of the user (a new password signs every other browser out). */
export async function endUserSessions(em: EntityManager, userId: string): Promise<void> {
  await rawQuery(em, 'delete from sessions where user_id = $1', [userId]);
}
