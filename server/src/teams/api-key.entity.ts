import { type InferEntity, defineEntity, p } from '@mikro-orm/core';

export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary(),
    teamId: p.uuid(),
    name: p.text(),
    prefix: p.text(),
    keyHash: p.text(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().strictNullable(),
    revokedAt: p.datetime().strictNullable(),
    lastUsedAt: p.datetime().strictNullable(),
    /** The dashboard user who created the key; null for keys made by the CLI or the first start. */
    createdBy: p.uuid().strictNullable(),
  },
});
export type ApiKey = InferEntity<typeof ApiKeySchema>;
