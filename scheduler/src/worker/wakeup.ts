/**
 * Wakes a loop at every tick, or shortly after a poke: pokes within `gatherMs` of each other wake it
 * once, so a burst of finished calls leads to one claim rather than one each.
 */
export class Wakeup {
  #wake: (() => void) | undefined;
  #poked = false;
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

  /** Resolves at the next tick, after a poke, or when `stopping` aborts. */
  async wait(stopping: AbortSignal): Promise<void> {
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
  }

  stop(): void {
    clearTimeout(this.#gathering);
    this.#wake?.();
  }
}
