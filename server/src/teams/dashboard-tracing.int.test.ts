import { TeamTracing, dataOf } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { as, signUp, signUpOwnerAndMember } from '../../test/sessions.js';

const tracing = dataOf(TeamTracing.strict()).strict();

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const path = (teamId: string) => `/api/dashboard/teams/${teamId}/tracing`;

describe('the traceparent setting', () => {
  it('is off by default, turned on and off by owners, and shown to members', async () => {
    const { owner, member: plain } = await signUpOwnerAndMember(app);
    expect(expectBody(await app.request('GET', path(owner.teamId), as(plain)), 200, tracing).data).toEqual({
      send_traceparent: false,
    });

    const on = await app.request('PUT', path(owner.teamId), as(owner, { body: { send_traceparent: true } }));
    expect(expectBody(on, 200, tracing).data.send_traceparent).toBe(true);
    const [row] = await app.sql<{ send_traceparent: boolean }>(
      'select send_traceparent from teams where id = $1',
      [owner.teamId],
    );
    expect(row?.send_traceparent).toBe(true);

    expectError(
      await app.request('PUT', path(owner.teamId), as(plain, { body: { send_traceparent: false } })),
      403,
      'FORBIDDEN',
    );
    const off = await app.request(
      'PUT',
      path(owner.teamId),
      as(owner, { body: { send_traceparent: false } }),
    );
    expect(expectBody(off, 200, tracing).data.send_traceparent).toBe(false);
  });

  it.each([[{ send_traceparent: 'yes' }], [{}], [{ send_traceparent: true, extra: 1 }]])(
    'refuses %j with 400',
    async (body) => {
      const owner = await signUp(app);
      const issues = expectValidationError(await app.request('PUT', path(owner.teamId), as(owner, { body })));
      expect(issues.length).toBeGreaterThan(0);
    },
  );

  it('of another team is not found', async () => {
    const owner = await signUp(app);
    const stranger = await signUp(app);
    expectError(await app.request('GET', path(owner.teamId), as(stranger)), 404, 'NOT_FOUND');
    expectError(
      await app.request('PUT', path(owner.teamId), as(stranger, { body: { send_traceparent: true } })),
      404,
      'NOT_FOUND',
    );
  });
});
