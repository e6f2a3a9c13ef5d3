import type { ParsedCronInput, ValidationIssue } from '@webhook-scheduler/contract';
import { cronProblem, nextOccurrences } from '@webhook-scheduler/scheduler';
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
