import { describe, expect, it } from 'vitest';
import { EVENT_ID } from '../../test/expect.js';
import { eventually } from '../../test/receiver.js';
import { scheduleMany } from '../../test/fault-helpers.js';
import { deliverySetup } from '../../test/delivery-setup.js';

const t = deliverySetup();

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('delivery', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'])(
    'sends a %s at its scheduled time with the event’s headers and payload',
    async (method) => {
      const path = `/methods/${method}`;
      const event = await t.api.scheduleSoon(
        {
          webhook_url: t.receiver.url + path,
          method,
          headers: { 'x-custom': 'yes' },
          payload: { hello: method },
        },
        700,
      );
      const [request] = await t.receiver.waitFor(1, (r) => r.path === path);
      expect(request?.method).toBe(method);
      expect(request?.headers['x-custom']).toBe('yes');
      expect(request?.headers['webhook-id']).toBe(event.id);
      const withBody = method !== 'GET' && method !== 'HEAD';
      expect(request?.body).toBe(withBody ? JSON.stringify({ hello: method }) : '');
      if (withBody) expect(request?.headers['content-type']).toBe('application/json');
      expect(request!.at).toBeGreaterThanOrEqual(new Date(event.scheduled_at).getTime() - 5);
      expect((await t.api.settled(event.id)).status).toBe('success');
    },
  );

  it('records the call’s outcome on the event', async () => {
    t.receiver.reply('/outcome', { status: 201, headers: { 'x-answer': '42' }, body: 'created' });
    const event = await t.api.scheduleSoon({ webhook_url: `${t.receiver.url}/outcome` }, 500);
    const done = await t.api.settled(event.id);
    expect(done).toMatchObject({
      status: 'success',
      response_status: 201,
      response_body: 'created',
      response_error: null,
    });
    expect(done.response_headers?.['x-answer']).toBe('42');
    expect(done.response_duration).toBeGreaterThanOrEqual(0);
    const lateness = new Date(done.executed_at ?? 0).getTime() - new Date(done.scheduled_at).getTime();
    expect(lateness).toBeGreaterThanOrEqual(0);
    expect(lateness).toBeLessThan(1000);
  });

  it.each([
    [302, 'a redirect is not followed'],
    [404, 'a client error'],
    [503, 'a server error'],
  ])('fails with the status recorded on %i (%s)', async (status) => {
    t.receiver.reply(`/status/${status}`, { status, headers: { location: `${t.receiver.url}/redirected` } });
    const event = await t.api.scheduleSoon(
      {
        webhook_url: `${t.receiver.url}/status/${status}`,
      },
      300,
    );
    const done = await t.api.settled(event.id);
    expect(done.status).toBe('failed');
    expect(done.response_status).toBe(status);
    expect(done.response_error).toEqual(expect.any(String));
    expect(t.receiver.requests.filter((r) => r.path === '/redirected')).toHaveLength(0);
  });

  it.each([
    ['a NUL at the cut', `${'a'.repeat(1023)}\0tail`],
    ['only NULs', '\0'.repeat(2000)],
  ])('stores at most 1024 bytes of valid UTF-8 of a body with %s', async (_name, body) => {
    const path = `/nul/${body.length}`;
    t.receiver.reply(path, { body });
    const event = await t.api.scheduleSoon({ webhook_url: t.receiver.url + path }, 500);
    const done = await t.api.settled(event.id);
    expect(done.status).toBe('success');
    expect(done.response_body).not.toContain('\0');
    const [stored] = await t.app.sql<{ bytes: number }>(
      'select octet_length(response_body) as bytes from events where id = $1',
      [event.id],
    );
    expect(stored?.bytes).toBeLessThanOrEqual(1024);
    expect(stored?.bytes).toBeGreaterThan(1000);
  });

  it('fails without a status when the connection is refused', async () => {
    const event = await t.api.scheduleSoon(
      {
        webhook_url: 'http://127.0.0.1:9/closed',
      },
      300,
    );
    const done = await t.api.settled(event.id);
    expect(done).toMatchObject({ status: 'failed', response_status: null });
    expect(done.response_error).toEqual(expect.any(String));
  });

  it('fails when the receiver answers after the timeout', async () => {
    t.receiver.reply('/slow', { delayMs: 3000 });
    const event = await t.api.scheduleSoon({ webhook_url: `${t.receiver.url}/slow` }, 300);
    const done = await t.api.settled(event.id);
    expect(done).toMatchObject({ status: 'failed', response_status: null });
    expect(done.response_duration).toBeLessThan(2500);
  });
});

