import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { Timestamp, Uuid, dataOf } from '../common.js';
import { TeamParams } from './common.js';

const c = initContract();

/** An API key as listed: never the key itself, only its visible prefix. */
export const ApiKey = z.object({
  id: Uuid,
  name: z.string(),
  prefix: z.string().describe('The first characters of the key, to recognise it by.'),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable().describe('Within a minute; null when never used.'),
  expires_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
});
/** An API key as listed. */
export type ApiKey = z.infer<typeof ApiKey>;

/** The body of key creation. */
export const ApiKeyInput = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(100, 'name must be at most 100 characters'),
    expires_at: Timestamp.nullable()
      .default(null)
      .describe('When the key stops working; null never. Must be in the future.'),
  })
  .strict();
/** The body of key creation, as sent. */
export type ApiKeyInput = z.input<typeof ApiKeyInput>;

/** A key just created: `key` is shown this once and never again. */
export const CreatedApiKey = z.object({ api_key: ApiKey, key: z.string() });
/** A key just created. */
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/** The API keys of one team. */
export const keysContract = c.router({
  list: {
    method: 'GET',
    path: '/teams/:teamId/keys',
    pathParams: TeamParams,
    responses: { 200: dataOf(z.array(ApiKey)) },
    summary: 'List API keys',
    description: 'Every key of the team, newest first, revoked ones included.',
  },
  create: {
    method: 'POST',
    path: '/teams/:teamId/keys',
    pathParams: TeamParams,
    body: ApiKeyInput,
    responses: { 201: dataOf(CreatedApiKey) },
    summary: 'Create an API key',
    description: 'Owners only. The key is in the response only: it is stored as a hash.',
  },
  revoke: {
    method: 'DELETE',
    path: '/teams/:teamId/keys/:keyId',
    pathParams: TeamParams.extend({ keyId: Uuid.describe('The key id.') }),
    body: c.noBody(),
    responses: { 200: dataOf(ApiKey) },
    summary: 'Revoke an API key',
    description: 'Owners only. The key answers 401 from then on; it stays listed as revoked.',
  },
});

/** A team's webhook signing secret, and the previous one while it still signs. */
export const SigningSecret = z.object({
  secret: z.string(),
  previous_secret: z.string().nullable(),
  previous_expires_at: Timestamp.nullable().describe('Until when the previous secret still signs.'),
});
/** A team's webhook signing secret. */
export type SigningSecret = z.infer<typeof SigningSecret>;

/** The signing secret of one team. */
export const signingSecretContract = c.router({
  get: {
    method: 'GET',
    path: '/teams/:teamId/signing-secret',
    pathParams: TeamParams,
    responses: { 200: dataOf(SigningSecret) },
    summary: 'Reveal the signing secret',
    description: 'Owners only. The secret receivers verify webhook signatures with.',
  },
  rotate: {
    method: 'POST',
    path: '/teams/:teamId/signing-secret/rotate',
    pathParams: TeamParams,
    body: c.noBody(),
    responses: { 200: dataOf(SigningSecret) },
    summary: 'Rotate the signing secret',
    description: 'Owners only. The previous secret keeps signing for 24 hours.',
  },
});
