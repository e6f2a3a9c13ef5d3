import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CronInput, EventInput } from '@webhook-scheduler/contract';
import {
  type AttemptRecord,
  type ClaimOptions,
  type EventRequest,
  webhookOrigin,
} from '@webhook-scheduler/scheduler';
import { generateApiKey } from '../src/teams/api-key.rules.js';
import { type Cron, insertCrons } from '../src/crons/cron-store.js';
import type { EventStatus } from '@webhook-scheduler/contract';
import { rawQuery } from '../src/shared/raw-query.js';
import { insertApiKey } from '../src/teams/api-key-store.js';

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

/** A CronInput with every field set (a schedule every 10 s in Europe/Paris, retries, headers, payload). */
export function fullCronBody(overrides: Partial<CronInput> = {}): CronInput {
  return cronBody({
    webhook_url: 'https://example.com/full',
    cron_expression: '*/10 * * * * *',
    method: 'PUT',
    timezone: 'Europe/Paris',
    headers: { 'x-a': '1' },
    payload: { a: 1 },
    retry_config: { maxRetries: 2, backoffMs: 300, backoffType: 'linear' },
    ...overrides,
  });
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
    timeoutMs: null,
    isActive: true,
    pauseAfterFailures: null,
    consecutiveFailures: 0,
    lastRunAt: null,
    lastStatus: null,
    pausedReason: null,
    materializedUntil: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

/** An `events` row in any state, for tests that need one the API cannot make. */
export interface EventFixture extends EventRequest {
  id: string;
  teamId: string;
  cronId: string | null;
  retryOf: string | null;
  attempt: number;
  scheduledAt: Date;
  executedAt: Date | null;
  status: EventStatus;
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  responseDuration: number | null;
  responseError: string | null;
  leaseToken: string | null;
  leaseExpiresAt: Date | null;
  claimCount: number;
  createdAt: Date;
  updatedAt: Date;
}

function eventRow(teamId: string, overrides: Partial<EventFixture>): EventFixture {
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
    timeoutMs: null,
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

/**
 * A fixture with a lease is a delivery in flight: `pending` in `events` (which queues it) with the
 * lease on its queue row.
 */
async function insertEventRows(em: EntityManager, rows: EventFixture[]): Promise<void> {
  const stored = rows.map((row) => ({
    ...row,
    status: row.leaseToken ? 'pending' : row.status,
    destination: webhookOrigin(row.webhookUrl),
  }));
  await rawQuery(
    em,
    `insert into events (id, team_id, cron_id, retry_of, attempt, scheduled_at, executed_at, status, webhook_url,
       destination, method, headers, payload, retry_config, timeout_ms, response_status, response_headers, response_body,
       response_duration, response_error, claim_count, created_at, updated_at)
     select * from jsonb_to_recordset($1::jsonb) as r("id" uuid, "teamId" uuid, "cronId" uuid, "retryOf" uuid,
       "attempt" smallint, "scheduledAt" timestamptz, "executedAt" timestamptz, "status" text, "webhookUrl" text,
       "destination" text, "method" text, "headers" jsonb, "payload" jsonb, "retryConfig" jsonb, "timeoutMs" int, "responseStatus" int,
       "responseHeaders" jsonb, "responseBody" text, "responseDuration" int, "responseError" text,
       "claimCount" smallint, "createdAt" timestamptz, "updatedAt" timestamptz)`,
    [JSON.stringify(stored)],
  );
  await rawQuery(
    em,
    `update event_queue q set lease_token = r."leaseToken", lease_expires_at = r."leaseExpiresAt",
       claim_count = r."claimCount"
     from jsonb_to_recordset($1::jsonb) as r("id" uuid, "leaseToken" uuid, "leaseExpiresAt" timestamptz,
       "claimCount" smallint)
     where q.event_id = r."id"`,
    [JSON.stringify(rows.filter((row) => row.leaseToken))],
  );
}

/** Inserts a cron row directly, bypassing the API. */
export async function makeCron(em: EntityManager, teamId: string, overrides: Partial<Cron> = {}) {
  const cron = cronRow(teamId, overrides);
  await insertCrons(em, [cron]);
  return cron;
}

/** Inserts `count` cron rows at once; `overrides(i)` customises the i-th. */
export async function makeCrons(
  em: EntityManager,
  teamId: string,
  count: number,
  overrides: (i: number) => Partial<Cron> = () => ({}),
) {
  const crons = Array.from({ length: count }, (_, i) => cronRow(teamId, overrides(i)));
  await insertCrons(em, crons);
  return crons;
}

/**
 * Inserts an event row directly, in any state the API cannot reach by itself: cron-made
 * (`cronId`), a retry attempt (`retryOf`), processing, success or failed.
 */
export async function makeEvent(em: EntityManager, teamId: string, overrides: Partial<EventFixture> = {}) {
  const [event] = await makeEvents(em, teamId, 1, () => overrides);
  if (!event) throw new Error('no event made');
  return event;
}

/** Inserts `count` event rows in one statement; `overrides(i)` customises the i-th. */
export async function makeEvents(
  em: EntityManager,
  teamId: string,
  count: number,
  overrides: (i: number) => Partial<EventFixture> = () => ({}),
) {
  const events = Array.from({ length: count }, (_, i) => eventRow(teamId, overrides(i)));
  await insertEventRows(em, events);
  return events;
}

/** Inserts an API key for `teamId`, optionally already expired or revoked; returns the key. */
export async function makeApiKey(
  em: EntityManager,
  teamId: string,
  overrides: { expiresAt?: Date | null; revokedAt?: Date | null } = {},
): Promise<{ keyId: string; key: string }> {
  const generated = generateApiKey();
  const keyId = randomUUID();
  await insertApiKey(em, {
    id: keyId,
    teamId,
    name: 'factory',
    prefix: generated.prefix,
    keyHash: generated.hash,
    createdAt: new Date(),
    expiresAt: overrides.expiresAt ?? null,
    revokedAt: overrides.revokedAt ?? null,
    lastUsedAt: null,
    createdBy: null,
  });
  return { keyId, key: generated.key };
}

/** A team inserted directly, for store tests without the sign-up flow. */
export async function makeTeam(em: EntityManager, name: string): Promise<string> {
  const [row] = await rawQuery<{ id: string }>(
    em,
    `insert into teams (id, name, signing_secret, created_at, updated_at)
     values (gen_random_uuid(), $1, 'whsec_x', now(), now()) returning id`,
    [name],
  );
  if (!row) throw new Error('no team inserted');
  return row.id;
}

/** `count` pending events of a team to `origin`, due from `at` one microsecond apart. */
export async function makeDueEvents(
  em: EntityManager,
  due: { teamId: string; origin: string; count: number; at: Date },
): Promise<void> {
  await rawQuery(
    em,
    `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, destination, method, created_at, updated_at)
     select gen_random_uuid(), $1, 0, $2::timestamptz + n * interval '1 microsecond', 'pending', $3, $4, 'POST', now(), now()
     from generate_series(1, $5) as n`,
    [due.teamId, due.at, `${due.origin}/hook`, due.origin, due.count],
  );
}

/**
 * The options of a claim of `limit` that no share holds back (every cap 1,000, nothing in flight),
 * with a lease token of its own.
 */
export function unsharedClaim(limit: number): ClaimOptions {
  return {
    limit,
    leaseMs: 60_000,
    leaseToken: randomUUID(),
    owner: 1,
    shares: { teamMax: 1000, destinationMax: 1000, pairMax: 1000, teams: [], destinations: [], pairs: [] },
  };
}

/**
 * The record of a leased original's attempt that ended, as the scheduler hands it to the store: a
 * success (HTTP 200) unless `overrides` say otherwise, with no retry and no call.
 */
export function endedAttempt(
  event: { id: string; leaseToken: string | null },
  overrides: Partial<AttemptRecord> = {},
): AttemptRecord {
  return {
    id: event.id,
    leaseToken: event.leaseToken ?? '',
    status: 'success',
    executedAt: new Date(),
    responseStatus: 200,
    responseHeaders: {},
    responseBody: '',
    responseDuration: 5,
    responseError: null,
    originalStatus: null,
    originalId: event.id,
    retry: null,
    call: null,
    ...overrides,
  };
}
