import { randomUUID } from 'node:crypto';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { ParsedCronInput, ParsedCronPatch, TeamLimits } from '@webhook-scheduler/contract';
import { describeCron, newEventId } from '@webhook-scheduler/scheduler';
import { rawQuery } from '../shared/raw-query.js';
import { NotFoundError, QuotaExceededError, ValidationError } from '../errors.js';
import { cronIntervalIssues, quotaRefusal, requestSizeIssues } from '../limits/limits.rules.js';
import type { TeamLimitsSource } from '../limits/team-limits-cache.js';
import { countActiveCrons } from '../limits/team-limits.service.js';
import { deleteEventsOfCron, dropPendingEventsOfCron } from '../events/store/event-changes.js';
import type { EventRow } from '../events/store/event-row.js';
import { insertPendingEvent } from '../events/store/pending-events.js';
import { type Page, assertPageInRange } from '../shared/page.js';
import type { Scheduling } from '../shared/scheduling.js';
import { type Cron, CronSchema } from './cron.entity.js';
import { materializeOccurrences } from './cron-occurrences.js';
import { cronInputIssues, cronPreview, patchedInput, resumedHealth } from './cron.rules.js';

type ListQuery = { page: number; limit: number; is_active?: boolean | undefined };

/** What creating or replacing a cron needs besides the request. */
export interface CronWriteDeps {
  scheduling: Scheduling;
  limits: TeamLimitsSource;
}

function definition(input: ParsedCronInput, limits: TeamLimits, now: Date) {
  let issues = cronInputIssues(input);
  if (issues.length === 0)
    issues = cronIntervalIssues(
      { cron_expression: input.cron_expression.trim(), timezone: input.timezone },
      limits.min_cron_interval_ms,
      now,
    );
  issues = [...issues, ...requestSizeIssues(input, limits)];
  if (issues.length > 0) throw new ValidationError(issues);
  return {
    cronExpression: input.cron_expression.trim(),
    timezone: input.timezone,
    webhookUrl: input.webhook_url,
    method: input.method,
    headers: input.headers,
    payload: input.payload,
    retryConfig: input.retry_config,
    isActive: input.is_active,
    pauseAfterFailures: input.pause_after_failures,
  };
}

export async function listCrons(em: EntityManager, teamId: string, query: ListQuery): Promise<Page<Cron>> {
  const where = query.is_active === undefined ? { teamId } : { teamId, isActive: query.is_active };
  const total = await em.count(CronSchema, where);
  assertPageInRange(query, total);
  if (total === 0) return { items: [], total };
  const items = await em.find(CronSchema, where, {
    // Newest first, id as the tie-break, so pages are stable.
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    limit: query.limit,
    offset: query.page * query.limit,
  });
  return { items, total };
}

/** Materializes an active cron's upcoming events, with their timers. */
async function materialize(tx: EntityManager, cron: Cron, now: Date, scheduling: Scheduling): Promise<void> {
  if (cron.isActive)
    await materializeOccurrences(tx, scheduling.timers, [cron], now, scheduling.cronHorizonMs);
}

/**
 * Refuses one more active cron when the team has its limit. The team row is locked first, so two
 * creates cannot both take the last place.
 */
async function checkActiveCronQuota(tx: EntityManager, teamId: string, limits: TeamLimits): Promise<void> {
  await rawQuery(tx, 'select 1 from teams where id = $1 for update', [teamId]);
  const refusal = quotaRefusal('active_crons', limits.max_active_crons, await countActiveCrons(tx, teamId));
  if (refusal) throw new QuotaExceededError(refusal.message, refusal.details);
}

