/** About how long a claim takes on a busy machine: what a team's places finish meanwhile is leased ahead. */
export const AHEAD_MS = 100;
/** Most rounds of a team's places leased ahead. */
const MOST_ROUNDS = 8;
/** The weight of the latest call in a pair's average. */
const WEIGHT = 0.2;

/**
 * How many calls of a team to a destination are leased ahead of its `places` when its calls last
 * `callMs`: as many as those places finish within about a claim's time, at most four more rounds. A
 * place then starts its next call as its last one ends, not a claim later; calls of a second wait
 * there for a few at most.
 */
export function leaseAhead(places: number, callMs: number): number {
  return Math.min(places * MOST_ROUNDS, Math.ceil((places * AHEAD_MS) / Math.max(1, callMs)));
}

/** How long the calls of each team at each destination (`key`) lasted lately. */
export class CallPace {
  readonly #averageMs = new Map<string, number>();

  note(key: string, ms: number): void {
    const average = this.#averageMs.get(key);
    this.#averageMs.set(key, average === undefined ? ms : average + WEIGHT * (ms - average));
  }

  /** The pair has no call in flight or waiting: its next burst starts without a guess. */
  forget(key: string): void {
    this.#averageMs.delete(key);
  }

  /**
   * Whether the pair's calls lately ended within about a claim's time: then a place it holds frees
   * within milliseconds for whoever waits for one. Not before one of its calls has ended.
   */
  quick(key: string): boolean {
    const average = this.#averageMs.get(key);
    return average !== undefined && average <= AHEAD_MS;
  }

  /** Calls to lease ahead of the pair's `places`: none before one of its calls has ended. */
  ahead(key: string, places: number): number {
    const average = this.#averageMs.get(key);
    return average === undefined ? 0 : leaseAhead(places, average);
  }
}
