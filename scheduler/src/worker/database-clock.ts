/**
 * When events fall due, by the database's clock, on this process's `performance.now()`. A claim's
 * rows say how long their events had left when the database read its clock; the reply reached here
 * later, by the time it took. So each claim bounds the database's clock from below, and the highest
 * bound of the last few seconds (the claim whose reply came quickest) is the tightest. Counted from
 * each claim's own reply instead, every call started late by that reply's delay, the event loop's
 * under load: 6–11 ms at the median in bench/destinations `shares` (bench/README.md, 2026-11-28).
 * A bound never starts a call early unless the database's clock is set back within those seconds.
 * (Scheduled times are whole milliseconds, as every one comes from a JavaScript date.)
 */
export class DatabaseClock {
  /** The highest bounds (database time less local time) of this window and the last one. */
  #current = Number.NEGATIVE_INFINITY;
  #previous = Number.NEGATIVE_INFINITY;
  #windowStart = Number.NEGATIVE_INFINITY;

  constructor(private readonly windowMs = 5000) {}

  /** The database read `readAt` (epoch ms) on its clock by `at` here (`performance.now()`) at the latest. */
  observe(readAt: number, at: number): void {
    if (at - this.#windowStart >= this.windowMs) {
      this.#previous = at - this.#windowStart < 2 * this.windowMs ? this.#current : Number.NEGATIVE_INFINITY;
      this.#current = Number.NEGATIVE_INFINITY;
      this.#windowStart = at;
    }
    this.#current = Math.max(this.#current, readAt - at);
  }

  /**
   * When each of a claim's rows, returned by `at` (`performance.now()`), may start: at once if due,
   * else when the database's clock reaches its time.
   */
  dueTimes<Row extends { scheduledAt: Date; dueInMs: number }>(claimed: Row[], at: number): [Row, number][] {
    const ahead = claimed.find((row) => row.dueInMs > 0);
    if (ahead) this.observe(ahead.scheduledAt.getTime() - ahead.dueInMs, at);
    return claimed.map((row) => [row, row.dueInMs > 0 ? this.when(row.scheduledAt.getTime()) : at]);
  }

  /** When the database's clock reaches `time` (epoch ms), on `performance.now()`'s clock, at the latest. */
  when(time: number): number {
    return time - Math.max(this.#current, this.#previous);
  }
}
