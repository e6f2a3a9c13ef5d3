import { type CronExpression, CronExpressionParser, type CronFieldCollection } from 'cron-parser';
import { type WeekdayRule, weekdayRule, weekdayWalls } from './cron-weekday.js';
import { plainReason } from './cron-wording.js';

/** A cron expression ready to run: its wall times, UTC-encoded (see `ZoneClock`). */
export interface CompiledCron {
  /** Wall times strictly after `cursor`, ascending; ends only if the schedule stops firing. */
  wallsAfter(cursor: number): Iterator<number>;
}

/** A compiled cron, or why the expression is refused. */
export type Compilation = { cron: CompiledCron } | { problem: string };

// cron-parser expands more nicknames (@minutely, @weekdays…) than our grammar has; @midnight is ours.
const NICKNAMES: Readonly<Record<string, string>> = {
  '@yearly': '0 0 0 1 1 *',
  '@annually': '0 0 0 1 1 *',
  '@monthly': '0 0 0 1 * *',
  '@weekly': '0 0 0 * * 0',
  '@daily': '0 0 0 * * *',
  '@midnight': '0 0 0 * * *',
  '@hourly': '0 0 * * * *',
};
const FIELD_NAMES = ['second', 'minute', 'hour', 'day of month', 'month', 'day of week'];
const NAMES = [/jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec/gi, /sun|mon|tue|wed|thu|fri|sat/gi] as const;
const LONGEST_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MAX_LENGTH = 1024;
// Without a current date, cron-parser reads the clock through luxon, which costs several times the parse.
const PARSING = { tz: 'UTC', currentDate: 0 };

/** Compiles an expression of our grammar (docs/reference/behaviour.md#cron-grammar), or says why it is refused. */
export function compileCron(expression: string): Compilation {
  const fields = sixFields(expression);
  if (typeof fields === 'string') return { problem: fields };
  const problem = hashProblem(fields);
  if (problem) return { problem };
  const dayOfMonth = fields[3] ?? '*';
  const rule = weekdayRule(dayOfMonth);
  if (typeof rule === 'string') return { problem: `day of month field "${dayOfMonth}": ${rule}` };
  // A W day changes every month: validate the other fields around a placeholder day.
  const parsed = parse(rule ? withDayOfMonth(fields, '1') : fields);
  if (typeof parsed === 'string') return { problem: parsed };
  if (!rule) return { cron: { wallsAfter: (cursor) => plainWalls(parsed, cursor) } };
  const months = parsed.fields.month.values;
  const anyDay = parsed.fields.dayOfWeek.isWildcard;
  if (!canFire(['last' in rule ? 'L' : rule.nearest], months, anyDay)) {
    return { problem: neverFires(fields) };
  }
  return { cron: weekdayCron(fields, rule, months, anyDay) };
}

/** The six fields (seconds first) of a valid expression, nicknames expanded; undefined when invalid. */
export function cronFields(expression: string): string[] | undefined {
  if ('problem' in compileCron(expression)) return undefined;
  const fields = sixFields(expression);
  return typeof fields === 'string' ? undefined : fields;
}

/**
 * An expression split for counting: the same schedule fired once per matching minute (its seconds
 * field set to 0), and the seconds of each such minute it fires at. A schedule fires in a minute at
 * all of those seconds or at none: no field but the seconds depends on the second.
 */
export function minuteSchedule(
  expression: string,
): { minutes: string; seconds: number[] } | { problem: string } {
  const compiled = compileCron(expression);
  if ('problem' in compiled) return compiled;
  const fields = sixFields(expression);
  if (typeof fields === 'string') return { problem: fields };
  const seconds = CronExpressionParser.parse(`${fields[0] ?? '0'} * * * * *`, PARSING).fields.second.values;
  return { minutes: ['0', ...fields.slice(1)].join(' '), seconds: [...seconds] };
}

