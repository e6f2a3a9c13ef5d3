import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type User, UserSchema } from './user.entity.js';

/** A user as others show them: never the password hash. A user entity is one. */
export interface UserView {
  id: string;
  email: string;
  createdAt: Date;
}

export async function findUserByEmail(em: EntityManager, email: string): Promise<User | null> {
  return em.findOne(UserSchema, { email });
}

export async function findUser(em: EntityManager, id: string): Promise<User | null> {
  return em.findOne(UserSchema, { id });
}

/**
 * Creates a user in `em` (the caller's transaction, when it has one) and flushes: an email in use
 * fails here on the unique index, with MikroORM's UniqueConstraintViolationException.
 */
export async function createUser(
  em: EntityManager,
  email: string,
  passwordHash: string,
  now: Date,
): Promise<User> {
  const user = em.create(UserSchema, {
    id: randomUUID(),
    email,
    passwordHash,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return user;
}

export async function replacePasswordHash(em: EntityManager, user: User, hash: string, now: Date) {
  user.passwordHash = hash;
  user.updatedAt = now;
  await em.flush();
}
