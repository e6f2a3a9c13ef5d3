/** How a call ended, for the origin's health: it answered (not a 5xx), or it was found down. */
export type CallAnswer = 'answered' | 'down';

/** A call found its origin down: no response (refused, timed out) or a 5xx. A 4xx is a live receiver. */
export function answerOf(outcome: { ok: boolean; status: number | null }): CallAnswer {
  return !outcome.ok && (outcome.status === null || outcome.status >= 500) ? 'down' : 'answered';
}

/** Failures older than this are forgotten once the team has no call in flight at the origin. */
const DOWNS_KEPT_MS = 5 * 60_000;
/** Most teams at origins remembered as answering; past it, those quiet the longest count as untried again. */
const ANSWERS_KEPT = 100_000;
/** A team at an origin that spent its failures gets one call again after this (the circuit's probe). */
const ONE_AGAIN_AFTER_MS = 1000;

/**
 * The calls of a team to an origin that failed in this process since it last answered, before their
 * outcomes are recorded and the circuit counts them: no more may be in flight than the failures left
 * (`failures`, this process's share of `CIRCUIT_FAILURES`; docs/reference/behaviour.md#circuit-breaker).
 * Once that many failed, one call may go a second after the last, so the circuit's probe is never
 * held back. (Claims cap a team at an origin whose last recorded call failed, or that has none, the
 * same way: `ClaimShares.untriedMax`.)
 */
export class UntriedOrigins {
  /** Calls that found the origin down since it last answered, and when the last one ended. */
  readonly #downs = new Map<string, { count: number; at: number }>();
  /** When the team's calls to the origin last answered here. */
  readonly #answered = new Map<string, number>();
  #failures: number;

  constructor(private readonly failuresTotal: number) {
    this.#failures = failuresTotal;
  }

  /** Most calls at once to an origin not known to answer: this process's share of the failures. */
  get failures(): number {
    return this.#failures;
  }

  /** Divides the failures between `processes` live scheduler processes. */
  split(processes: number): void {
    this.#failures = Math.max(1, Math.ceil(this.failuresTotal / Math.max(1, processes)));
  }

  /**
   * Most calls of the team at the origin (`key`) in flight at `now`: the failures left to one that
   * has not answered here yet, as the claims count them until an answer is recorded.
   */
  places(key: string, now: number): number {
    const downs = this.#downs.get(key);
    if (!downs) return this.#answered.has(key) ? Number.POSITIVE_INFINITY : this.#failures;
    if (downs.count < this.#failures) return this.#failures - downs.count;
    return now - downs.at >= ONE_AGAIN_AFTER_MS ? 1 : 0;
  }

  /** Notes how a call of the team at the origin ended. */
  note(key: string, answer: CallAnswer, now: number): void {
    if (answer === 'answered') {
      this.#downs.delete(key);
      // Kept in the order last answered, so that the longest quiet are dropped past the bound.
      this.#answered.delete(key);
      this.#answered.set(key, now);
      const oldest = this.#answered.keys().next().value;
      if (this.#answered.size > ANSWERS_KEPT && oldest !== undefined) this.#answered.delete(oldest);
      return;
    }
    const downs = this.#downs.get(key);
    this.#downs.set(key, { count: (downs?.count ?? 0) + 1, at: now });
  }

  /** The team has no call in flight at the origin: failures and answers long past are forgotten. */
  idle(key: string, now: number): void {
    const downs = this.#downs.get(key);
    if (downs && now - downs.at >= DOWNS_KEPT_MS) this.#downs.delete(key);
    const answered = this.#answered.get(key);
    if (answered !== undefined && now - answered >= DOWNS_KEPT_MS) this.#answered.delete(key);
  }

  /** Whether the team's calls to the origin (`key`) found it down since it last answered here. */
  isDown(key: string): boolean {
    return this.#downs.has(key);
  }

  /** Teams at origins found down lately, whose places are fewer than the others'. */
  down(): string[] {
    return [...this.#downs.keys()];
  }
}
