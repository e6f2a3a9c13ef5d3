import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies, expectBody, expectError } from '../../test/expect.js';
import { eventBody, makeApiKey } from '../../test/factories.js';
import { type ApiResponse, type TestApp, startTestApp } from '../../test/harness.js';
import { as, signUp } from '../../test/sessions.js';
import { setTeamLimits } from './team-limits.service.js';

let app: TestApp;
beforeAll(async () => {
  // 1 request per second with bursts of 3: a test can use up a key at once and see it refill.
  app = await startTestApp({ teamLimits: { requests_per_second: 1, request_burst: 3 } });
});
afterAll(() => app.close());

function rateHeaders(response: ApiResponse) {
  return {
    limit: response.headers.get('ratelimit-limit'),
    remaining: response.headers.get('ratelimit-remaining'),
    reset: response.headers.get('ratelimit-reset'),
    retryAfter: response.headers.get('retry-after'),
  };
}

describe('the request rate limit', () => {
  it('puts RateLimit headers on every answer to a key, errors included', async () => {
    const team = await app.createTeam();
    const ok = await app.request('GET', '/api/v1/crons', { key: team.key });
    expect(ok.status).toBe(200);
    expect(rateHeaders(ok)).toEqual({ limit: '1', remaining: '2', reset: '1', retryAfter: null });
    const missing = await app.request('GET', '/api/v1/nowhere', { key: team.key });
    expect(missing.status).toBe(404);
    expect(rateHeaders(missing)).toMatchObject({ limit: '1', remaining: '1', reset: '2' });
    const invalid = await app.request('POST', '/api/v1/events', { key: team.key, body: {} });
    expect(invalid.status).toBe(400);
    expect(rateHeaders(invalid)).toMatchObject({ limit: '1', remaining: '0', reset: '3' });
  });

  it('refuses the request past the burst with 429 RATE_LIMITED and Retry-After, creating nothing', async () => {
    const team = await app.createTeam();
    for (let i = 0; i < 3; i++) {
      expectBody(
        await app.request('POST', '/api/v1/events', { key: team.key, body: eventBody() }),
        201,
        bodies.event,
      );
    }
    const refused = await app.request('POST', '/api/v1/events', { key: team.key, body: eventBody() });
    const error = expectError(refused, 429, 'RATE_LIMITED');
    expect(error.message).toBe('Rate limit exceeded: retry in 1 second');
    expect(rateHeaders(refused)).toEqual({ limit: '1', remaining: '0', reset: '3', retryAfter: '1' });
    const [row] = await app.sql<{ n: string }>('select count(*) as n from events where team_id = $1', [
      team.teamId,
    ]);
    expect(Number(row?.n)).toBe(3);

    // One second later one more request is allowed.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await app.request('GET', '/api/v1/events', { key: team.key })).status).toBe(200);
  });

  it('counts each key on its own', async () => {
    const team = await app.createTeam();
    const other = await makeApiKey(app.orm.em.fork(), team.teamId);
    for (let i = 0; i < 4; i++) await app.request('GET', '/api/v1/crons', { key: team.key });
    expect((await app.request('GET', '/api/v1/crons', { key: team.key })).status).toBe(429);
    expect((await app.request('GET', '/api/v1/crons', { key: other.key })).status).toBe(200);
  });

  it('counts a dashboard session acting on the API as well', async () => {
    const user = await signUp(app);
    const call = () =>
      app.request('GET', '/api/v1/crons', as(user, { headers: { 'x-team-id': user.teamId } }));
    for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
    const refused = await call();
    expectError(refused, 429, 'RATE_LIMITED');
    expect(rateHeaders(refused).retryAfter).toBe('1');
  });

  it('follows the team’s own limit', async () => {
    const team = await app.createTeam();
    await setTeamLimits(
      app.orm.em.fork(),
      team.teamId,
      { requests_per_second: 50, request_burst: 10 },
      new Date(),
    );
    const responses = [];
    for (let i = 0; i < 11; i++) responses.push(await app.request('GET', '/api/v1/crons', { key: team.key }));
    // 10 at once, plus whatever refilled at 50/s while they ran.
    expect(responses.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(10);
    expect(rateHeaders(responses[0] as ApiResponse).limit).toBe('50');
  });

  it('does not count a request without a valid key (its 401 has no RateLimit headers)', async () => {
    const response = await app.request('GET', '/api/v1/crons', { key: 'whs_wrong' });
    expectError(response, 401, 'UNAUTHORIZED');
    expect(rateHeaders(response).limit).toBeNull();
  });
});
