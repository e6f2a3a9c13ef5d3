import type { Event } from '@webhook-scheduler/contract';
import { dueSoon } from './due-soon.js';
import type { TestApp, TestTeam } from './harness.js';
import { eventually } from './receiver.js';

/** A team's events through the API, as the delivery tests create and read them. */
export interface TeamEvents {
  schedule(body: Record<string, unknown>): Promise<Event>;
  /** `schedule` with `scheduled_at` about `ms` ahead, moved further on a machine too loaded to answer in time. */
  scheduleSoon(body: Record<string, unknown>, ms?: number): Promise<Event>;
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
  const schedule = async (body: Record<string, unknown>): Promise<Event> => {
    const response = await app.request('POST', '/api/v1/events', { key: team.key, body });
    if (response.status !== 201)
      throw new Error(`POST /api/v1/events answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body.data;
  };
  return {
    schedule,
    scheduleSoon: (body, ms) => dueSoon((at) => schedule({ ...body, scheduled_at: at }), ms),
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
