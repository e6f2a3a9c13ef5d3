/**
 * Wakes a loop at every tick, or shortly after a poke: pokes within `gatherMs` of each other wake it
 * once, so a burst of finished calls leads to one claim rather than one each.
 */
export class Wakeup {
  #wake: (() => void) | undefined;
  #poked = false;
  #ahead = false;
  #gathering: NodeJS.Timeout | undefined;

  constructor(
    private readonly tickMs: number,
    private readonly gatherMs: number,
  ) {}

  poke(): void {
    this.#gathering ??= setTimeout(() => {
      this.#gathering = undefined;
      this.#poked = true;
      this.#wake?.();
    }, this.gatherMs);
  }

  /**
   * A poke for an event written to fall due soon (or now), which wakes the loop at once: its claim
   * looks ahead (see {@link wait}). Pokes that come while it claims wake it once more after.
   */
  pokeAhead(): void {
    this.#ahead = true;
    this.#poked = true;
    this.#wake?.();
  }

  /**
   * Resolves at the next tick, after a poke, or when `stopping` aborts; true when a poke since the
   * last wait was {@link pokeAhead}'s.
   */
  async wait(stopping: AbortSignal): Promise<boolean> {
    if (!this.#poked && !stopping.aborted) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(tick);
          stopping.removeEventListener('abort', wake);
          this.#wake = undefined;
          resolve();
        };
        const tick = setTimeout(wake, this.tickMs);
        this.#wake = wake;
        stopping.addEventListener('abort', wake, { once: true });
      });
    }
    this.#poked = false;
    const ahead = this.#ahead;
    this.#ahead = false;
    return ahead;
  }

  stop(): void {
    clearTimeout(this.#gathering);
    this.#wake?.();
  }
}
