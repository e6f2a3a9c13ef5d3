/**
 * Converts between instants and wall-clock times of one time zone. A wall time is written as the
 * epoch milliseconds it would have in UTC, so cron arithmetic can run in UTC, where every day has 24
 * hours, and only this last step meets DST.
 */
export type WallTime = { instant: number } | { gapEnd: number };

/** A span of instants with at most one offset change, at `change` (Infinity when none). */
interface Segment {
  start: number;
  end: number;
  before: number;
  after: number;
  change: number;
}

const HOUR = 3_600_000;
// Offsets lie within [-12h, +14h], so every instant showing a given wall time lies in this window.
const EARLIEST = 14 * HOUR;
const LATEST = 12 * HOUR;
// Segments reach a day past the window so that a run of nearby wall times shares one segment.
const REACH = 24 * HOUR;

/**
 * What is known of a zone, shared by its clocks: a segment holds for every clock of the zone, and
 * each `formatToParts` costs more than the rest of a next run (a page of crons computes 50).
 */
interface Zone {
  formatter: Intl.DateTimeFormat;
  segment: Segment | undefined;
}

const zones = new Map<string, Zone>();

function zoneOf(timezone: string): Zone {
  let zone = zones.get(timezone);
  if (!zone) {
    let formatter: Intl.DateTimeFormat;
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: timezone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new RangeError(`unknown time zone: ${timezone}`);
    }
    zone = { formatter, segment: undefined };
    zones.set(timezone, zone);
  }
  return zone;
}

/**
 * The clock of a zone (`null` is UTC). Assumes the zone changes its offset at most once in any
 * 50 hours: in the tz database since 1970 the closest changes are 166 hours apart.
 */
export class ZoneClock {
  readonly #zone: Zone | undefined;

  constructor(timezone: string | null) {
    this.#zone = timezone === null ? undefined : zoneOf(timezone);
  }

  /**
   * The first instant showing `wall` (a wall time repeated by a fold maps to its first pass), or,
   * for a wall time skipped by a gap, the first wall time after that gap.
   */
  resolve(wall: number): WallTime {
    if (!this.#zone) return { instant: wall };
    const segment = this.#cover(wall - EARLIEST, wall + LATEST);
    // The larger offset gives the earlier instant: try it first so that a fold keeps its first pass.
    const offsets = [Math.max(segment.before, segment.after), Math.min(segment.before, segment.after)];
    for (const offset of offsets) {
      if (offsetIn(segment, wall - offset) === offset) return { instant: wall - offset };
    }
    return { gapEnd: segment.change + segment.after };
  }

  /**
   * The exclusive wall-time cursor from which occurrences after `instant` are found. In the second
   * pass of a fold the repeated wall times have already fired, so the cursor skips to the fold's end.
   */
  cursorAfter(instant: number): number {
    if (!this.#zone) return instant;
    const wall = instant + this.#offsetOf(instant);
    const first = this.resolve(wall);
    const segment = this.#zone.segment;
    if (!('instant' in first) || first.instant >= instant || !segment) return wall;
    return segment.change + segment.before - 1;
  }

  #cover(start: number, end: number): Segment {
    const known = this.#zone?.segment;
    if (known && start >= known.start && end <= known.end) return known;
    const reach = end + REACH;
    const before = this.#offsetOf(start);
    const after = this.#offsetAt(reach);
    const change = before === after ? Number.POSITIVE_INFINITY : this.#changeBetween(start, reach);
    const segment = { start, end: reach, before, after, change };
    if (this.#zone) this.#zone.segment = segment;
    return segment;
  }

  /** The offset at `instant`, read from the known segment when it holds the instant. */
  #offsetOf(instant: number): number {
    const known = this.#zone?.segment;
    return known && instant >= known.start && instant <= known.end
      ? offsetIn(known, instant)
      : this.#offsetAt(instant);
  }

  /** The first instant in (low, high] with the offset of `high`, when `low` has another offset. */
  #changeBetween(low: number, high: number): number {
    const target = this.#offsetAt(high);
    let before = low;
    let after = high;
    while (after - before > 1) {
      const middle = Math.floor((before + after) / 2);
      if (this.#offsetAt(middle) === target) after = middle;
      else before = middle;
    }
    return after;
  }

  #offsetAt(instant: number): number {
    if (!this.#zone) return 0;
    const parts: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
    for (const part of this.#zone.formatter.formatToParts(instant)) parts[part.type] = Number(part.value);
    const { year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
    const shown = Date.UTC(year, month - 1, day, hour % 24, minute, second);
    return shown - (instant - (((instant % 1000) + 1000) % 1000));
  }
}

function offsetIn(segment: Segment, instant: number): number {
  return instant < segment.change ? segment.before : segment.after;
}