function sixFields(expression: string): string[] | string {
  const trimmed = expression.trim();
  if (trimmed === '') return 'the expression is empty';
  if (trimmed.length > MAX_LENGTH) return `the expression is longer than ${MAX_LENGTH} characters`;
  if (trimmed.startsWith('@')) {
    const expanded = NICKNAMES[trimmed.toLowerCase()];
    if (expanded === undefined) {
      return `unknown nickname ${trimmed} (accepted: ${Object.keys(NICKNAMES).join(', ')})`;
    }
    return expanded.split(' ');
  }
  const fields = trimmed.split(/\s+/);
  if (fields.length === 5) return ['0', ...fields];
  if (fields.length === 6) return fields;
  return `expected 5 fields (or 6 with a leading seconds field), got ${fields.length}`;
}

// cron-parser reads H as a hashed (pseudo-random) value, which our grammar does not have.
function hashProblem(fields: readonly string[]): string | undefined {
  for (const [index, raw] of fields.entries()) {
    const names = index === 4 ? NAMES[0] : index === 5 ? NAMES[1] : undefined;
    const letters = (names ? raw.replace(names, '') : raw).replace(/[^A-Za-z]/g, '');
    // Other letters (MARCH) make the field invalid anyway: leave that reason to cron-parser.
    if (letters.includes('H') && /^[HLW]+$/.test(letters)) {
      return `${FIELD_NAMES[index] ?? 'a'} field "${raw}": H (hashed values) is not supported`;
    }
  }
  return undefined;
}

function withDayOfMonth(fields: readonly string[], dayOfMonth: string): string[] {
  return fields.map((raw, index) => (index === 3 ? dayOfMonth : raw));
}

function parse(fields: readonly string[]): CronExpression | string {
  try {
    return CronExpressionParser.parse(fields.join(' '), PARSING);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return describeFailure(fields, message);
  }
}

// cron-parser's messages rarely name the field at fault: find it by parsing each field alone.
function describeFailure(fields: readonly string[], message: string): string {
  for (const [index, raw] of fields.entries()) {
    const alone = fields.map((other, position) => (position === index ? other : '*'));
    try {
      CronExpressionParser.parse(alone.join(' '), PARSING);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return `${FIELD_NAMES[index] ?? 'a'} field "${raw}": ${plainReason(index, raw, reason)}`;
    }
  }
  const days = CronExpressionParser.parse(`0 0 0 ${fields[3] ?? '*'} * *`, PARSING).fields.dayOfMonth;
  const months = CronExpressionParser.parse(`0 0 0 * ${fields[4] ?? '*'} *`, PARSING).fields.month;
  const anyDay = fields[5] === '*' || fields[5] === '?';
  return canFire(days.values, months.values, anyDay) ? message : neverFires(fields);
}

// Days of the month and of the week combine with OR once both are restricted, so only a day of
// the month that no allowed month has, with any day of the week, never fires.
function canFire(
  days: readonly (number | string)[],
  months: readonly number[],
  anyDayOfWeek: boolean,
): boolean {
  if (!anyDayOfWeek) return true;
  const longest = Math.max(...months.map((month) => LONGEST_MONTH[month - 1] ?? 0));
  return days.some((day) => typeof day !== 'number' || day <= longest);
}

function neverFires(fields: readonly string[]): string {
  return `never fires: day of month "${fields[3] ?? ''}" does not occur in month "${fields[4] ?? ''}"`;
}

function* plainWalls(expression: CronExpression, cursor: number): Generator<number> {
  expression.reset(new Date(cursor));
  for (;;) {
    let wall: number;
    try {
      wall = expression.next().getTime();
    } catch {
      return;
    }
    yield wall;
  }
}

function weekdayCron(
  fields: readonly string[],
  rule: WeekdayRule,
  months: readonly number[],
  anyDayOfWeek: boolean,
): CompiledCron {
  const allowed = new Set(months);
  const parsed = new Map<string, CronFieldCollection>();
  const fieldsFor = (dayOfMonth: string): CronFieldCollection => {
    let collection = parsed.get(dayOfMonth);
    if (!collection) {
      collection = CronExpressionParser.parse(withDayOfMonth(fields, dayOfMonth).join(' '), PARSING).fields;
      parsed.set(dayOfMonth, collection);
    }
    return collection;
  };
  return { wallsAfter: (cursor) => weekdayWalls({ rule, months: allowed, anyDayOfWeek, cursor }, fieldsFor) };
}
