import { refillBatch } from './shares.js';

/** A counting limit on in-flight deliveries, with waits for room and for idleness. */
export class Capacity {
  #free: number;
  #waiting: (() => void)[] = [];
  /** Places freed since a claim was cut short (due events may wait for room); undefined if none was. */
  #freedSinceShort: number | undefined;

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

  /**
   * Notes that a claim took less than a full batch while events may still be due: it found no more
   * room here, or in the shares, or rows another transaction held.
   */
  cutShort(): void {
    this.#freedSinceShort = 0;
  }

  /**
   * Gives back places; returns whether a claim was cut short and a batch of places
   * ({@link refillBatch}) has been freed since, so a claim may find room for the events left.
   */
  give(count = 1): boolean {
    this.#free = Math.min(this.size, this.#free + count);
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
    if (this.#freedSinceShort === undefined) return false;
    this.#freedSinceShort += count;
    if (this.#freedSinceShort < refillBatch(this.size)) return false;
    this.#freedSinceShort = undefined;
    return true;
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
