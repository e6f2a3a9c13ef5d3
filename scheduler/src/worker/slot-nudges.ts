/**
 * One running slot's wake-ups ahead of its poll. A nudge while its loop claims is kept for the
 * loop's next wait, which then ends at once.
 */
export class SlotNudge {
  #nudged = false;
  #wake: (() => void) | undefined;

  /** Before a claim: what was nudged so far, that claim sees. */
  reset(): void {
    this.#nudged = false;
  }

  nudge(): void {
    this.#nudged = true;
    this.#wake?.();
  }

  /** Resolves after `ms`, or sooner on a nudge (at once after one since {@link reset}). */
  wait(ms: number): Promise<void> {
    if (this.#nudged) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wake = done;
    });
  }
}

/**
 * The slots running in this process, to wake the loop of one when an event is written to fall due
 * in it almost at once (`WAKE_WITHIN_MS`): it claims at once instead of at its next poll.
 */
export class SlotNudges {
  readonly #running = new Map<number, Set<SlotNudge>>();

  open(slot: number): SlotNudge {
    const nudge = new SlotNudge();
    const running = this.#running.get(slot) ?? new Set();
    running.add(nudge);
    this.#running.set(slot, running);
    return nudge;
  }

  close(slot: number, nudge: SlotNudge): void {
    const running = this.#running.get(slot);
    running?.delete(nudge);
    if (running?.size === 0) this.#running.delete(slot);
  }

  /** Wakes the loops of `slot`; false when none runs here. */
  nudge(slot: number): boolean {
    const running = this.#running.get(slot);
    for (const nudge of running ?? []) nudge.nudge();
    return running !== undefined;
  }
}
