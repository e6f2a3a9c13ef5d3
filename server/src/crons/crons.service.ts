import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParsedCronInput, ParsedCronPatch, TeamLimits } from '@webhook-scheduler/contract';
import { describeCron, newEventId, requestOf } from '@webhook-scheduler/scheduler';
import { askForActiveCronsQuota } from '../shared/quota-check.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { cronIntervalIssues, requestSizeIssues } from '../limits/limits.rules.js';
import type { TeamLimitsSource } from '../limits/team-limits-cache.js';
import { deleteEventsOfCron, dropPendingEventsOfCron } from '../events/store/event-changes.js';
import type { EventRow } from '../events/store/event-row.js';
import { insertPendingEvents } from '../events/store/pending-events.js';
import { pendingQuotaOf, withinQuotas } from '../limits/quota-at-commit.js';
import { type Page, assertPageInRange } from '../shared/page.js';
import type { Scheduling } from '../shared/scheduling-deps.js';
import {
  type Cron,
  type CronLock,
  deleteCronRow,
  findCron,
  insertCrons,
  pageOfCrons,
  saveCron,
} from './cron-store.js';
import { countCrons } from './cron-counts.js';
import { materializeOccurrences } from './cron-occurrences.js';
import { cronChange, cronInputIssues, cronPreview, patchedInput, resumedHealth } from './cron.rules.js';
import { activeTraceContext } from '../tracing/trace-context.js';
import { timeoutIssues } from '../shared/timeout.rules.js';
import { requestFrom } from '../shared/request-columns.js';

type ListQuery = { page: number; limit: number; is_active?: boolean | undefined };

/** What creating or replacing a cron needs besides the request. */
export interface CronWriteDeps {
  scheduling: Scheduling;
  limits: TeamLimitsSource;
}

function validDefinition(input: ParsedCronInput, limits: TeamLimits, now: Date, maxTimeoutMs: number) {
  let issues = cronInputIssues(input);
  if (issues.length === 0)
    issues = cronIntervalIssues(
      { cron_expression: input.cron_expression.trim(), timezone: input.timezone },
      limits.min_cron_interval_ms,
      now,
    );
  issues = [...issues, ...requestSizeIssues(input, limits), ...timeoutIssues(input.timeout_ms, maxTimeoutMs)];
  if (issues.length > 0) throw new ValidationError(issues);
  return {
    cronExpression: input.cron_expression.trim(),
    timezone: input.timezone,
    ...requestFrom(input),
    isActive: input.is_active,
    pauseAfterFailures: input.pause_after_failures,
  };
}

