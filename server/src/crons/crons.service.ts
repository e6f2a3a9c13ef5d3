import { randomUUID } from 'node:crypto';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { ParsedCronInput } from '@webhook-scheduler/contract';
import { NotFoundError, ValidationError } from '../errors.js';
import { EventSchema } from '../events/event.entity.js';
import { type Page, listNewestFirst } from '../shared/list.service.js';
import { type Cron, CronSchema } from './cron.entity.js';
import { cronInputIssues } from './cron.rules.js';

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
  return listNewestFirst(em, CronSchema, where, query);
}

export async function createCron(em: EntityManager, teamId: string, input: ParsedCronInput, now: Date) {
  const cron = em.create(CronSchema, {
    id: randomUUID(),
    teamId,
    ...definition(input),
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return cron;
}

export async function getCron(em: EntityManager, teamId: string, id: string): Promise<Cron> {
  const cron = await em.findOne(CronSchema, { id, teamId });
  if (!cron) throw new NotFoundError('Cron');
  return cron;
}

/** Replaces the cron and drops its pending events, in one transaction. */
export async function replaceCron(
  em: EntityManager,
  teamId: string,
  id: string,
  input: ParsedCronInput,
  now: Date,
): Promise<Cron> {
  const changes = definition(input);
  return em.transactional(async (tx) => {
    const cron = await tx.findOne(CronSchema, { id, teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!cron) throw new NotFoundError('Cron');
    tx.assign(cron, { ...changes, updatedAt: now });
    await tx.nativeDelete(EventSchema, { cronId: id, status: 'pending' });
    await tx.flush();
    return cron;
  });
}

/** Deletes the cron and every event it created, in one transaction. */
export async function deleteCron(em: EntityManager, teamId: string, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    const cron = await tx.findOne(CronSchema, { id, teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!cron) throw new NotFoundError('Cron');
    await tx.nativeDelete(EventSchema, { cronId: id });
    tx.remove(cron);
    await tx.flush();
  });
}
