import { TeamAlerts, dataOf } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { as, signUp, signUpOwnerAndMember } from '../../test/sessions.js';

const alerts = dataOf(TeamAlerts.strict()).strict();

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const path = (teamId: string) => `/api/dashboard/teams/${teamId}/alerts`;

describe('the failure alerts setting', () => {
  it('is off by default, set and turned off by owners, and shown to members', async () => {
    const { owner, member: plain } = await signUpOwnerAndMember(app);
    expect(expectBody(await app.request('GET', path(owner.teamId), as(plain)), 200, alerts).data).toEqual({
      alert_url: null,
    });

    const url = 'https://ops.example.com/alerts';
    const set = await app.request('PUT', path(owner.teamId), as(owner, { body: { alert_url: url } }));
    expect(expectBody(set, 200, alerts).data.alert_url).toBe(url);
    expect(
      expectBody(await app.request('GET', path(owner.teamId), as(plain)), 200, alerts).data.alert_url,
    ).toBe(url);
    const [row] = await app.sql<{ alert_url: string | null }>('select alert_url from teams where id = $1', [
      owner.teamId,
    ]);
    expect(row?.alert_url).toBe(url);

    expectError(
      await app.request('PUT', path(owner.teamId), as(plain, { body: { alert_url: null } })),
      403,
      'FORBIDDEN',
    );
    const off = await app.request('PUT', path(owner.teamId), as(owner, { body: { alert_url: null } }));
    expect(expectBody(off, 200, alerts).data.alert_url).toBeNull();
  });

  it.each([['ftp://example.com'], ['not a url'], [42], ['http://../alerts']])(
    'refuses alert_url %j with 400',
    async (value) => {
      const owner = await signUp(app);
      const issues = expectValidationError(
        await app.request('PUT', path(owner.teamId), as(owner, { body: { alert_url: value } })),
      );
      expect(issues.map((issue) => issue.path)).toEqual([['alert_url']]);
    },
  );

  it('of another team is not found', async () => {
    const owner = await signUp(app);
    const stranger = await signUp(app);
    expectError(await app.request('GET', path(owner.teamId), as(stranger)), 404, 'NOT_FOUND');
    expectError(
      await app.request('PUT', path(owner.teamId), as(stranger, { body: { alert_url: null } })),
      404,
      'NOT_FOUND',
    );
  });
});
