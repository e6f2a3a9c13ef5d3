import { randomUUID } from 'node:crypto';
import { CronPreview, Event, dataOf } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { makeEvent } from '../../test/factories.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { type TestUser, as, signUp } from '../../test/sessions.js';

const preview = dataOf(CronPreview.strict()).strict();
const attempts = dataOf(z.array(Event.strict())).strict();

let app: TestApp;
let user: TestUser;
beforeAll(async () => {
  app = await startTestApp();
  user = await signUp(app);
});
afterAll(() => app.close());

const previewOf = (query: string) => app.request('GET', `/api/dashboard/cron-preview?${query}`, as(user));

describe('GET /api/dashboard/cron-preview', () => {
  it('returns the next five occurrences in the time zone', async () => {
    const before = Date.now();
    const { data } = expectBody(
      await previewOf(`cron_expression=${encodeURIComponent('0 9 * * MON-FRI')}&timezone=Europe/Paris`),
      200,
      preview,
    );
    expect(data.timezone).toBe('Europe/Paris');
    expect(data.description).toBe('At 09:00, Monday through Friday');
    expect(data.occurrences).toHaveLength(5);
    const times = data.occurrences.map((at) => Date.parse(at));
    expect(times[0]).toBeGreaterThan(before);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    for (const at of data.occurrences) {
      const local = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Paris',
        weekday: 'short',
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(at));
      expect(local).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:00$/);
    }
  });

  it('reads the schedule in UTC without a time zone and honours count', async () => {
    const { data } = expectBody(await previewOf('cron_expression=%40midnight&count=2'), 200, preview);
    expect(data.timezone).toBe('UTC');
    expect(data.occurrences).toHaveLength(2);
    for (const at of data.occurrences) expect(at).toMatch(/T00:00:00\.000Z$/);
  });

  it.each<[string, string, (string | number)[]]>([
    ['an invalid expression', 'cron_expression=61%20*%20*%20*%20*', ['cron_expression']],
    ['a date that never comes', 'cron_expression=0%200%2030%202%20*', ['cron_expression']],
    ['a missing expression', 'timezone=UTC', ['cron_expression']],
    ['an unknown time zone', 'cron_expression=%40daily&timezone=Mars/Olympus', ['timezone']],
    ['a count of 0', 'cron_expression=%40daily&count=0', ['count']],
    ['a count of 21', 'cron_expression=%40daily&count=21', ['count']],
    ['an unknown parameter', 'cron_expression=%40daily&foo=1', ['foo']],
  ])('answers 400 VALIDATION_ERROR for %s', async (_, query, path) => {
    const issues = expectValidationError(await previewOf(query));
    expect(issues[0]?.path).toEqual(path);
  });

  it('names an invalid expression and an unknown time zone at once', async () => {
    const issues = expectValidationError(
      await previewOf('cron_expression=61%20*%20*%20*%20*&timezone=Mars/Olympus'),
    );
    expect(issues.map((issue) => issue.path)).toEqual([['timezone'], ['cron_expression']]);
  });

  it('explains an invalid expression as the API does', async () => {
    const issues = expectValidationError(await previewOf('cron_expression=%40reboot'));
    expect(issues[0]?.message).toMatch(/^invalid cron expression: /);
  });
});

describe('GET /api/dashboard/teams/:teamId/events/:eventId/attempts', () => {
  async function delivery(teamId: string) {
    const em = app.orm.em.fork();
    const original = await makeEvent(em, teamId, { status: 'failed', responseStatus: 500 });
    const second = await makeEvent(em, teamId, { retryOf: original.id, attempt: 2, status: 'success' });
    const first = await makeEvent(em, teamId, { retryOf: original.id, attempt: 1, status: 'failed' });
    await makeEvent(em, teamId, { status: 'pending' });
    return { original, first, second };
  }

  it('returns the original and its retries, first attempt first, from any of them', async () => {
    const { original, first, second } = await delivery(user.teamId);
    for (const id of [original.id, second.id]) {
      const response = await app.request(
        'GET',
        `/api/dashboard/teams/${user.teamId}/events/${id}/attempts`,
        as(user),
      );
      const { data } = expectBody(response, 200, attempts);
      expect(data.map((event) => event.id)).toEqual([original.id, first.id, second.id]);
      expect(data[0]?.response_status).toBe(500);
    }
  });

  it("answers 404 for another team's event, even under the user's own team", async () => {
    const stranger = await signUp(app);
    const { original } = await delivery(stranger.teamId);
    for (const teamId of [user.teamId, stranger.teamId]) {
      const response = await app.request(
        'GET',
        `/api/dashboard/teams/${teamId}/events/${original.id}/attempts`,
        as(user),
      );
      expectError(response, 404, 'NOT_FOUND');
    }
  });

  it('answers 404 for an unknown event and 400 for an id that is not a UUID', async () => {
    const base = `/api/dashboard/teams/${user.teamId}/events`;
    expectError(await app.request('GET', `${base}/${randomUUID()}/attempts`, as(user)), 404, 'NOT_FOUND');
    expect(
      expectValidationError(await app.request('GET', `${base}/nope/attempts`, as(user)))[0]?.path,
    ).toEqual(['eventId']);
  });
});
