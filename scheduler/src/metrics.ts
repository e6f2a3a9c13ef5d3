import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The scheduler's Prometheus metrics. */
export interface DeliveryMetrics {
  inFlight: Gauge;
  /** Counts one attempt and, when it was sent, its lateness (start of the call − scheduled_at). */
  delivered(outcome: 'success' | 'failure' | 'missed', latenessMs: number): void;
  /** Times one claim of a line of claims: the slots' (`due`) or the backlog's. */
  claimed(line: ClaimLine, ms: number): void;
  /** Times one batch of outcomes written, and counts its outcomes. */
  wrote(ms: number, outcomes: number): void;
}

/** The two lines of claims a scheduler runs: its slots' and its backlog's (DeliveryWorker). */
export type ClaimLine = 'due' | 'backlog';

/** Statement times, from a millisecond to seconds: a claim or a batch of outcomes on a busy database. */
const STATEMENT_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Registers the delivery metrics; `backlog` is read at scrape time. */
export function createDeliveryMetrics(registry: Registry, backlog: () => Promise<number>): DeliveryMetrics {
  const attempts = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (success = 2xx).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const lateness = new Histogram({
    name: 'webhook_delivery_lateness_seconds',
    help: 'Time from an event’s scheduled_at to the start of its call.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const inFlight = new Gauge({
    name: 'webhook_deliveries_in_flight',
    help: 'Webhook calls under way in this process.',
    registers: [registry],
  });
  const claims = new Histogram({
    name: 'webhook_claim_duration_seconds',
    help: 'Time of one claim of due events, by line: the slots’ (due) or the backlog’s.',
    labelNames: ['line'] as const,
    buckets: STATEMENT_SECONDS,
    registers: [registry],
  });
  const writes = new Histogram({
    name: 'webhook_outcome_write_duration_seconds',
    help: 'Time of one batch of outcomes written to the database (a statement, or a transaction with retries and alerts).',
    buckets: STATEMENT_SECONDS,
    registers: [registry],
  });
  const batches = new Histogram({
    name: 'webhook_outcome_batch_size',
    help: 'Outcomes in one batch written: batches grow while the database is slow (group commit).',
    buckets: [1, 5, 10, 25, 50, 100, 250, 500, 1000],
    registers: [registry],
  });
  new Gauge({
    name: 'webhook_events_due_backlog',
    help: 'Pending events whose time has come but whose call has not started.',
    registers: [registry],
    async collect() {
      this.set(await backlog());
    },
  });
  return {
    inFlight,
    delivered(outcome, latenessMs) {
      attempts.inc({ outcome });
      if (outcome !== 'missed') lateness.observe(Math.max(0, latenessMs) / 1000);
    },
    claimed(line, ms) {
      claims.observe({ line }, ms / 1000);
    },
    wrote(ms, outcomes) {
      writes.observe(ms / 1000);
      batches.observe(outcomes);
    },
  };
}

/**
 * PostgreSQL's notification queue in use, 0 to 1 (`pg_notification_queue_usage()`), read at scrape
 * time. A session that listens but does not read (a process stopped, yet connected) keeps every
 * later notification queued; once the queue is full, a write that notifies fails at its commit, and
 * writes of events due within 100 ms notify the schedulers (Timers).
 */
export function registerNotifyQueueUsage(registry: Registry, usage: () => Promise<number>): void {
  new Gauge({
    name: 'webhook_notify_queue_usage',
    help: 'Fraction of PostgreSQL’s notification queue in use: near 0 unless a listening session stopped reading.',
    registers: [registry],
    async collect() {
      this.set(await usage());
    },
  });
}
