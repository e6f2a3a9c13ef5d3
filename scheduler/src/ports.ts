import type { HttpMethod, RetryConfig } from '@webhook-scheduler/contract';

import type { WebhookOutcome } from './delivery/send.js';

export type { Sender, WebhookOutcome, WebhookRequest } from './delivery/send.js';

/**
 * What an event asks to be sent: every attempt of its delivery sends the same (the one declaration
 * of these fields; events, retries, crons and their occurrences extend it).
 */
export interface EventRequest {
  webhookUrl: string;
  method: HttpMethod;
  headers: Record<string, string> | null;
  payload: unknown;
  retryConfig: RetryConfig | null;
  /** The event's own deadline for each call (`timeout_ms`); null for the service's `WEBHOOK_TIMEOUT_MS`. */
  timeoutMs: number | null;
}

/** An event claimed for one delivery attempt, with the lease that guards every later write. */
export interface ClaimedAttempt extends EventRequest {
  id: string;
  teamId: string;
  cronId: string | null;
  /** The original event (itself for attempt 0). */
  originalId: string;
  /** 0 for the original call, n for retry n. */
  attempt: number;
  scheduledAt: Date;
  leaseToken: string;
  /** How many times this attempt was claimed, this claim included. */
  claimCount: number;
  signingSecrets: string[];
  /** The origin the call connects to (`webhookOrigin`, stored with the event): destination limits count it. */
  origin: string;
  /** The W3C `traceparent` of the API request that created the event, if it was traced. */
  traceContext: string | null;
  /** The team wants its receivers sent the attempt's `traceparent`. */
  sendTraceparent: boolean;
  /**
   * How long after the claim returned the attempt falls due, by the database clock read as the
   * claim ended (so never early); 0 when it is due. Only a slot's claim takes events ahead of time.
   */
  dueInMs: number;
}

/**
 * What one claim may take: at most `room` more attempts of a listed team, destination (an origin)
 * or team at a destination, and of any other at most the whole share (`teamMax`,
 * `destinationMax`, `pairMax`).
 */
export interface ClaimShares {
  teamMax: number;
  destinationMax: number;
  /** Most calls of one team to one destination (origin), unless `pairs` lists the pair. */
  pairMax: number;
  /**
   * Most calls at once of one team to an origin whose last recorded call failed, or that has none
   * (`CIRCUIT_FAILURES`, this process's share): no more fail before the circuit can open. Unset:
   * `pairMax`.
   */
  untriedMax?: number;
  teams: { teamId: string; room: number }[];
  destinations: { origin: string; room: number }[];
  /**
   * Teams at destinations: calls held in flight and room left. Within a destination, the teams
   * holding fewest are served first.
   */
  pairs: {
    teamId: string;
    origin: string;
    /** Calls in flight and claimed calls waiting for a place (leased ahead). */
    held: number;
    /** Calls a claim may lease: the places not held, and what the team leases ahead. */
    room: number;
    /**
     * Places not held: a slot claim, which serves what falls due in time order, leaves a team at a
     * destination with none to the backlog's claim. Unset: `room`.
     */
    free?: number;
  }[];
}

/** A team's own limits for calls to a destination (`PATCH /destinations/{origin}`). */
export interface DestinationLimit {
  teamId: string;
  origin: string;
  /** Most calls at once; null for the service's share. */
  maxInFlight: number | null;
  /** Most calls started in any window of `perMs`; null for none. */
  rate: { requests: number; perMs: number } | null;
}

/** A claim: `pending → processing` with `leaseToken`, expiring in `leaseMs`, held by process `owner`. */
export interface ClaimOptions {
  limit: number;
  leaseMs: number;
  leaseToken: string;
  owner: number;
  shares: ClaimShares;
  /**
   * Since when schedulers have served without a break. Within each team, events due since then come
   * before those due while none served: after a downtime, what falls due now is not held behind its
   * backlog. Unset: oldest first.
   */
  servedSince?: Date;
}

/** The recorded result of one attempt, and what it implies for its original and for a retry. */
export interface AttemptRecord {
  id: string;
  leaseToken: string;
  /** The attempt's new status; an original waiting for its retries stays `processing`. */
  status: 'success' | 'failed' | 'processing';
  executedAt: Date | null;
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  responseDuration: number | null;
  responseError: string | null;
  /** For a retry attempt that ends the delivery: the original's final status. */
  originalStatus: 'success' | 'failed' | null;
  originalId: string;
  /** A retry to schedule after this attempt. */
  retry: RetryAttempt | null;
  /** The call this attempt made, for its destination's health; null when none was made (e.g. missed). */
  call: AttemptCall | null;
}

