import type { EventStatus } from '@webhook-scheduler/contract';
import type {
  AttemptRecord,
  ClaimOptions,
  ClaimedAttempt,
  DestinationLimit,
  EventStore,
  RetryAttempt,
} from '../ports.js';
import { webhookOrigin } from '../delivery/origin.js';
import { type Candidate, NEVER, backlogCandidates, chooseClaims, slotCandidates } from './memory-claims.js';
import { type MemoryCron, occurrencesToAdd } from './memory-crons.js';
import { requestOf } from '../event-request.js';

/** One stored event: the columns the delivery statements read and write. */
export type MemoryEvent = Omit<RetryAttempt, 'originalId'> &
  Pick<
    AttemptRecord,
    | 'executedAt'
    | 'responseStatus'
    | 'responseHeaders'
    | 'responseBody'
    | 'responseDuration'
    | 'responseError'
  > & {
    retryOf: string | null;
    status: EventStatus;
    leaseToken: string | null;
    leaseOwner: number | null;
    leaseExpiresAt: Date | null;
    claimCount: number;
  };

/** An event to store: its id, team, time and URL; the rest defaults to a fresh pending original. */
export type NewEvent = Pick<MemoryEvent, 'id' | 'teamId' | 'scheduledAt' | 'webhookUrl'> &
  Partial<MemoryEvent>;

export interface MemoryEventStoreOptions {
  /** The store's clock (the database clock of the PostgreSQL store). */
  now?: () => Date;
  /** The signing secrets of a team, newest first. */
  signingSecrets?: (teamId: string) => string[];
}

const FRESH = {
  cronId: null,
  retryOf: null,
  attempt: 0,
  status: 'pending',
  method: 'POST',
  headers: null,
  payload: null,
  retryConfig: null,
  timeoutMs: null,
  traceContext: null,
  executedAt: null,
  responseStatus: null,
  responseHeaders: null,
  responseBody: null,
  responseDuration: null,
  responseError: null,
  leaseToken: null,
  leaseOwner: null,
  leaseExpiresAt: null,
  claimCount: 0,
} as const satisfies Partial<MemoryEvent>;

const UNLEASED = { leaseToken: null, leaseOwner: null, leaseExpiresAt: null } as const;

/**
 * The scheduler's storage port in memory, with the PostgreSQL store's semantics (leases fenced by
 * their token, shares, teams in turn, retries written with their outcome): for testing the
 * scheduler without a database, and as the model the delivery-semantics suite holds both to.
 */
export class MemoryEventStore implements EventStore {
  readonly #events = new Map<string, MemoryEvent>();
  readonly #crons = new Map<string, MemoryCron>();
  readonly #now: () => Date;
  readonly #secrets: (teamId: string) => string[];

  constructor(options: MemoryEventStoreOptions = {}) {
    this.#now = options.now ?? (() => new Date());
    this.#secrets = options.signingSecrets ?? (() => ['whsec_memory']);
  }

  /** Stores events as given (any state), like rows written by the API or by hand. */
  insert(events: NewEvent[]): void {
    for (const event of events) this.#events.set(event.id, { ...FRESH, ...event });
  }

  /** Stores a cron, whose occurrences `topUpCrons` materializes. */
  addCron(cron: MemoryCron): void {
    this.#crons.set(cron.id, { ...cron });
  }

  /** A copy of the stored event, or undefined. */
  get(id: string): MemoryEvent | undefined {
    const event = this.#events.get(id);
    return event && { ...event };
  }

