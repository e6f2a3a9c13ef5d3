import { CSRF_HEADER, type ErrorBody, TEAM_HEADER } from '@webhook-scheduler/contract';
import type { Event } from '@webhook-scheduler/sdk';
import { currentCsrfToken } from './dashboard.js';
import { fromErrorResponse, toApiError } from './errors.js';

// POST /api/v1/events/replay is not in the contract yet (another branch adds it): this module is
// the one place that calls it, by hand, until the SDK's client has a method for it.

/** Which finished events to replay: at most 10,000 may match. */
export interface ReplayFilter {
  status: 'failed' | 'success';
  cron_id?: string;
  destination?: string;
  scheduled_after?: string;
  scheduled_before?: string;
}

/** How many events were replayed, and the first 100 new ones. */
export interface ReplayResult {
  replayed: number;
  data: Event[];
}

/** Replays the team's finished events matching `filter`; a refusal rejects with its ApiError. */
export async function replayEvents(teamId: string, filter: ReplayFilter): Promise<ReplayResult> {
  let response: Response;
  try {
    response = await fetch(`${window.location.origin}/api/v1/events/replay`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'content-type': 'application/json',
        [TEAM_HEADER]: teamId,
        [CSRF_HEADER]: currentCsrfToken(),
      },
      body: JSON.stringify(filter),
    });
  } catch (error) {
    throw toApiError(error);
  }
  const body = (await response.json().catch(() => undefined)) as ReplayResult | ErrorBody | undefined;
  if (response.status === 201 && body && 'replayed' in body) return body;
  throw toApiError(fromErrorResponse(response.status, body));
}
