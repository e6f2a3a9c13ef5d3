/**
 * A sliding-window limit: at most `requests` starts in any window of `windowMs`. It keeps the times
 * of the last `requests` starts, so "in any window" holds exactly, unlike a token bucket (which lets
 * twice its size through across a window boundary).
 */
export class RateWindow {
  /** Start times, oldest first; never more than `requests`. */
  readonly #starts: number[] = [];
  /** When the place of the start last to leave the window opened: that start's time + `windowMs`. */
  #openedAt: number | undefined;

  constructor(
    readonly requests: number,
    readonly windowMs: number,
  ) {}

  /** How many more may start at `now`. */
  room(now: number): number {
    this.#forget(now);
    return Math.max(0, this.requests - this.#starts.length);
  }

  /**
   * Records a start at `now`. With `slackMs`, a start that comes up to that late after its place
   * opened counts from when it opened: the next place opens a window after this one did, not a
   * window after the start, so the time a claim takes does not pile up from one window to the next.
   */
  take(now: number, slackMs = 0): void {
    this.#forget(now);
    this.#starts.push(Math.min(now, Math.max(this.#openedAt ?? now, now - slackMs)));
    if (this.#starts.length > this.requests) this.#starts.shift();
  }

  /** When the next start may happen, when there is no room at `now`; undefined when there is. */
  nextRoomAt(now: number): number | undefined {
    if (this.room(now) > 0) return undefined;
    return (this.#starts[0] ?? now) + this.windowMs;
  }

  #forget(now: number): void {
    while (this.#starts.length > 0 && (this.#starts[0] ?? 0) <= now - this.windowMs) {
      this.#openedAt = (this.#starts.shift() ?? 0) + this.windowMs;
    }
  }
}

/** A rate's window is paced in this many parts. */
const PACES = 5;

/**
 * A team's rate limit at a destination as its receiver sees it: at most `requests` starts in any
 * window of `windowMs`, and at most a fifth of them (rounded up) in any fifth of it. Sent at once,
 * a window's calls reached a loaded receiver over a few hundred milliseconds and met the next
 * window's: 136 arrivals in one second for a limit of 100 (bench/destinations). The fifths keep to
 * their schedule however long a claim takes after each reopens (a start up to a quarter of a fifth
 * late counts from when its place opened); the whole window counts every start when it happened.
 * Counting the fifths from the starts lost a claim's delay five times a window: 94.1/s for 100.
 */
export class PacedRate {
  readonly #window: RateWindow;
  readonly #pace: RateWindow;

  constructor(
    readonly requests: number,
    readonly windowMs: number,
  ) {
    this.#window = new RateWindow(requests, windowMs);
    this.#pace = new RateWindow(Math.ceil(requests / PACES), windowMs / PACES);
  }

  /** How many more may start at `now`. */
  room(now: number): number {
    return Math.min(this.#window.room(now), this.#pace.room(now));
  }

  /** Records a start at `now`. */
  take(now: number): void {
    this.#window.take(now);
    this.#pace.take(now, this.#pace.windowMs / 4);
  }

  /** When the next start may happen, when there is no room at `now`; undefined when there is. */
  nextRoomAt(now: number): number | undefined {
    if (this.room(now) > 0) return undefined;
    return Math.max(this.#window.nextRoomAt(now) ?? now, this.#pace.nextRoomAt(now) ?? now);
  }
}
