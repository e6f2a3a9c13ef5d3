import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type ClientOptions, createClient } from '../src/index.js';

/** The base URL every mocked API answers on. */
export const BASE_URL = 'https://scheduler.test';
/** The API key the test clients send. */
export const API_KEY = 'whs_test0123456789abcdefghijklmnopqrstuv';

/** One msw server per test file. msw 3 spells v2's `onUnhandledRequest: 'error'` as `onUnhandledFrame`: a request no handler matches fails. */
export const server = setupServer();

export function useMockApi(): void {
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
}

/** A client of the mocked API; retries wait 1 ms unless the test says otherwise. */
export function testClient(options: Partial<ClientOptions> = {}) {
  return createClient({ baseUrl: BASE_URL, apiKey: API_KEY, retry: { baseDelayMs: 1 }, ...options });
}

/** The requests a handler saw, for assertions on method, URL, headers and body. */
export function recorder() {
  const requests: Request[] = [];
  return { requests, record: (request: Request) => requests.push(request.clone()) };
}
