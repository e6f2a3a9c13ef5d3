import { randomUUID } from 'node:crypto';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { ParsedCronInput } from '@webhook-scheduler/contract';
import { NotFoundError, ValidationError } from '../errors.js';
import { deleteEventsOfCron, dropPendingEventsOfCron } from '../events/store/event-changes.js';
import { type Page, assertPageInRange } from '../shared/page.js';
import type { Scheduling } from '../shared/scheduling.js';
import { type Cron, CronSchema } from './cron.entity.js';
import { materializeOccurrences } from './cron-occurrences.js';
import { cronInputIssues, cronPreview } from './cron.rules.js';

type ListQuery = { page: number; limit: number; is_active?: boolean | undefined };

function definition(input: ParsedCronInput) {
  const issues = cronInputIssues(input);
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

export async function createCron(
  em: EntityManager,
  teamId: string,
  input: ParsedCronInput,
  now: Date,
  scheduling: Scheduling,
): Promise<Cron> {
  const changes = definition(input);
  return em.transactional(async (tx) => {
    const created = tx.create(CronSchema, {
      id: randomUUID(),
      teamId,
      ...changes,
      materializedUntil: null,
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

/** Replaces the cron, drops its pending events and materializes the new schedule, in one transaction. */
export async function replaceCron(
  em: EntityManager,
  teamId: string,
  id: string,
  input: ParsedCronInput,
  now: Date,
  scheduling: Scheduling,
): Promise<Cron> {
  const changes = definition(input);
  return em.transactional(async (tx) => {
    const found = await tx.findOne(CronSchema, { id, teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!found) throw new NotFoundError('Cron');
    tx.assign(found, { ...changes, materializedUntil: null, updatedAt: now });
    await tx.flush();
    await dropPendingEventsOfCron(tx, id, now);
    await materialize(tx, found, now, scheduling);
    return found;
  });
}

/** Deletes the cron and every event it created, in one transaction. */
export async function deleteCron(em: EntityManager, teamId: string, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    const cron = await tx.findOne(CronSchema, { id, teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!cron) throw new NotFoundError('Cron');
    await deleteEventsOfCron(tx, id);
    tx.remove(cron);
    await tx.flush();
  });
}

/** The next occurrences of a schedule, for the dashboard's preview. */
export function previewCron(
  query: { cron_expression: string; timezone?: string | undefined; count: number },
  now: Date,
): { timezone: string; occurrences: Date[] } {
  const timezone = query.timezone ?? null;
  const preview = cronPreview(query.cron_expression, timezone, now, query.count);
  if ('issues' in preview) throw new ValidationError(preview.issues);
  return { timezone: timezone ?? 'UTC', occurrences: preview.occurrences };
}