export async function listCrons(em: EntityManager, teamId: string, query: ListQuery): Promise<Page<Cron>> {
  const total = await countCrons(em, teamId, query.is_active);
  assertPageInRange(query, total);
  if (total === 0) return { items: [], total };
  const items = await pageOfCrons(em, teamId, {
    isActive: query.is_active,
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
 * Creates the cron and materializes its upcoming events, in one transaction; an active one counts
 * against the team's active crons, checked as the transaction commits (shared/quota-check.ts).
 */
export async function createCron(
  em: EntityManager,
  teamId: string,
  input: ParsedCronInput,
  now: Date,
  { scheduling, limits: source }: CronWriteDeps,
): Promise<Cron> {
  const limits = await source.forTeam(teamId);
  const changes = validDefinition(input, limits, now, scheduling.webhookTimeoutMs);
  return withinQuotas(em, (writer) =>
    writer.transactional(async (tx) => {
      if (changes.isActive) await askForActiveCronsQuota(tx, teamId, limits.max_active_crons);
      const created: Cron = {
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
      };
      await insertCrons(tx, [created]);
      await materialize(tx, created, now, scheduling);
      return created;
    }),
  );
}

export async function getCron(em: EntityManager, teamId: string, id: string): Promise<Cron> {
  const cron = await findCron(em, teamId, id);
  if (!cron) throw new NotFoundError('Cron');
  return cron;
}

/**
 * The cron, locked for the rest of the transaction: `no key update` to change its fields (inserts
 * of its events, which hold it `for key share`, go on meanwhile), `update` to delete it, `key share`
 * to insert one of its events. Another team's cron is not found. The first of the locks a cron
 * write takes, in the order of docs/guides/operations.md ("Locks").
 */
async function lockedCron(tx: EntityManager, teamId: string, id: string, mode: CronLock): Promise<Cron> {
  const found = await findCron(tx, teamId, id, mode);
  if (!found) throw new NotFoundError('Cron');
  return found;
}

/**
 * Gives a locked cron its new definition. When the schedule, the request or its activity changes,
 * its pending events are replaced (docs/reference/behaviour.md#cron-redefinition), an activation counts against the active-crons
 * quota and a resume clears the failure streak; a change of `pause_after_failures` alone leaves its
 * pending occurrences, retries and manual runs as they are; no change writes nothing.
 */
async function redefine(
  tx: EntityManager,
  found: Cron,
  changes: ReturnType<typeof validDefinition>,
  { limits, now, scheduling }: { limits: TeamLimits; now: Date; scheduling: Scheduling },
): Promise<Cron> {
  const change = cronChange(found, changes);
  if (change === 'none') return found;
  if (change === 'settings') {
    const changed = { ...found, pauseAfterFailures: changes.pauseAfterFailures, updatedAt: now };
    await saveCron(tx, changed);
    return changed;
  }
  if (changes.isActive && !found.isActive)
    await askForActiveCronsQuota(tx, found.teamId, limits.max_active_crons);
  const health = resumedHealth(found.isActive, changes.isActive);
  const redefined = { ...found, ...changes, ...health, materializedUntil: null, updatedAt: now };
  await saveCron(tx, redefined);
  await dropPendingEventsOfCron(tx, found.id, now);
  await materialize(tx, redefined, now, scheduling);
  return redefined;
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
  const changes = validDefinition(input, limits, now, scheduling.webhookTimeoutMs);
  return withinQuotas(em, (writer) =>
    writer.transactional(async (tx) => {
      const found = await lockedCron(tx, teamId, id, 'no key update');
      return redefine(tx, found, changes, { limits, now, scheduling });
    }),
  );
}

/** Changes the fields the patch gives; the others keep their value (see {@link redefine}). */
export async function patchCron(
  em: EntityManager,
  teamId: string,
  id: string,
  patch: ParsedCronPatch,
  now: Date,
  { scheduling, limits: source }: CronWriteDeps,
): Promise<Cron> {
  const limits = await source.forTeam(teamId);
  return withinQuotas(em, (writer) =>
    writer.transactional(async (tx) => {
      const found = await lockedCron(tx, teamId, id, 'no key update');
      const changes = validDefinition(patchedInput(found, patch), limits, now, scheduling.webhookTimeoutMs);
      return redefine(tx, found, changes, { limits, now, scheduling });
    }),
  );
}

/**
 * One event from the cron's current definition, due now, marked as a manual run: it leaves the
 * schedule (and `materialized_until`) alone and cannot collide with an occurrence of the same second.
 * It counts against the team's pending quotas, checked at commit; the cron is held (`for key share`)
 * meanwhile, so a concurrent delete is waited for and answered 404.
 */
export async function triggerCron(
  em: EntityManager,
  teamId: string,
  id: string,
  now: Date,
  { scheduling, limits }: CronWriteDeps,
): Promise<EventRow> {
  const quota = pendingQuotaOf(teamId, await limits.forTeam(teamId));
  return withinQuotas(em, (writer) =>
    writer.transactional(async (tx) => {
      const cron = await lockedCron(tx, teamId, id, 'key share');
      const event = {
        id: newEventId(),
        teamId,
        cronId: cron.id,
        retryOf: null,
        attempt: 0,
        scheduledAt: now,
        ...requestOf(cron),
        triggered: true,
        traceContext: activeTraceContext(),
      };
      const [row] = await insertPendingEvents(tx, scheduling.timers, [event], now, {
        returnRows: true,
        quota,
      });
      if (!row) throw new Error('insert returned no row');
      return row;
    }),
  );
}

/** Deletes the cron and every event it created, in one transaction. */
export async function deleteCron(em: EntityManager, teamId: string, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    await lockedCron(tx, teamId, id, 'update');
    await deleteEventsOfCron(tx, id);
    await deleteCronRow(tx, id);
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
