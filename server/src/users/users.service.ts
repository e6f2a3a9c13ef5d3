import type { EntityManager } from '@mikro-orm/postgresql';
import { type User, UserSchema } from './user.entity.js';

export async function findUserByEmail(em: EntityManager, email: string): Promise<User | null> {
  return em.findOne(UserSchema, { email });
}

export async function findUser(em: EntityManager, id: string): Promise<User | null> {
  return em.findOne(UserSchema, { id });
}

export async function replacePasswordHash(em: EntityManager, user: User, hash: string, now: Date) {
  user.passwordHash = hash;
  user.updatedAt = now;
  await em.flush();
}
