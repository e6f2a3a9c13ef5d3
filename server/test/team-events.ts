import type { Event } from '@webhook-scheduler/contract';
import { expect } from 'vitest';
import type { TestApp, TestTeam } from './harness.js';
import { eventually } from './receiver.js';

/** A team's events through the API, as the delivery tests create and read them. */
export interface TeamEvents {
  schedule(body: Record<string, unknown>): Promise<Event>;
  read(id: string): Promise<Event>;
  /** The event once it ended `success` or `failed`. */
  settled(id: string, timeoutMs?: number): Promise<Event>;
  /** The event's retry attempts, oldest first. */
  retriesOf(id: string): Promise<Event[]>;
}

export function teamEvents(app: TestApp, team: TestTeam): TeamEvents {
  const read = async (id: string): Promise<Event> => {
    const response = await app.request('GET', `/api/v1/events/${id}`, { key: team.key });
    return response.body.data;
  };
  return {
    async schedule(body) {
      const response = await app.request('POST', '/api/v1/events', { key: team.key, body });
      expect(response.status).toBe(201);
      return response.body.data;
    },
    read,
    settled: (id, timeoutMs = 10_000) =>
      eventually(
        () => read(id),
        (event) => event.status === 'success' || event.status === 'failed',
        timeoutMs,
      ),
    async retriesOf(id) {
      const response = await app.request('GET', '/api/v1/events?limit=1000', { key: team.key });
      return (response.body.data as Event[])
        .filter((event) => event.retry_of === id)
        .sort((a, b) => a.scheduled_at.localeCompare(b.scheduled_at));
    },
  };
}
