import { randomUUID } from 'node:crypto';
import type { EventStatus, RetryConfig } from '@webhook-scheduler/contract';
import type { ClaimOptions, ClaimShares, ClaimedAttempt, EventStore, WebhookOutcome } from '../ports.js';

/** An event to put in the store before a test, in any state the API could have left it. */
export interface SeedEvent {
  id: string;
  teamId: string;
  scheduledAt: Date;
  webhookUrl: string;
  status?: EventStatus;
  retryOf?: string | null;
  attempt?: number;
  retryConfig?: RetryConfig | null;
}

/** A cron to put in the store: the rest is a POST to a fixed URL without retries. */
export interface SeedCron {
  id: string;
  teamId: string;
  cronExpression: string;
  isActive: boolean;
}

/** What the suite reads back of a stored event. */
export interface StoredEvent {
  status: EventStatus;
  retryOf: string | null;
  attempt: number;
  scheduledAt: Date;
  leaseToken: string | null;
  leaseOwner: number | null;
  leaseExpiresAt: Date | null;
  claimCount: number;
  executedAt: Date | null;
  responseStatus: number | null;
  responseError: string | null;
}

/** One implementation of the port, fresh and empty, with the means to arrange and inspect it. */
export interface StoreUnderTest {
  store: EventStore;
  seed(events: SeedEvent[]): Promise<void>;
  seedCrons(crons: SeedCron[]): Promise<void>;
  read(id: string): Promise<StoredEvent | undefined>;
  /** The store's clock. */
  now(): Date;
  /** Lets `ms` pass on the store's clock (a store on the real clock waits). */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Shares that hold nothing back. */
export const OPEN_SHARES: ClaimShares = {
  teamMax: 100,
  destinationMax: 100,
  pairMax: 100,
  teams: [],
  destinations: [],
  pairs: [],
};

/** A claim of up to 10 events with a long lease by owner 1; `overrides` change any of it. */
export function claimOptions(overrides: Partial<ClaimOptions> = {}): ClaimOptions {
  return {
    limit: 10,
    leaseMs: 60_000,
    leaseToken: randomUUID(),
    owner: 1,
    shares: OPEN_SHARES,
    ...overrides,
  };
}

/** A pending original of `teamId` due `offsetMs` from `now` (negative: already due). */
export function seedEvent(
  now: Date,
  teamId: string,
  offsetMs: number,
  overrides: Partial<SeedEvent> = {},
): SeedEvent {
  return {
    id: randomUUID(),
    teamId,
    scheduledAt: new Date(now.getTime() + offsetMs),
    webhookUrl: 'https://hooks.example/in',
    ...overrides,
  };
}

/** The slot window around `now` the claims of the suite use: ten minutes either side. */
export function slotAround(now: Date): { from: Date; before: Date } {
  return { from: new Date(now.getTime() - 600_000), before: new Date(now.getTime() + 600_000) };
}

/** The ids, sorted: claims return events in time order, but ties and sets compare better sorted. */
export const idsOf = (items: { id: string }[]): string[] => items.map((item) => item.id).sort();

/** An outcome of a call started an hour ago, so that any retry it plans is due already. */
export function outcome(t: StoreUnderTest, ok: boolean): WebhookOutcome {
  return {
    ok,
    status: ok ? 200 : 500,
    headers: {},
    body: ok ? 'fine' : 'broken',
    durationMs: 12,
    error: ok ? null : 'HTTP 500',
    permanent: false,
    startedAt: new Date(t.now().getTime() - 3_600_000),
  };
}

/** Seeds one due event (with `retryConfig`) and claims it. */
export async function claimOne(
  t: StoreUnderTest,
  retryConfig: RetryConfig | null = null,
): Promise<ClaimedAttempt> {
  await t.seed([seedEvent(t.now(), randomUUID(), -1000, { retryConfig })]);
  const [attempt] = await t.store.claimBacklog(claimOptions());
  if (!attempt) throw new Error('the seeded event was not claimed');
  return attempt;
}
