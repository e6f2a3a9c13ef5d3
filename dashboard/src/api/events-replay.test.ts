import { CSRF_HEADER, TEAM_HEADER } from '@webhook-scheduler/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setCsrfToken } from './dashboard.js';
import { ApiError } from './errors.js';
import { replayEvents } from './events-replay.js';

const filter = { status: 'failed', destination: 'https://a.example' } as const;

function answer(status: number, body: unknown) {
  const fetch = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(Response.json(body, { status })));
  vi.stubGlobal('fetch', fetch);
  vi.stubGlobal('window', Object.assign(new EventTarget(), { location: { origin: 'http://dash.test' } }));
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('replayEvents', () => {
  it('posts the filter for the team with the session’s CSRF token and resolves to the count', async () => {
    const fetch = answer(201, { replayed: 3, data: [] });
    setCsrfToken('csrf-1');
    await expect(replayEvents('team-1', filter)).resolves.toEqual({ replayed: 3, data: [] });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('http://dash.test/api/v1/events/replay');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toMatchObject({ [TEAM_HEADER]: 'team-1', [CSRF_HEADER]: 'csrf-1' });
    expect(JSON.parse(typeof init?.body === 'string' ? init.body : '')).toEqual(filter);
  });

  it('rejects with the API’s message and code when too many events match', async () => {
    answer(400, {
      error: { code: 'BAD_REQUEST', message: 'More than 10000 events match: narrow the filter' },
    });
    const failure = await replayEvents('team-1', filter).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'More than 10000 events match: narrow the filter',
    });
  });
});
