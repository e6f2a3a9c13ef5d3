// cron-parser explains a refused field in its own terms ("Constraint error, got value 61 expected
// range 0-59"). These rewrite the reasons people meet into plain words; an unknown one is kept.

interface FieldWords {
  /** What one value is: `minute`, `day of the month`. */
  unit: string;
  /** The plural: `minutes`, `days of the month`. */
  units: string;
  min: number;
  max: number;
  /** The names it accepts besides numbers. */
  names?: string;
  /** Its special forms. */
  special?: string;
}

/** The day-of-month field (its `W` days are checked before cron-parser sees them). */
export const DAY_OF_MONTH: FieldWords = {
  unit: 'day of the month',
  units: 'days of the month',
  min: 1,
  max: 31,
  special: 'L, 15W, LW',
};

/** By position in a six-field expression (seconds first). */
const FIELDS: readonly FieldWords[] = [
  { unit: 'second', units: 'seconds', min: 0, max: 59 },
  { unit: 'minute', units: 'minutes', min: 0, max: 59 },
  { unit: 'hour', units: 'hours', min: 0, max: 23 },
  DAY_OF_MONTH,
  { unit: 'month', units: 'months', min: 1, max: 12, names: 'JAN to DEC' },
  {
    unit: 'day of the week',
    units: 'days of the week',
    min: 0,
    max: 7,
    names: 'SUN to SAT',
    special: '5L, FRI#2',
  },
];

/** `months go from 1 to 12 (or JAN to DEC)`. */
export function span(field: FieldWords): string {
  const names = field.names ? ` (or ${field.names})` : '';
  const sunday = field.max === 7 ? '; 0 and 7 are both Sunday' : '';
  return `${field.units} go from ${field.min} to ${field.max}${names}${sunday}`;
}

const accepted = (field: FieldWords) =>
  `numbers, ranges (1-5), lists (1,15), steps (*/10)${field.special ? `, ${field.special}` : ''} or *`;

/** The word of `raw` that cron-parser shortened to its first three letters (`fun` of `FUNDAY`). */
const wordOf = (raw: string, alias: string) =>
  raw.split(/[,\-/#]/).find((token) => token.toLowerCase().startsWith(alias.toLowerCase())) ?? alias;

type Rewrite = (match: RegExpMatchArray, field: FieldWords, raw: string) => string;

const REWRITES: [RegExp, Rewrite][] = [
  [/got value (\d+) expected range/, ([, value], field) => `${value} is out of range: ${span(field)}`],
  [
    /got value (\S+) expected range/,
    ([, value], field) => `"${value}" is not allowed here: use ${accepted(field)}`,
  ],
  [/got range (\d+)-(\d+) expected range/, ([, a, b], field) => `${a}-${b} is out of range: ${span(field)}`],
  [/Invalid range: (\d+)-(\d+), outside/, ([, a, b], field) => `${a}-${b} is out of range: ${span(field)}`],
  [
    /Invalid range: (\d+)-(\d+), min(\(\d+\))? > max/,
    ([, a, b], field) =>
      `the range ${a}-${b} runs backwards: ranges do not wrap around, so write ${a}-${field.max},${field.min}-${b}`,
  ],
  [/got range NaN|Invalid range: /, () => 'a range needs a number on each side of the dash, as in 1-5'],
  [
    /cannot repeat at every 0|Invalid step: -?\d+, must be positive/,
    () => 'a step of 0 never moves on: use 1 or more, as in */5',
  ],
  [
    /Invalid step: (\d+), wider than the (\d+)-(\d+) range/,
    ([, step, a, b]) => `a step of ${step} is wider than the range ${a}-${b}`,
  ],
  [
    /cannot resolve alias "(\w+)"/,
    ([, alias = ''], field, raw) => `"${wordOf(raw, alias)}" is not a ${field.unit}: ${span(field)}`,
  ],
  [
    /Invalid characters, got value: (.+)$/,
    ([, value], field) => `"${value}" is not allowed here: use ${accepted(field)}`,
  ],
  [/Invalid wildcard/, () => 'a wildcard is a single *'],
  [/Invalid list value format/, () => 'a list needs a value between its commas, as in 1,15'],
  [/duplicate values found: (\w+)/, ([, value]) => `${value} is listed twice`],
  [/occurrence number \(#\)/, () => 'the number after # must be 1 to 5, as in FRI#2 (the second Friday)'],
  [/`#` and `.` special characters are incompatible/, () => '# takes one day of the week, as in FRI#2'],
  [/unexpected standalone L/, () => 'L needs a day of the week before it, as in 5L (the last Friday)'],
];

/** cron-parser's reason for refusing `raw`, the field at `index` (seconds first), in plain words. */
export function plainReason(index: number, raw: string, reason: string): string {
  const field = FIELDS[index];
  if (!field) return reason;
  for (const [pattern, rewrite] of REWRITES) {
    const match = reason.match(pattern);
    if (match) return rewrite(match, field, raw);
  }
  return reason;
}
