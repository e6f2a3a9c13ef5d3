import { CronExpression, type CronFieldCollection } from 'cron-parser';
import { DAY_OF_MONTH, span } from './cron-wording.js';

/**
 * The `W` day-of-month forms, which cron-parser does not support: `15W` is the weekday nearest the
 * 15th and `LW` the last weekday of the month. Neither ever leaves its month.
 */
export type WeekdayRule = { nearest: number } | { last: true };

/**
 * The `W` rule of a day-of-month field, undefined when the field has no `W`, or why it is refused.
 * Like Quartz, `W` only follows a single day: ranges and lists of `W` days have no clear meaning.
 */
export function weekdayRule(field: string): WeekdayRule | string | undefined {
  if (!field.includes('W')) return undefined;
  if (field === 'LW') return { last: true };
  const match = /^(\d{1,2})W$/.exec(field);
  if (!match) return 'W must follow a single day of the month (e.g. 15W) or L (LW)';
  const day = Number(match[1]);
  if (day < 1 || day > 31) return `${day}W is out of range: ${span(DAY_OF_MONTH)}`;
  return { nearest: day };
}

/** Days in a month (1-12) of a year. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The day of the month on which the rule fires, or undefined when its day does not exist in that
 * month (`30W` in February fires no more than `30` does).
 */
export function weekdayOfMonth(rule: WeekdayRule, year: number, month: number): number | undefined {
  const length = daysInMonth(year, month);
  const target = 'last' in rule ? length : rule.nearest;
  if (target > length) return undefined;
  const dayOfWeek = new Date(Date.UTC(year, month - 1, target)).getUTCDay();
  if (dayOfWeek === 6) return target === 1 ? 3 : target - 1;
  if (dayOfWeek === 0) return target === length ? target - 2 : target + 1;
  return target;
}

/** Where and how to walk a `W` schedule. */
export interface WeekdayWalk {
  rule: WeekdayRule;
  /** Allowed months, 1-12. */
  months: ReadonlySet<number>;
  /** Whether the day-of-week field is `*`: if not, it fires on its own days too (OR, as in cron). */
  anyDayOfWeek: boolean;
  /** Exclusive wall-time start, UTC-encoded. */
  cursor: number;
}

const DAY = 86_400_000;
// A schedule that can fire at all does so within the 400-year Gregorian cycle.
const MAX_MONTHS = 400 * 12;

/**
 * Wall times of a `W` schedule after the cursor, month by month. Each month hands cron-parser its
 * one `W` day as the day of the month and a window ending with that day (or the month, when days
 * of the week fire too), so no search runs past the days that can fire.
 */
export function* weekdayWalls(
  walk: WeekdayWalk,
  fieldsFor: (dayOfMonth: string) => CronFieldCollection,
): Generator<number> {
  const start = new Date(walk.cursor);
  let year = start.getUTCFullYear();
  let month = start.getUTCMonth() + 1;
  let from = walk.cursor;
  for (let visited = 0; visited < MAX_MONTHS; visited++) {
    const window = walk.months.has(month) ? monthWindow(walk, year, month) : undefined;
    if (window && window.end > from) {
      const expression = new CronExpression(fieldsFor(window.dayOfMonth), {
        tz: 'UTC',
        currentDate: new Date(Math.max(from, window.start - 1)),
        endDate: new Date(window.end - 1),
      });
      for (let wall = nextWall(expression); wall !== undefined; wall = nextWall(expression)) {
        yield wall;
      }
    }
    from = Date.UTC(year, month, 1) - 1;
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
  }
}

interface MonthWindow {
  dayOfMonth: string;
  start: number;
  end: number;
}

function monthWindow(walk: WeekdayWalk, year: number, month: number): MonthWindow | undefined {
  const day = weekdayOfMonth(walk.rule, year, month);
  const monthStart = Date.UTC(year, month - 1, 1);
  const monthEnd = Date.UTC(year, month, 1);
  if (day === undefined) {
    // No W day this month: a restricted day of week still fires on its own.
    return walk.anyDayOfWeek ? undefined : { dayOfMonth: '*', start: monthStart, end: monthEnd };
  }
  if (!walk.anyDayOfWeek) return { dayOfMonth: String(day), start: monthStart, end: monthEnd };
  const dayStart = Date.UTC(year, month - 1, day);
  return { dayOfMonth: String(day), start: dayStart, end: dayStart + DAY };
}

// cron-parser ends a bounded search by throwing once it passes the end date.
function nextWall(expression: CronExpression): number | undefined {
  try {
    return expression.next().getTime();
  } catch {
    return undefined;
  }
}
