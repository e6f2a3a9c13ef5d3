import { CronExpressionParser } from 'cron-parser';

const NICKNAMES = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

function normalize(expression: string): string {
  const trimmed = expression.trim();
  return trimmed === '@midnight' ? '@daily' : trimmed;
}

/** Why a cron expression is not accepted, or undefined when it is valid and fires at least once. */
export function cronProblem(expression: string): string | undefined {
  const trimmed = expression.trim();
  if (trimmed.startsWith('@')) {
    if (!NICKNAMES.has(trimmed)) return `unknown nickname ${trimmed}`;
  } else {
    const fields = trimmed.split(/\s+/).length;
    if (fields !== 5 && fields !== 6) return `expected 5 fields (or 6 with seconds), got ${fields}`;
  }
  try {
    CronExpressionParser.parse(normalize(expression), { currentDate: new Date(), tz: 'UTC' }).next();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Occurrences strictly after `after`, up to `until` (at least `min`, at most `max`). */
export function nextOccurrences(
  expression: string,
  timezone: string | null,
  after: Date,
  bounds: { until: Date; min: number; max: number },
): Date[] {
  const iterator = CronExpressionParser.parse(normalize(expression), {
    currentDate: after,
    tz: timezone ?? 'UTC',
  });
  const result: Date[] = [];
  while (result.length < bounds.max) {
    const next = iterator.next().toDate();
    if (result.length >= bounds.min && next > bounds.until) break;
    result.push(next);
  }
  return result;
}