  /** Copies of every stored event, oldest first. */
  all(): MemoryEvent[] {
    return [...this.#events.values()]
      .sort((a, b) => a.scheduledAt.getTime() - b.scheduledAt.getTime())
      .map((event) => ({ ...event }));
  }

  claimDue(
    options: ClaimOptions & { from: Date; before: Date; aheadMs?: number },
  ): Promise<ClaimedAttempt[]> {
    const { from, before, limit, shares, aheadMs = 0 } = options;
    const inSlot = this.#due(aheadMs).filter((c) => c.scheduledAt >= from && c.scheduledAt < before);
    return this.#claim(slotCandidates(inSlot, shares, limit), options);
  }

  claimBacklog(options: ClaimOptions & { from?: Date; aheadMs?: number }): Promise<ClaimedAttempt[]> {
    const from = options.from ?? NEVER;
    const due = this.#due(options.aheadMs).filter((c) => c.scheduledAt >= from);
    return this.#claim(backlogCandidates(due, options.shares, options.limit, options.servedSince), options);
  }

  nextDueAt(from: Date, before: Date, aheadMs = 0): Promise<Date | null> {
    const after = Math.max(from.getTime(), this.#now().getTime() + aheadMs);
    const times = this.#pending()
      .map((event) => event.scheduledAt.getTime())
      .filter((time) => time >= after && time < before.getTime());
    return Promise.resolve(times.length === 0 ? null : new Date(Math.min(...times)));
  }

  pendingSlots(from: Date, before: Date): Promise<number[]> {
    const seconds = this.#pending()
      .map((event) => event.scheduledAt.getTime())
      .filter((time) => time >= from.getTime() && time < before.getTime())
      .map((time) => Math.floor(time / 1000));
    return Promise.resolve([...new Set(seconds)].sort((a, b) => a - b));
  }

  /** Destinations hold nothing back here: the store keeps no destination settings. */
  releaseDestinations(): Promise<number> {
    return Promise.resolve(0);
  }

  nextReleaseInMs(): Promise<number | null> {
    return Promise.resolve(null);
  }

  destinationLimits(): Promise<DestinationLimit[]> {
    return Promise.resolve([]);
  }

  record(records: AttemptRecord[]): Promise<string[]> {
    // Whether each delivery is still open is read before any write, as the single statement does.
    const open = new Map(records.map((r) => [r.id, this.#events.get(r.originalId)?.status === 'processing']));
    const recorded = records.filter((record) => this.#holds(record));
    for (const record of recorded) this.#write(record);
    for (const record of recorded) {
      if (record.retry && open.get(record.id)) this.insert([retryEvent(record.retry)]);
    }
    return Promise.resolve(recorded.map((record) => record.id));
  }

  release(attempts: { id: string; leaseToken: string }[]): Promise<void> {
    for (const attempt of attempts) {
      const event = this.#events.get(attempt.id);
      if (event && this.#holds(attempt)) Object.assign(event, { status: 'pending', ...UNLEASED });
    }
    return Promise.resolve();
  }

  expiredLeases(limit: number, deadOwners: number[]): Promise<ClaimedAttempt[]> {
    const now = this.#now().getTime();
    const expired = [...this.#events.values()]
      .filter((e) => e.status === 'processing' && e.leaseExpiresAt !== null)
      .filter((e) => (e.leaseExpiresAt?.getTime() ?? 0) < now || deadOwners.includes(e.leaseOwner ?? -1))
      .sort((a, b) => (a.leaseExpiresAt?.getTime() ?? 0) - (b.leaseExpiresAt?.getTime() ?? 0));
    return Promise.resolve(expired.slice(0, limit).map((event) => this.#attempt(event)));
  }

  topUpCrons(horizonMs: number, limit: number): Promise<number> {
    const now = this.#now();
    const events = occurrencesToAdd([...this.#crons.values()], now, horizonMs, limit);
    const taken = new Set(
      this.all()
        .filter((e) => e.cronId && !e.retryOf)
        .map(occurrenceKey),
    );
    // An occurrence that exists already (another process materialized it) is skipped.
    this.insert(events.filter((event) => !taken.has(occurrenceKey(event))));
    return Promise.resolve(events.length);
  }

  dueBacklog(): Promise<number> {
    return Promise.resolve(this.#due().length);
  }

  warmUp(): Promise<void> {
    return Promise.resolve();
  }

  #pending(): MemoryEvent[] {
    return [...this.#events.values()].filter((event) => event.status === 'pending');
  }

  /** Pending events due now, or within `aheadMs`. */
  #due(aheadMs = 0): Candidate[] {
    const by = this.#now().getTime() + aheadMs;
    return this.#pending()
      .filter((event) => event.scheduledAt.getTime() <= by)
      .map((event) => ({ ...event, origin: webhookOrigin(event.webhookUrl) }));
  }

  #claim(chosen: Candidate[], options: ClaimOptions): Promise<ClaimedAttempt[]> {
    if (options.limit <= 0) return Promise.resolve([]);
    const leaseExpiresAt = new Date(this.#now().getTime() + options.leaseMs);
    const claimed = chooseClaims(chosen, options.shares, options.limit, options.servedSince).flatMap((c) => {
      const event = this.#events.get(c.id);
      if (!event) return [];
      event.status = 'processing';
      Object.assign(event, { leaseToken: options.leaseToken, leaseOwner: options.owner, leaseExpiresAt });
      event.claimCount += 1;
      return [this.#attempt(event)];
    });
    return Promise.resolve(claimed.sort((a, b) => a.scheduledAt.getTime() - b.scheduledAt.getTime()));
  }

  /** Whether `lease` is the live lease of a processing event: the fence on every later write. */
  #holds(lease: { id: string; leaseToken: string }): boolean {
    const event = this.#events.get(lease.id);
    return event?.status === 'processing' && event.leaseToken === lease.leaseToken;
  }

  #write(record: AttemptRecord): void {
    const event = this.#events.get(record.id);
    if (!event) return;
    Object.assign(event, {
      status: record.status,
      executedAt: record.executedAt,
      responseStatus: record.responseStatus,
      responseHeaders: record.responseHeaders,
      responseBody: record.responseBody,
      responseDuration: record.responseDuration,
      // As in PostgreSQL, whose text cannot hold NUL.
      responseError: record.responseError?.replaceAll('\u0000', '\uFFFD') ?? null,
      ...UNLEASED,
    });
    const original = this.#events.get(record.originalId);
    if (record.originalStatus && original?.status === 'processing') original.status = record.originalStatus;
  }

  #attempt(event: MemoryEvent): ClaimedAttempt {
    return {
      id: event.id,
      teamId: event.teamId,
      cronId: event.cronId,
      originalId: event.retryOf ?? event.id,
      attempt: event.attempt,
      scheduledAt: event.scheduledAt,
      ...requestOf(event),
      leaseToken: event.leaseToken ?? '',
      claimCount: event.claimCount,
      signingSecrets: this.#secrets(event.teamId),
      origin: webhookOrigin(event.webhookUrl),
      traceContext: event.traceContext,
      sendTraceparent: false,
      dueInMs: Math.max(0, event.scheduledAt.getTime() - this.#now().getTime()),
    };
  }
}

const occurrenceKey = (event: Pick<MemoryEvent, 'cronId' | 'scheduledAt'>) =>
  `${event.cronId ?? ''}@${event.scheduledAt.getTime()}`;

const retryEvent = ({ originalId, ...retry }: RetryAttempt): NewEvent => ({ ...retry, retryOf: originalId });
