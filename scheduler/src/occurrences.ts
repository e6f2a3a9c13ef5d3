import { type Compilation, type CompiledCron, compileCron, minuteSchedule } from './cron-expression.js';
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
 * Grammar (docs/reference/behaviour.md#cron-grammar): 5 fields, or 6 with a leading seconds field; ranges, lists, steps, month
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
 * Occurrences are computed in `timezone` (null is UTC), DST included (docs/reference/behaviour.md#cron-time-zones): a local time
 * skipped by a gap does not fire, and a local time repeated by a fold fires once, at its first
 * instant. Throws a `RangeError` for an expression `cronProblem` refuses or an unknown time zone.
 */
export function nextOccurrences(
  expression: string,
  timezone: string | null,
  after: Date,
  bounds: OccurrenceBounds,
): Date[] {
  const compiled = compiledCron(expression);
  if ('problem' in compiled) throw new RangeError(`invalid cron expression: ${compiled.problem}`);
  const start = after.getTime();
  if (Number.isNaN(start)) throw new RangeError('after is not a valid date');
  const clock = new ZoneClock(timezone);
  return collect(compiled.cron, clock, start, bounds);
}

// A page of crons computes each one's next run: parsing its expression every time was a quarter of
// that (bench/README.md, bench/api, "a page of crons"). A compiled cron iterates in place, so it is
// only ever walked within one synchronous `collect`.
const COMPILED_KEPT = 2_000;
const compilations = new Map<string, Compilation>();

function compiledCron(expression: string): Compilation {
  let compilation = compilations.get(expression);
  if (!compilation) {
    compilation = compileCron(expression);
    if (compilations.size >= COMPILED_KEPT) compilations.delete(compilations.keys().next().value as string);
    compilations.set(expression, compilation);
  }
  return compilation;
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

const MINUTE_MS = 60_000;

/** The minutes a cron fires in, and the seconds of each such minute it fires at. */
export interface MinuteOccurrences {
  /** Starts of the minutes (epoch ms) in [the minute of `after`, `until`] with an occurrence, ascending. */
  minutes: number[];
  /** The seconds (0–59) the cron fires at in each of those minutes: all of them or none. */
  seconds: number[];
}

/**
 * The minutes of a cron from the one holding `after` up to `until`, walked a minute at a time, not a
 * second: an hour of a per-second cron is about 60 steps, not 3,600. The occurrences in
 * (`after`, `until`] are exactly `minute + second` for the listed minutes and seconds that fall in
 * that range, the ones {@link nextOccurrences} gives. Throws as `nextOccurrences` does.
 */
export function minuteOccurrences(
  expression: string,
  timezone: string | null,
  after: Date,
  until: Date,
): MinuteOccurrences {
  const schedule = minuteSchedule(expression);
  if ('problem' in schedule) throw new RangeError(`invalid cron expression: ${schedule.problem}`);
  const firstMinute = Math.floor(after.getTime() / MINUTE_MS) * MINUTE_MS;
  if (!(until.getTime() >= firstMinute)) return { minutes: [], seconds: schedule.seconds };
  const minutes = nextOccurrences(schedule.minutes, timezone, new Date(firstMinute - 1), {
    until,
    min: 0,
    max: Math.ceil((until.getTime() - firstMinute) / MINUTE_MS) + 1,
  });
  return { minutes: minutes.map((minute) => minute.getTime()), seconds: schedule.seconds };
}

/**
 * How many of `occurrences` fall in (`after`, `until`], per minute (keyed by the minute's start,
 * epoch ms); minutes without one are left out.
 */
export function countPerMinute(
  occurrences: MinuteOccurrences,
  after: Date,
  until: Date,
): Map<number, number> {
  const from = after.getTime();
  const to = until.getTime();
  const counts = new Map<number, number>();
  for (const start of occurrences.minutes) {
    // Whole minutes inside the range take every second; the two at its ends only those inside it.
    const whole = start > from && start + 59_000 <= to;
    const n = whole
      ? occurrences.seconds.length
      : occurrences.seconds.filter((second) => {
          const at = start + second * 1000;
          return at > from && at <= to;
        }).length;
    if (n > 0) counts.set(start, (counts.get(start) ?? 0) + n);
  }
  return counts;
}

/** How many occurrences of a cron fall in (`after`, `until`], per minute: see {@link countPerMinute}. */
export function occurrencesPerMinute(
  expression: string,
  timezone: string | null,
  after: Date,
  until: Date,
): Map<number, number> {
  return countPerMinute(minuteOccurrences(expression, timezone, after, until), after, until);
}
