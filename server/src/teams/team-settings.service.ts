import type { EntityManager } from '@mikro-orm/postgresql';
import { keyExpiryIssues } from '../auth/api-key.rules.js';
import { ValidationError } from '../errors.js';
import type { ApiKey } from './api-key.entity.js';
import { requireOwner, roleIn } from './members.service.js';
import {
  type CreatedKey,
  type SigningSecrets,
  createApiKey,
  getSigningSecrets,
  listApiKeys,
  revokeApiKey,
  rotateSigningSecret,
} from './teams.service.js';

// Any member may manage keys (a key is no more than what the member can already do in the
// dashboard) and see the signing secret; rotating it breaks receivers after 24 h, so owners only.

export async function listTeamKeys(em: EntityManager, userId: string, teamId: string): Promise<ApiKey[]> {
  await roleIn(em, userId, teamId);
  return listApiKeys(em, teamId);
}

export async function createTeamKey(
  em: EntityManager,
  userId: string,
  teamId: string,
  input: { name: string; expires_at: string | null },
  now: Date,
): Promise<CreatedKey> {
  await roleIn(em, userId, teamId);
  const expiresAt = input.expires_at === null ? null : new Date(input.expires_at);
  const issues = keyExpiryIssues(expiresAt, now);
  if (issues.length > 0) throw new ValidationError(issues);
  return createApiKey(em, teamId, { name: input.name, expiresAt }, now);
}

export async function revokeTeamKey(
  em: EntityManager,
  userId: string,
  teamId: string,
  keyId: string,
  now: Date,
): Promise<ApiKey> {
  await roleIn(em, userId, teamId);
  return revokeApiKey(em, keyId, now, teamId);
}

export async function revealSigningSecret(
  em: EntityManager,
  userId: string,
  teamId: string,
  now: Date,
): Promise<SigningSecrets> {
  await roleIn(em, userId, teamId);
  return getSigningSecrets(em, teamId, now);
}

export async function rotateTeamSecret(
  em: EntityManager,
  userId: string,
  teamId: string,
  now: Date,
): Promise<SigningSecrets> {
  await requireOwner(em, userId, teamId, 'rotate the signing secret');
  return rotateSigningSecret(em, teamId, now);
}