/** Where a recorded call went, and until when its receiver asked not to be called (429/503 Retry-After). */
export interface AttemptCall {
  teamId: string;
  origin: string;
  retryAfter: Date | null;
}

/**
 * The next attempt of a delivery: a new pending event with the same request (its `timeoutMs` too:
 * every attempt has the original's deadline), `retryOf` its original.
 */
export interface RetryAttempt extends EventRequest {
  id: string;
  /** n for retry n. */
  attempt: number;
  scheduledAt: Date;
  teamId: string;
  cronId: string | null;
  originalId: string;
  /** The original's: every attempt of a delivery links to the trace that created it. */
  traceContext: string | null;
}

/**
 * Traces delivery attempts. Absent when tracing is off: the worker then does nothing for it, so the
 * delivery path costs what it did without traces.
 */
export interface AttemptTracing {
  /**
   * Runs one attempt's call inside the attempt's span and ends the span with the outcome. `call`
   * gets the headers to send for the trace (the attempt's `traceparent` when its team opted in).
   */
  around(
    attempt: ClaimedAttempt,
    call: (traceHeaders: Record<string, string> | undefined) => Promise<WebhookOutcome | undefined>,
  ): Promise<WebhookOutcome | undefined>;
}

/** Storage the scheduler needs; the server implements it over PostgreSQL. */
export interface EventStore {
  /**
   * Claims up to `limit` pending events of the slot `[from, before)` that are due now by the database
   * clock, or within `aheadMs` of it, oldest first within the shares, skipping rows others hold.
   */
  claimDue(options: ClaimOptions & { from: Date; before: Date; aheadMs?: number }): Promise<ClaimedAttempt[]>;
  /**
   * Claims up to `limit` pending events due now, whatever their slot, within the shares: each place
   * to the team with due events that would hold fewest calls with it, each team's oldest first.
   * With `from`, only events due from then on: a slot's claim while the process is full, which
   * leaves older events to the backlog's claims; with `aheadMs`, also those due within it.
   */
  claimBacklog(options: ClaimOptions & { from?: Date; aheadMs?: number }): Promise<ClaimedAttempt[]>;
  /**
   * When the next pending event of `[from, before)` falls due that is not due yet, nor within
   * `aheadMs` of it; or null.
   */
  nextDueAt(from: Date, before: Date, aheadMs?: number): Promise<Date | null>;
  /** The seconds (as Unix seconds) in which pending events not in flight fall due within `[from, before)`. */
  pendingSlots(from: Date, before: Date): Promise<number[]>;
  /**
   * Writes outcomes whose lease still holds and schedules the retries they plan (with their timers),
   * in one transaction; returns the ids recorded.
   */
  record(records: AttemptRecord[]): Promise<string[]>;
  /** Puts claimed attempts back to `pending` (lease-checked), e.g. when a worker stops before calling. */
  release(attempts: { id: string; leaseToken: string }[]): Promise<void>;
  /** Attempts whose lease expired (their worker stalled or died) or whose owner is one of `deadOwners`. */
  expiredLeases(limit: number, deadOwners: number[]): Promise<ClaimedAttempt[]>;
  /** Materializes upcoming occurrences (with their timers) of crons that need them; returns how many. */
  topUpCrons(horizonMs: number, limit: number): Promise<number>;
  /**
   * Lets destinations take calls again: releases the events held for a Retry-After that ended, and
   * lets one call probe each open circuit whose cool-down ended; returns the events released.
   */
  releaseDestinations(): Promise<number>;
  /**
   * In how many milliseconds the first of those holds still running ends (a circuit's cool-down, a
   * Retry-After); null when none does.
   */
  nextReleaseInMs(): Promise<number | null>;
  /** The teams' own limits at destinations (rate limits, most calls at once). */
  destinationLimits(): Promise<DestinationLimit[]>;
  /** Pending events already due (for the backlog gauge). */
  dueBacklog(): Promise<number>;
  /**
   * Readies the storage for the statements of every delivery (claims, outcomes), before the first:
   * taken cold, the first burst after a start waits for it.
   */
  warmUp(): Promise<void>;
}
