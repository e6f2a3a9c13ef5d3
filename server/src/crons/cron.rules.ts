import { isDeepStrictEqual } from 'node:util';
import type { ParsedCronInput, ParsedCronPatch, ValidationIssue } from '@webhook-scheduler/contract';
import { type EventRequest, cronProblem, nextOccurrences } from '@webhook-scheduler/scheduler';
import { sentField } from '../shared/sent-field.js';

/** Field problems the contract's schema cannot see: the cron expression must parse and fire. */
export function cronInputIssues(input: Pick<ParsedCronInput, 'cron_expression'>): ValidationIssue[] {
  const problem = cronProblem(input.cron_expression);
  return problem ? [{ path: ['cron_expression'], message: `invalid cron expression: ${problem}` }] : [];
}

/**
 * The cron rules on a request as sent, for when the contract refused it: a string expression is
 * checked all the same, so that one answer names every problem.
 */
export function cronRequestIssues(sent: unknown): ValidationIssue[] {
  const expression = sentField(sent, 'cron_expression');
  return typeof expression === 'string' ? cronInputIssues({ cron_expression: expression }) : [];
}

/**
 * The next `count` occurrences after `now` exactly as the scheduler will fire them (same grammar,
 * same DST rules), or the problems that make the expression invalid.
 */
export function cronPreview(
  expression: string,
  timezone: string | null,
  now: Date,
  count: number,
): { occurrences: Date[] } | { issues: ValidationIssue[] } {
  const issues = cronInputIssues({ cron_expression: expression });
  if (issues.length > 0) return { issues };
  return {
    occurrences: nextOccurrences(expression.trim(), timezone, now, { until: now, min: count, max: count }),
  };
}

/** The stored fields of a cron that a patch can change. */
export interface CronFields extends EventRequest {
  cronExpression: string;
  timezone: string | null;
  isActive: boolean;
  pauseAfterFailures: number | null;
}

const given = <T>(value: T | undefined, current: T): T => (value === undefined ? current : value);

/** The whole input a patch amounts to: its fields, and the cron's current value for the others. */
export function patchedInput(cron: CronFields, patch: ParsedCronPatch): ParsedCronInput {
  return {
    webhook_url: given(patch.webhook_url, cron.webhookUrl),
    cron_expression: given(patch.cron_expression, cron.cronExpression),
    method: given(patch.method, cron.method),
    timezone: given(patch.timezone, cron.timezone),
    headers: given(patch.headers, cron.headers),
    payload: given(patch.payload, cron.payload as ParsedCronInput['payload']),
    retry_config: given(patch.retry_config, cron.retryConfig),
    timeout_ms: given(patch.timeout_ms, cron.timeoutMs),
    is_active: given(patch.is_active, cron.isActive),
    pause_after_failures: given(patch.pause_after_failures, cron.pauseAfterFailures),
  };
}

/** The fields whose change makes the cron's pending events out of date: its schedule, its request, its activity. */
const DEFINING = [
  'cronExpression',
  'timezone',
  'webhookUrl',
  'method',
  'headers',
  'payload',
  'retryConfig',
  'timeoutMs',
  'isActive',
] as const satisfies readonly (keyof CronFields)[];

/**
 * What a PUT or PATCH changes: `events` when the schedule, the request or `is_active` changes (the
 * pending events are replaced, docs/reference/behaviour.md#cron-redefinition), `settings` when only `pause_after_failures` does
 * (its pending occurrences, retries and manual runs stay as they are), `none` otherwise. Values are
 * compared as data: a payload with its keys in another order is the same payload.
 */
export function cronChange(current: CronFields, next: CronFields): 'events' | 'settings' | 'none' {
  if (DEFINING.some((field) => !isDeepStrictEqual(current[field], next[field]))) return 'events';
  return current.pauseAfterFailures === next.pauseAfterFailures ? 'none' : 'settings';
}

/** The schedule's next occurrence after `now`, or null when it has none (or no longer parses). */
export function nextRun(expression: string, timezone: string | null, now: Date): Date | null {
  try {
    return nextOccurrences(expression, timezone, now, { until: now, min: 1, max: 1 })[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * The health fields a change of activity resets: resuming clears why the service paused the cron
 * and starts a new failure streak, so `pause_after_failures` counts afresh.
 */
export function resumedHealth(wasActive: boolean, isActive: boolean) {
  return !wasActive && isActive ? { pausedReason: null, consecutiveFailures: 0 } : {};
}
