import { type InferEntity, defineEntity, p } from '@mikro-orm/core';
import type { EventStatus, HttpMethod, RetryConfig } from '@webhook-scheduler/contract';

export const EventSchema = defineEntity({
  name: 'Event',
  tableName: 'events',
  properties: {
    id: p.uuid().primary(),
    teamId: p.uuid(),
    cronId: p.uuid().strictNullable(),
    retryOf: p.uuid().strictNullable(),
    attempt: p.smallint(),
    scheduledAt: p.datetime(),
    executedAt: p.datetime().strictNullable(),
    status: p.text().$type<EventStatus>(),
    webhookUrl: p.text(),
    method: p.text().$type<HttpMethod>(),
    headers: p.json<Record<string, string>>().strictNullable(),
    payload: p.json<unknown>().strictNullable(),
    retryConfig: p.json<RetryConfig>().strictNullable(),
    responseStatus: p.integer().strictNullable(),
    responseHeaders: p.json<Record<string, string>>().strictNullable(),
    responseBody: p.text().strictNullable(),
    responseDuration: p.integer().strictNullable(),
    responseError: p.text().strictNullable(),
    leaseToken: p.uuid().strictNullable(),
    leaseExpiresAt: p.datetime().strictNullable(),
    claimCount: p.smallint(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Event = InferEntity<typeof EventSchema>;
