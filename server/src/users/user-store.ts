import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { asDate, placeholders, rawQuery } from '../shared/raw-query.js';

/**
 * The `users` table, in bound SQL like every statement on it. Other owners show a user's email
 * through user-fragments.ts.
 */

/** A user as others show them: never the password hash. A {@link User} is one. */
export interface UserView {
  id: string;
  email: string;
  createdAt: Date;
}

/** A user as stored. */
export interface User extends UserView {
  passwordHash: string;
  updatedAt: Date;
}

interface UserRecord {
  id: string;
  email: string;
  password_hash: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = [
  'id',
  'email',
  'password_hash',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof UserRecord)[];

const USER_COLUMNS = COLUMNS.join(', ');

const toUser = (row: UserRecord): User => ({
  id: row.id,
  email: row.email,
  passwordHash: row.password_hash,
  createdAt: asDate(row.created_at),
  updatedAt: asDate(row.updated_at),
});

async function findUserWhere(em: EntityManager, column: 'id' | 'email', value: string): Promise<User | null> {
  const [row] = await rawQuery<UserRecord>(em, `select ${USER_COLUMNS} from users where ${column} = $1`, [
    value,
  ]);
  return row ? toUser(row) : null;
}

export function findUserByEmail(em: EntityManager, email: string): Promise<User | null> {
  return findUserWhere(em, 'email', email);
}

export function findUser(em: EntityManager, id: string): Promise<User | null> {
  return findUserWhere(em, 'id', id);
}

/**
 * Creates a user in `em` (the caller's transaction, when it has one): an email in use fails here on
 * the unique index, with `pg`'s error (isUniqueViolation in shared/raw-query.ts).
 */
export async function createUser(
  em: EntityManager,
  email: string,
  passwordHash: string,
  now: Date,
): Promise<User> {
  const user: User = { id: randomUUID(), email, passwordHash, createdAt: now, updatedAt: now };
  const sql = `insert into users (${USER_COLUMNS}) values (${placeholders(COLUMNS.length)})`;
  await rawQuery(em, sql, [user.id, user.email, user.passwordHash, user.createdAt, user.updatedAt]);
  return user;
}

export async function replacePasswordHash(
  em: EntityManager,
  user: Pick<User, 'id'>,
  hash: string,
  now: Date,
): Promise<void> {
  await rawQuery(em, 'update users set password_hash = $2, updated_at = $3 where id = $1', [
    user.id,
    hash,
    now,
  ]);
}
