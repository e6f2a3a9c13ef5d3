import type { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestError } from '../errors.js';
import { type LinkKind, linkRefusal, linkRefusalMessage } from './one-time-link.rules.js';
import { asDate, asDateOrNull, rawQuery } from './raw-query.js';
import { hashSecretToken, looksLikeSecretToken } from './secret-token.js';

/** The columns every stored one-time link has. */
export interface LinkColumns {
  used_at: Date | string | null;
  expires_at: Date | string;
}

/**
 * The stored link of `token`, read by `select` (its one parameter is the token's hash), when it
 * can be used at `now`; otherwise 400 BAD_REQUEST saying why, with `details.reason`.
 */
export async function usableLink<T extends LinkColumns>(
  em: EntityManager,
  select: string,
  token: string,
  kind: LinkKind,
  now: Date,
): Promise<T> {
  const [row] = looksLikeSecretToken(token) ? await rawQuery<T>(em, select, [hashSecretToken(token)]) : [];
  const stored = row && {
    usedAt: asDateOrNull(row.used_at),
    expiresAt: asDate(row.expires_at),
  };
  const reason = linkRefusal(stored, now);
  if (reason || !row) {
    const why = reason ?? 'unknown';
    throw new BadRequestError(linkRefusalMessage(kind, why), { reason: why });
  }
  return row;
}
