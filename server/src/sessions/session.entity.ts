import { type InferEntity, defineEntity, p } from '@mikro-orm/core';

export const SessionSchema = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    tokenHash: p.text(),
    createdAt: p.datetime(),
    lastSeenAt: p.datetime(),
    expiresAt: p.datetime(),
  },
});
export type Session = InferEntity<typeof SessionSchema>;
