import { type InferEntity, defineEntity, p } from '@mikro-orm/core';
import type { HttpMethod, RetryConfig } from '@webhook-scheduler/contract';

export const CronSchema = defineEntity({
  name: 'Cron',
  tableName: 'crons',
  properties: {
    id: p.uuid().primary(),
    teamId: p.uuid(),
    cronExpression: p.text(),
    timezone: p.text().strictNullable(),
    webhookUrl: p.text(),
    method: p.text().$type<HttpMethod>(),
    headers: p.json<Record<string, string>>().strictNullable(),
    payload: p.json<unknown>().strictNullable(),
    retryConfig: p.json<RetryConfig>().strictNullable(),
    timeoutMs: p.integer().strictNullable(),
    isActive: p.boolean(),
    pauseAfterFailures: p.integer().strictNullable(),
    // Kept by the statement that records each delivery's end (scheduler-store/record-outcomes.ts, with crons/cron-outcomes.ts).
    consecutiveFailures: p.integer(),
    lastRunAt: p.datetime().strictNullable(),
    lastStatus: p.text().$type<'success' | 'failed'>().strictNullable(),
    pausedReason: p.text().$type<'failures'>().strictNullable(),
    materializedUntil: p.datetime().strictNullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Cron = InferEntity<typeof CronSchema>;