describe('retries', () => {
  it('retries with linear backoff and ends the original failed after the last retry', async () => {
    t.receiver.reply('/linear', { status: 500 });
    const event = await t.api.scheduleSoon(
      {
        webhook_url: `${t.receiver.url}/linear`,
        retry_config: { maxRetries: 2, backoffMs: 300, backoffType: 'linear' },
      },
      300,
    );
    const calls = await t.receiver.waitFor(3, (r) => r.path === '/linear');
    const gaps = [calls[1]!.at - calls[0]!.at, calls[2]!.at - calls[1]!.at];
    expect(gaps[0]).toBeGreaterThanOrEqual(300);
    expect(gaps[0]).toBeLessThan(300 + 250);
    expect(gaps[1]).toBeGreaterThanOrEqual(600);
    expect(gaps[1]).toBeLessThan(600 + 250);
    expect(new Set(calls.map((call) => call.headers['webhook-id']))).toEqual(new Set([event.id]));
    const original = await eventually(
      () => t.api.read(event.id),
      (e) => e.status === 'failed',
    );
    expect(original.response_status).toBe(500);
    const retries = await t.api.retriesOf(event.id);
    expect(retries).toHaveLength(2);
    expect(retries.every((retry: any) => retry.status === 'failed' && retry.response_status === 500)).toBe(
      true,
    );
    for (const id of [event.id, ...retries.map((retry: any) => retry.id)]) expect(id).toMatch(EVENT_ID);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(t.receiver.requests.filter((r) => r.path === '/linear')).toHaveLength(3);
  });

  it('retries with exponential backoff', async () => {
    t.receiver.reply('/exponential', { status: 500 });
    await t.api.scheduleSoon(
      {
        webhook_url: `${t.receiver.url}/exponential`,
        retry_config: { maxRetries: 3, backoffMs: 150 },
      },
      300,
    );
    const calls = await t.receiver.waitFor(4, (r) => r.path === '/exponential');
    const gaps = calls.slice(1).map((call, i) => call.at - calls[i]!.at);
    [150, 300, 600].forEach((expected, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(expected);
      expect(gaps[i]).toBeLessThan(expected + 250);
    });
  });

  it('ends the original successful when a retry succeeds', async () => {
    t.receiver.reply('/flaky', (_request, count) => ({ status: count < 2 ? 503 : 200 }));
    const event = await t.api.scheduleSoon(
      {
        webhook_url: `${t.receiver.url}/flaky`,
        retry_config: { maxRetries: 5, backoffMs: 100, backoffType: 'linear' },
      },
      300,
    );
    const original = await eventually(
      () => t.api.read(event.id),
      (e) => e.status === 'success',
    );
    expect(original.response_status).toBe(503);
    const retries = await t.api.retriesOf(event.id);
    expect(retries.map((retry: any) => retry.status)).toEqual(['success']);
    expect(t.receiver.requests.filter((r) => r.path === '/flaky')).toHaveLength(2);
  });

  it('keeps the original processing while a retry is scheduled', async () => {
    t.receiver.reply('/waiting', { status: 500 });
    const event = await t.api.scheduleSoon(
      {
        webhook_url: `${t.receiver.url}/waiting`,
        retry_config: { maxRetries: 1, backoffMs: 5000 },
      },
      300,
    );
    await t.receiver.waitFor(1, (r) => r.path === '/waiting');
    const original = await eventually(
      () => t.api.read(event.id),
      (e) => e.response_status === 500,
    );
    expect(original.status).toBe('processing');
    const [retry] = await t.api.retriesOf(event.id);
    expect(retry).toMatchObject({ status: 'pending', retry_of: event.id });
  });
});

describe('changes before the scheduled time', () => {
  it('sends only the new definition of an event updated before its time', async () => {
    const event = await t.api.schedule({
      webhook_url: `${t.receiver.url}/old-target`,
      scheduled_at: inMs(1200),
    });
    const updated = await t.app.request('PUT', `/api/v1/events/${event.id}`, {
      key: t.team.key,
      body: { webhook_url: `${t.receiver.url}/new-target`, scheduled_at: inMs(1500) },
    });
    expect(updated.status).toBe(200);
    await t.receiver.waitFor(1, (r) => r.path === '/new-target');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.receiver.requests.filter((r) => r.path === '/old-target')).toHaveLength(0);
  });

  it('sends nothing for an event deleted before its time', async () => {
    const event = await t.api.schedule({ webhook_url: `${t.receiver.url}/deleted`, scheduled_at: inMs(800) });
    expect((await t.app.request('DELETE', `/api/v1/events/${event.id}`, { key: t.team.key })).status).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(t.receiver.requests.filter((r) => r.path === '/deleted')).toHaveLength(0);
  });

  it('never calls an event whose delete was accepted while its second was being claimed', async () => {
    // The calls outlast the deletes (they time out after 1 s), so a refused delete found the event in
    // flight and an accepted one found it pending, never already finished.
    t.receiver.reply('/racing', { delayMs: 1500 });
    const at = Date.now() + 2000;
    // In one batch request: one request per event took over 1.5 s on a loaded machine, past their time.
    const ids = await scheduleMany(t.app, t.team, 60, `${t.receiver.url}/racing`, new Date(at));
    // From before the claim, which takes them up to 100 ms ahead (claimAheadMs), to after it.
    await new Promise((resolve) => setTimeout(resolve, at - 200 - Date.now()));
    const answers = await Promise.all(
      ids.map(async (id, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 4));
        return { id, response: await t.app.request('DELETE', `/api/v1/events/${id}`, { key: t.team.key }) };
      }),
    );
    const deleted = new Set(answers.filter(({ response }) => response.status === 200).map(({ id }) => id));
    for (const { response } of answers.filter(({ id }) => !deleted.has(id))) {
      expect(response.body.error.details).toEqual({ currentStatus: 'processing' });
    }
    expect(deleted.size).toBeGreaterThan(0);
    // An array, not a Set: a timeout's message then shows which ids were called (a Set prints `{}`).
    const called = await eventually(
      () =>
        Promise.resolve([
          ...new Set(
            t.receiver.requests
              .filter((r) => r.path === '/racing')
              .map((r) => String(r.headers['webhook-id'])),
          ),
        ]),
      (calledIds) => calledIds.length === ids.length - deleted.size,
    );
    expect(called.filter((id) => deleted.has(id))).toEqual([]);
    for (const id of called) await t.api.settled(id);
  });
});
