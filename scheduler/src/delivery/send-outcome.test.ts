import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../testing/receiver.js';
import { callTimeout, createSender, type Sender, type WebhookRequest } from './send.js';

let receiver: Receiver;
let redirectTarget: Receiver;
let sender: Sender;

const request = (path: string, overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url: `${receiver.url}${path}`,
  method: 'POST',
  headers: { 'X-Team': 'acme' },
  payload: { hello: 'wörld', n: 1 },
  webhookId: 'evt_original',
  signingSecrets: [],
  ...overrides,
});

beforeAll(async () => {
  redirectTarget = await startReceiver();
  receiver = await startReceiver((received, response) => {
    const [, route, code] = received.url.split('/');
    if (route === 'never') return;
    if (route === 'stall') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
      return;
    }
    response.statusCode = route === 'status' ? Number(code) : 200;
    if (response.statusCode === 301) response.setHeader('location', `${redirectTarget.url}/moved`);
    response.end(response.statusCode === 204 ? undefined : `answer to ${received.method}`);
  });
  sender = createSender({
    timeoutMs: 5000,
    allowPrivateTargets: true,
    allowedHosts: [],
    userAgent: 'test-agent/1',
  });
});

afterAll(async () => {
  await sender.close();
  await Promise.all([receiver.close(), redirectTarget.close()]);
});

describe('send: what counts', () => {
  it('records status, lowercase headers, body, whole-ms duration and start time of a 200', async () => {
    const before = Date.now();
    const outcome = await sender.send(request('/echo/fields'));
    expect(outcome).toMatchObject({
      ok: true,
      status: 200,
      body: 'answer to POST',
      error: null,
      permanent: false,
    });
    expect(outcome.headers?.['content-length']).toBe('14');
    expect(Number.isInteger(outcome.durationMs)).toBe(true);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    expect(outcome.startedAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it.each([200, 201, 204])('counts HTTP %i as success', async (status) => {
    const outcome = await sender.send(request(`/status/${status}`));
    expect(outcome).toMatchObject({ ok: true, status, error: null });
  });

  it('records the body of a 204 and of a HEAD response as ""', async () => {
    expect((await sender.send(request('/status/204'))).body).toBe('');
    expect((await sender.send(request('/echo/head', { method: 'HEAD' }))).body).toBe('');
  });

  it.each([404, 500])('counts HTTP %i as a failure with its status and body recorded', async (status) => {
    const outcome = await sender.send(request(`/status/${status}`));
    expect(outcome).toMatchObject({ ok: false, status, body: 'answer to POST', permanent: false });
    expect(outcome.error).toBe(`HTTP ${status}: the receiver did not answer with a 2xx status`);
  });

  it('does not follow a 301 and records it as a failure', async () => {
    const outcome = await sender.send(request('/status/301'));
    expect(outcome).toMatchObject({ ok: false, status: 301 });
    expect(outcome.headers?.location).toBe(`${redirectTarget.url}/moved`);
    expect(outcome.error).toMatch(/^HTTP 301: redirects are not followed/);
    expect(redirectTarget.hits).toHaveLength(0);
  });

  it('fails with status null and "connection refused" when nothing listens on the port', async () => {
    const closed = await startReceiver();
    await closed.close();
    const outcome = await sender.send(request('/', { url: `http://127.0.0.1:${closed.port}/` }));
    expect(outcome).toMatchObject({ ok: false, status: null, headers: null, body: null, permanent: false });
    expect(outcome.error).toBe(`connection refused (ECONNREFUSED) to 127.0.0.1:${closed.port}`);
  });

  it('fails with "DNS lookup failed" when the name does not resolve', async () => {
    const unresolved = createSender({
      timeoutMs: 1000,
      allowPrivateTargets: true,
      allowedHosts: [],
      userAgent: 'test-agent/1',
      lookup: () => Promise.resolve([]),
    });
    const outcome = await unresolved.send(request('/', { url: 'http://nope.invalid/' }));
    await unresolved.close();
    expect(outcome).toMatchObject({ ok: false, status: null, permanent: false });
    expect(outcome.error).toBe('DNS lookup failed for nope.invalid (ENOTFOUND)');
  });

  it('turns an invalid URL into a permanent failure instead of throwing', async () => {
    const outcome = await sender.send(request('/', { url: 'not a url' }));
    expect(outcome).toMatchObject({ ok: false, status: null, permanent: true });
    expect(outcome.error).toBe('invalid webhook URL: not a url');
  });
});

describe('send: one deadline', () => {
  const fast = (): Sender =>
    createSender({ timeoutMs: 300, allowPrivateTargets: true, allowedHosts: [], userAgent: 'test-agent/1' });

  it('fails with "timed out after 300 ms" when the receiver never answers', async () => {
    const quick = fast();
    const outcome = await quick.send(request('/never'));
    await quick.close();
    expect(outcome).toMatchObject({ ok: false, status: null, body: null, error: 'timed out after 300 ms' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(2000);
  });

  it('fails at the deadline when the receiver sends headers and then stalls the body', async () => {
    const quick = fast();
    const outcome = await quick.send(request('/stall'));
    await quick.close();
    expect(outcome).toMatchObject({
      ok: false,
      status: 200,
      body: 'partial',
      error: 'timed out after 300 ms while reading the response body',
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(2000);
  });

  it("ends a call at the event's own deadline when it is shorter than the sender's", async () => {
    const outcome = await sender.send(request('/never', { timeoutMs: 300 }));
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'timed out after 300 ms' });
  });

  it.each([
    [null, 5000, 5000],
    [undefined, 5000, 5000],
    [1000, 5000, 1000],
    [9000, 5000, 5000],
  ])('gives a call requesting %s ms with a cap of %i ms a deadline of %i ms', (requested, cap, expected) => {
    expect(callTimeout(requested, cap)).toBe(expected);
  });
});
