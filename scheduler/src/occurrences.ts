import { compileCron, type CompiledCron } from './cron-expression.js';
import { ZoneClock } from './zone-clock.js';

/** How many occurrences `nextOccurrences` collects. */
export interface OccurrenceBounds {
  /** Occurrences after this instant are collected only while fewer than `min` are. */
  until: Date;
  /** Collected even past `until`. */
  min: number;
  /** Never more than this many. */
  max: number;
}

// Past this many occurrences in a row skipped by DST gaps, the schedule only ever fires in gaps
// (e.g. `30 2 * 3 0L` in Europe/Paris) and has nothing left to give.
const MAX_SKIPPED_IN_A_ROW = 100;

/**
 * Why a cron expression is refused, as a short reason for a validation error on
 * `cron_expression`, or undefined when it is valid and fires at least once in the future.
 *
 * Grammar (decision 15): 5 fields, or 6 with a leading seconds field; ranges, lists, steps, month
 * and day names, `L`, `W`, `LW`, `#`, and the nicknames `@yearly @annually @monthly @weekly @daily
 * @midnight @hourly`. `H` and other nicknames are refused.
 */
export function cronProblem(expression: string): string | undefined {
  const compiled = compileCron(expression);
  return 'problem' in compiled ? compiled.problem : undefined;
}

/**
 * The occurrences of a cron strictly after `after`, in order: those up to `until` (inclusive),
 * continuing past it until `min` are collected, never more than `max`.
 *
 * Occurrences are computed in `timezone` (null is UTC), DST included (decision 16): a local time
 * skipped by a gap does not fire, and a local time repeated by a fold fires once, at its first
 * instant. Throws a `RangeError` for an expression `cronProblem` refuses or an unknown time zone.
 */
export function nextOccurrences(
  expression: string,
  timezone: string | null,
  after: Date,
  bounds: OccurrenceBounds,
): Date[] {
  const compiled = compileCron(expression);
  if ('problem' in compiled) throw new RangeError(`invalid cron expression: ${compiled.problem}`);
  const start = after.getTime();
  if (Number.isNaN(start)) throw new RangeError('after is not a valid date');
  const clock = new ZoneClock(timezone);
  return collect(compiled.cron, clock, start, bounds);
}

function collect(cron: CompiledCron, clock: ZoneClock, after: number, bounds: OccurrenceBounds): Date[] {
  const until = bounds.until.getTime();
  const found: Date[] = [];
  let walls = cron.wallsAfter(clock.cursorAfter(after));
  let skipped = 0;
  while (found.length < bounds.max) {
    const next = walls.next();
    if (next.done === true) break;
    const resolved = clock.resolve(next.value);
    if ('gapEnd' in resolved) {
      if (++skipped > MAX_SKIPPED_IN_A_ROW) break;
      walls = cron.wallsAfter(resolved.gapEnd - 1);
      continue;
    }
    skipped = 0;
    if (resolved.instant <= after) continue;
    if (found.length >= bounds.min && resolved.instant > until) break;
    found.push(new Date(resolved.instant));
  }
  return found;
}
