import { refillBatch } from './shares.js';

/** The fewest places a claim waits for: a hundredth of the process's. */
export function fewestPlaces(size: number): number {
  return Math.max(1, Math.floor(size / 100));
}

/**
 * The places the backlog's claims leave to what falls due now: a tenth of the process's. Without
 * them, a backlog of thousands (a downtime's, a burst's refills) took every place, and the seconds
 * falling due waited for its outcomes to be written (bench/scale `catch-up`).
 */
export function placesKeptForDue(size: number): number {
  return Math.floor(size / 10);
}

/** A counting limit on in-flight deliveries, with waits for room and for idleness. */
export class Capacity {
  #free: number;
  /** Places taken by claims still running: those they return no event for are free again. */
  #claiming = 0;
  #waiting: (() => void)[] = [];
  /** Claims waiting in {@link room}. */
  #wanting = 0;
  /** Called when a claim begins to wait for places. */
  onWant: () => void = () => undefined;
  /** Deliveries ended since a claim was cut short (due events may wait for room); undefined if none was. */
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

  /** Places no claimed call holds: free, or taken by a claim still running. */
  get unheld(): number {
    return this.#free + this.#claiming;
  }

  /** Takes up to `wanted` places now; returns how many were taken. */
  take(wanted: number): number {
    const taken = Math.max(0, Math.min(wanted, this.#free));
    this.#free -= taken;
    return taken;
  }

  /** Takes up to `wanted` places for a claim, until it {@link settle}s; returns how many. */
  reserve(wanted: number): number {
    const taken = this.take(wanted);
    this.#claiming += taken;
    return taken;
  }

  /** A claim that reserved `reserved` places returned `used` events: the rest are free again. */
  settle(reserved: number, used: number): void {
    this.#claiming -= reserved;
    this.give(reserved - used);
  }

  /**
   * Notes that a claim took less than a full batch while events may still be due: it found no more
   * room here, or in the shares, or rows another transaction held.
   */
  cutShort(): void {
    this.#freedSinceShort = 0;
  }

  /** Gives back places taken and not used (a claim that found fewer events). */
  give(count = 1): void {
    this.#free = Math.min(this.size, this.#free + count);
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }

  /**
   * Gives back the place of a delivery that ended; returns whether a claim was cut short and a batch
   * of deliveries ({@link refillBatch}) has ended since, so a claim may find room for the events left.
   */
  release(): boolean {
    this.give(1);
    if (this.#freedSinceShort === undefined) return false;
    this.#freedSinceShort += 1;
    if (this.#freedSinceShort < refillBatch(this.size)) return false;
    this.#freedSinceShort = undefined;
    return true;
  }

  /** Whether places are wanted: a claim waits for them, or fewer are free than a claim waits for. */
  get wanted(): boolean {
    return this.#wanting > 0 || this.#free < fewestPlaces(this.size);
  }

  /** Resolves when at least `places` places are free. */
  async room(places = 1): Promise<void> {
    if (this.#free >= places) return;
    this.#wanting += 1;
    this.onWant();
    try {
      while (this.#free < places) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } finally {
      this.#wanting -= 1;
    }
  }

  /** Resolves when nothing is in flight. */
  async idle(): Promise<void> {
    while (this.#free < this.size) await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }
}
