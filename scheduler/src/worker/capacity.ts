/** A counting limit on in-flight deliveries, with waits for room and for idleness. */
export class Capacity {
  #free: number;
  #waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    this.#free = size;
  }

  get free(): number {
    return this.#free;
  }

  get inUse(): number {
    return this.size - this.#free;
  }

  /** Takes up to `wanted` places now; returns how many were taken. */
  take(wanted: number): number {
    const taken = Math.max(0, Math.min(wanted, this.#free));
    this.#free -= taken;
    return taken;
  }

  give(count = 1): void {
    this.#free = Math.min(this.size, this.#free + count);
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }

  /** Resolves when at least one place is free. */
  async room(): Promise<void> {
    while (this.#free === 0) await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Resolves when nothing is in flight. */
  async idle(): Promise<void> {
    while (this.#free < this.size) await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }
}
