/** The viewer's IANA time zone, e.g. `Europe/Paris`. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** `Tue, 14 Jan 2030, 09:00:00` in `timeZone` (the viewer's by default). */
export function formatInstant(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** Whether a schedule's occurrences fall on seconds other than :00, so that every one shows them. */
export function hasSeconds(isos: readonly string[]): boolean {
  return isos.some((iso) => new Date(iso).getUTCSeconds() !== 0);
}

/**
 * `Mon, 14 Jan 2030, 09:00` in `timeZone`, or `…, 09:00:30` with `withSeconds`: decided for a
 * whole schedule (see `hasSeconds`), so that its :00 runs do not lose their seconds.
 */
export function formatOccurrence(iso: string, timeZone: string, withSeconds: boolean): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' } : {}),
    timeZone,
  }).format(new Date(iso));
}

/**
 * `Mon 14 Jan, 09:00` in `timeZone` (`…, 09:00:30` with `withSeconds`, see `hasSeconds`), the year
 * only when it is not this year's: one line in a table of next runs.
 */
export function formatRun(iso: string, timeZone: string, withSeconds: boolean, now = new Date()): string {
  const year = (date: Date) => new Intl.DateTimeFormat('en-GB', { year: 'numeric', timeZone }).format(date);
  const parts = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(year(new Date(iso)) === year(now) ? {} : { year: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' } : {}),
    timeZone,
  }).format(new Date(iso));
  return parts.replace(/^(\w{3}),/, '$1');
}

/** `14 Jan, 09:00` in the viewer's time zone: compact, for tables. */
export function formatShort(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(iso));
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** `in 5 minutes`, `3 hours ago`, `now`: the largest whole unit between `now` and `iso`. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const diff = Date.parse(iso) - now;
  if (Math.abs(diff) < 1000) return 'now';
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return format.format(Math.trunc(diff / ms), unit);
  }
  return 'now';
}

/** `340 ms`, `2.4 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A value for an `<input type="datetime-local">` showing `date` in the viewer's time zone. */
export function toLocalInput(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** The instant an `<input type="datetime-local">` value names in the viewer's time zone, or undefined. */
export function fromLocalInput(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
