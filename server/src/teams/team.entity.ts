import { type InferEntity, defineEntity, p } from '@mikro-orm/core';

export const TeamSchema = defineEntity({
  name: 'Team',
  tableName: 'teams',
  properties: {
    id: p.uuid().primary(),
    name: p.text(),
    signingSecret: p.text(),
    previousSigningSecret: p.text().strictNullable(),
    previousSecretExpiresAt: p.datetime().strictNullable(),
    /** Where failure alerts (`event.failed`, `cron.paused`) are sent; null sends none. */
    alertUrl: p.text().strictNullable(),
    /** Whether webhook calls carry the delivery attempt's W3C `traceparent` (when traces are exported). */
    sendTraceparent: p.boolean().default(false),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Team = InferEntity<typeof TeamSchema>;
