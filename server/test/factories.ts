import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CronInput, EventInput } from '@webhook-scheduler/contract';
import { generateApiKey } from '../src/auth/api-key.rules.js';
import { type Cron, CronSchema } from '../src/crons/cron.entity.js';
import { type Event, EventSchema } from '../src/events/event.entity.js';
import { ApiKeySchema } from '../src/teams/api-key.entity.js';

// Cron-made originals are unique per (cron_id, scheduled_at): every factory event gets its own time.
let sequence = 0;
function nextScheduledAt(): Date {
  sequence += 1;
  return new Date(Date.now() + 3_600_000 + sequence * 1000);
}

/** One hour from now (or `ms` from now), as the API expects it. */
export function inFuture(ms = 3_600_000): string {
  return new Date(Date.now() + ms).toISOString();
}

/** The smallest valid CronInput. */
export function cronBody(overrides: Partial<CronInput> = {}): CronInput {
  return { webhook_url: 'https://example.com/cron', cron_expression: '*/5 * * * *', ...overrides };
}

/** The smallest valid EventInput. */
export function eventBody(overrides: Partial<EventInput> = {}): EventInput {
  return { webhook_url: 'https://example.com/event', scheduled_at: inFuture(), ...overrides };
}

function cronRow(teamId: string, overrides: Partial<Cron>): Cron {
  const now = new Date();
  return {
    id: randomUUID(),
    teamId,
    cronExpression: '*/5 * * * *',
    timezone: null,
    webhookUrl: 'https://example.com/cron',
    method: 'POST',
    headers: null,
    payload: null,
    retryConfig: null,
    isActive: true,
    materializedUntil: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

function eventRow(teamId: string, overrides: Partial<Event>): Event {
  const now = new Date();
  return {
    id: randomUUID(),
    teamId,
    cronId: null,
    retryOf: null,
    attempt: 0,
    scheduledAt: nextScheduledAt(),
    executedAt: null,
    status: 'pending',
    webhookUrl: 'https://example.com/event',
    method: 'POST',
    headers: null,
    payload: null,
    retryConfig: null,
    responseStatus: null,
    responseHeaders: null,
    responseBody: null,
    responseDuration: null,
    responseError: null,
    leaseToken: null,
    leaseExpiresAt: null,
    claimCount: 0,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

/** Inserts a cron row directly, bypassing the API. */
export async function makeCron(em: EntityManager, teamId: string, overrides: Partial<Cron> = {}) {
  const cron = em.create(CronSchema, cronRow(teamId, overrides));
  await em.flush();
  return cron;
}

/** Inserts `count` cron rows in one flush; `overrides(i)` customises the i-th. */
export async function makeCrons(
  em: EntityManager,
  teamId: string,
  count: number,
  overrides: (i: number) => Partial<Cron> = () => ({}),
) {
  const crons = Array.from({ length: count }, (_, i) => em.create(CronSchema, cronRow(teamId, overrides(i))));
  await em.flush();
  return crons;
}

/**
 * Inserts an event row directly, in any state the API cannot reach by itself: cron-made
 * (`cronId`), a retry attempt (`retryOf`), processing, success or failed.
 */
export async function makeEvent(em: EntityManager, teamId: string, overrides: Partial<Event> = {}) {
  const event = em.create(EventSchema, eventRow(teamId, overrides));
  await em.flush();
  return event;
}

/** Inserts `count` event rows in one flush; `overrides(i)` customises the i-th. */
export async function makeEvents(
  em: EntityManager,
  teamId: string,
  count: number,
  overrides: (i: number) => Partial<Event> = () => ({}),
) {
  const events = Array.from({ length: count }, (_, i) =>
    em.create(EventSchema, eventRow(teamId, overrides(i))),
  );
  await em.flush();
  return events;
}

/** Inserts an API key for `teamId`, optionally already expired or revoked; returns the key. */
export async function makeApiKey(
  em: EntityManager,
  teamId: string,
  overrides: { expiresAt?: Date | null; revokedAt?: Date | null } = {},
): Promise<{ keyId: string; key: string }> {
  const generated = generateApiKey();
  const apiKey = em.create(ApiKeySchema, {
    id: randomUUID(),
    teamId,
    name: 'factory',
    prefix: generated.prefix,
    keyHash: generated.hash,
    createdAt: new Date(),
    expiresAt: overrides.expiresAt ?? null,
    revokedAt: overrides.revokedAt ?? null,
    lastUsedAt: null,
  });
  await em.flush();
  return { keyId: apiKey.id, key: generated.key };
}
