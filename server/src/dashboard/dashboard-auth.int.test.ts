import { randomUUID } from 'node:crypto';
import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import { dashboardContract } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { type TestUser, as, signUp } from '../../test/sessions.js';

function collect(router: AppRouter, prefix = ''): [string, AppRoute][] {
  return Object.entries(router).flatMap(([key, value]): [string, AppRoute][] =>
    isAppRoute(value) ? [[`${prefix}${key}`, value]] : collect(value, `${prefix}${key}.`),
  );
}

const PUBLIC = [
  'session.signIn',
  'session.signUp',
  'session.signUpMode',
  'session.resetPassword',
  'invites.show',
];
const SAMPLE_BODIES: Record<string, unknown> = {
  'teams.create': { name: 'Acme' },
  'members.add': { email: 'someone@example.com' },
  'keys.create': { name: 'ci' },
  'invites.create': { email: 'someone@example.com' },
  'invites.accept': { token: 'a'.repeat(43) },
  'tracing.set': { send_traceparent: true },
};
const routes = collect(dashboardContract).filter(([name]) => !PUBLIC.includes(name));
const changing = routes.filter(([, route]) => route.method !== 'GET');

let app: TestApp;
let user: TestUser;
beforeAll(async () => {
  app = await startTestApp();
});
// A user per test: sign-out ends the session it is called with.
beforeEach(async () => {
  user = await signUp(app);
});
afterAll(() => app.close());

function pathOf(route: AppRoute): string {
  return route.path
    .replace(':teamId', user.teamId)
    .replace(/:\w+/g, () => randomUUID())
    .concat(route.path.endsWith('/cron-preview') ? '?cron_expression=*%20*%20*%20*%20*' : '');
}

it('walks every dashboard route but the public ones', () => {
  expect(routes.map(([name]) => name).sort()).toEqual([
    'alerts.get',
    'alerts.set',
    'insights.attempts',
    'insights.cronPreview',
    'invites.accept',
    'invites.create',
    'invites.list',
    'invites.revoke',
    'keys.create',
    'keys.list',
    'keys.revoke',
    'limits.get',
    'members.add',
    'members.list',
    'members.remove',
    'overview.deliveries',
    'overview.upcoming',
    'session.get',
    'session.signOut',
    'signingSecret.get',
    'signingSecret.rotate',
    'teams.create',
    'teams.list',
    'tracing.get',
    'tracing.set',
  ]);
});

describe.each(routes)('%s', (name, route) => {
  it('answers 401 UNAUTHORIZED without a session, before validating anything', async () => {
    const response = await app.request(route.method, pathOf(route).replace(user.teamId, 'not-a-uuid'), {
      ...(route.method === 'GET' ? {} : { body: { unknown: true } }),
    });
    expect(expectError(response, 401, 'UNAUTHORIZED').message).toBe('Sign in to continue.');
  });

  it('passes with the session', async () => {
    const response = await app.request(route.method, pathOf(route), as(user, { body: SAMPLE_BODIES[name] }));
    expect(response.status).not.toBe(401);
    expect(response.status).not.toBe(403);
    expect(response.status).toBeLessThan(500);
  });
});

describe.each(changing)('%s', (name, route) => {
  it('answers 403 FORBIDDEN with the session but without its CSRF token', async () => {
    const response = await app.request(route.method, pathOf(route), {
      body: SAMPLE_BODIES[name],
      headers: { cookie: user.cookie },
    });
    expectError(response, 403, 'FORBIDDEN');
  });
});