export async function createCron(
  em: EntityManager,
  teamId: string,
  input: ParsedCronInput,
  now: Date,
  { scheduling, limits: source }: CronWriteDeps,
): Promise<Cron> {
  const limits = await source.forTeam(teamId);
  const changes = definition(input, limits, now);
  return em.transactional(async (tx) => {
    if (changes.isActive) await checkActiveCronQuota(tx, teamId, limits);
    const created = tx.create(CronSchema, {
      id: randomUUID(),
      teamId,
      ...changes,
      materializedUntil: null,
      consecutiveFailures: 0,
      lastRunAt: null,
      lastStatus: null,
      pausedReason: null,
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    await materialize(tx, created, now, scheduling);
    return created;
  });
}

export async function getCron(em: EntityManager, teamId: string, id: string): Promise<Cron> {
  const cron = await em.findOne(CronSchema, { id, teamId });
  if (!cron) throw new NotFoundError('Cron');
  return cron;
}

async function lockedCron(tx: EntityManager, teamId: string, id: string): Promise<Cron> {
  const found = await tx.findOne(CronSchema, { id, teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!found) throw new NotFoundError('Cron');
  return found;
}

/**
 * Gives a locked cron its new definition (an activation counts against the active-crons quota; a
 * resume clears the failure streak), drops its pending events and materializes the new schedule.
 */
async function redefine(
  tx: EntityManager,
  found: Cron,
  changes: ReturnType<typeof definition>,
  { limits, now, scheduling }: { limits: TeamLimits; now: Date; scheduling: Scheduling },
): Promise<Cron> {
  if (changes.isActive && !found.isActive) await checkActiveCronQuota(tx, found.teamId, limits);
  const health = resumedHealth(found.isActive, changes.isActive);
  tx.assign(found, { ...changes, ...health, materializedUntil: null, updatedAt: now });
  await tx.flush();
  await dropPendingEventsOfCron(tx, found.id, now);
  await materialize(tx, found, now, scheduling);
  return found;
}

/** Replaces the cron, drops its pending events and materializes the new schedule, in one transaction. */
export async function replaceCron(
  em: EntityManager,
  teamId: string,
  id: string,
  input: ParsedCronInput,
  now: Date,
  { scheduling, limits: source }: CronWriteDeps,
): Promise<Cron> {
  const limits = await source.forTeam(teamId);
  const changes = definition(input, limits, now);
  return em.transactional(async (tx) => {
    const found = await lockedCron(tx, teamId, id);
    return redefine(tx, found, changes, { limits, now, scheduling });
  });
}

/**
 * Changes the fields the patch gives. When anything changes, the cron's pending events are replaced
 * as on PUT (decision 25 when only `is_active` changes); a patch that changes nothing writes nothing.
 */
export async function patchCron(
  em: EntityManager,
  teamId: string,
  id: string,
  patch: ParsedCronPatch,
  now: Date,
  { scheduling, limits: source }: CronWriteDeps,
): Promise<Cron> {
  const limits = await source.forTeam(teamId);
  return em.transactional(async (tx) => {
    const found = await lockedCron(tx, teamId, id);
    const changes = definition(patchedInput(found, patch), limits, now);
    const changed = (Object.keys(changes) as (keyof typeof changes)[]).some(
      (field) => JSON.stringify(changes[field]) !== JSON.stringify(found[field]),
    );
    if (!changed) return found;
    return redefine(tx, found, changes, { limits, now, scheduling });
  });
}

/**
 * One event from the cron's current definition, due now, marked as a manual run: it leaves the
 * schedule (and `materialized_until`) alone and cannot collide with an occurrence of the same second.
 */
export async function triggerCron(
  em: EntityManager,
  teamId: string,
  id: string,
  now: Date,
  scheduling: Scheduling,
): Promise<EventRow> {
  const cron = await getCron(em, teamId, id);
  const event = {
    id: newEventId(),
    teamId,
    cronId: cron.id,
    retryOf: null,
    attempt: 0,
    scheduledAt: now,
    webhookUrl: cron.webhookUrl,
    method: cron.method,
    headers: cron.headers,
    payload: cron.payload,
    retryConfig: cron.retryConfig,
    triggered: true,
  };
  return insertPendingEvent(em, scheduling.timers, event, now);
}

/** Deletes the cron and every event it created, in one transaction. */
export async function deleteCron(em: EntityManager, teamId: string, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    const cron = await lockedCron(tx, teamId, id);
    await deleteEventsOfCron(tx, id);
    tx.remove(cron);
    await tx.flush();
  });
}

/** The next occurrences of a schedule, for the dashboard's preview. */
export function previewCron(
  query: { cron_expression: string; timezone?: string | undefined; count: number },
  now: Date,
): { timezone: string; occurrences: Date[]; description: string | null } {
  const timezone = query.timezone ?? null;
  const preview = cronPreview(query.cron_expression, timezone, now, query.count);
  if ('issues' in preview) throw new ValidationError(preview.issues);
  const description = describeCron(query.cron_expression) ?? null;
  return { timezone: timezone ?? 'UTC', occurrences: preview.occurrences, description };
}
