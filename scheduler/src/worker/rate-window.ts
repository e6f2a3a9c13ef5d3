/**
 * A sliding-window limit: at most `requests` starts in any window of `windowMs`. It keeps the times
 * of the last `requests` starts, so "in any window" holds exactly, unlike a token bucket (which lets
 * twice its size through across a window boundary).
 */
export class RateWindow {
  /** Start times, oldest first; never more than `requests`. */
  readonly #starts: number[] = [];

  constructor(
    readonly requests: number,
    readonly windowMs: number,
  ) {}

  /** How many more may start at `now`. */
  room(now: number): number {
    this.#forget(now);
    return Math.max(0, this.requests - this.#starts.length);
  }

  /** Records a start at `now`. */
  take(now: number): void {
    this.#forget(now);
    this.#starts.push(now);
    if (this.#starts.length > this.requests) this.#starts.shift();
  }

  /** When the next start may happen, when there is no room at `now`; undefined when there is. */
  nextRoomAt(now: number): number | undefined {
    if (this.room(now) > 0) return undefined;
    return (this.#starts[0] ?? now) + this.windowMs;
  }

  #forget(now: number): void {
    while (this.#starts.length > 0 && (this.#starts[0] ?? 0) <= now - this.windowMs) this.#starts.shift();
  }
}
