import cronstrue from 'cronstrue';
import { cronFields } from './cron-expression.js';

/**
 * A valid expression in plain English, as people read a schedule (`At 09:00, Monday through
 * Friday`), or undefined for one `cronProblem` refuses. cronstrue words it; our grammar decides what
 * is valid first, and hands it the six fields with nicknames expanded, so both read one schedule.
 * Times are in the cron's own zone, on a 24-hour clock.
 */
export function describeCron(expression: string): string | undefined {
  const fields = cronFields(expression);
  if (!fields) return undefined;
  // A seconds field of 0 is the 5-field form: worded without "at 0 seconds past the minute".
  const words = fields[0] === '0' ? fields.slice(1) : fields;
  try {
    return cronstrue.toString(words.join(' '), {
      use24HourTimeFormat: true,
      dayOfWeekStartIndexZero: true,
      throwExceptionOnParseError: true,
    });
  } catch {
    return undefined;
  }
}
