import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The scheduler's Prometheus metrics. */
export interface DeliveryMetrics {
  inFlight: Gauge;
  /** Counts one attempt and, when it was sent, its lateness (start of the call − scheduled_at). */
  delivered(outcome: 'success' | 'failure' | 'missed', latenessMs: number): void;
}

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
  };
}
