import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver, type Received } from '../testing/receiver.js';
import { verifiesSignature } from '../testing/verify-signature.js';
import { createSender, type Sender, type WebhookRequest } from './send.js';

let receiver: Receiver;
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

const hitAt = (path: string): Received | undefined => receiver.hits.findLast((hit) => hit.url === path);

beforeAll(async () => {
  receiver = await startReceiver((received, response) => {
    response.end(`answer to ${received.method}`);
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
  await receiver.close();
});

describe('send: what is sent', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const)(
    'sends %s with the custom headers and the payload as a JSON body',
    async (method) => {
      const path = `/echo/${method}`;
      await sender.send(request(path, { method }));
      const hit = hitAt(path);
      expect(hit?.method).toBe(method);
      expect(hit?.headers['x-team']).toBe('acme');
      expect(hit?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(hit?.body ?? '')).toEqual({ hello: 'wörld', n: 1 });
    },
  );

  it.each(['GET', 'HEAD'] as const)(
    'sends %s without a body or content-type although a payload is given',
    async (method) => {
      const path = `/echo/${method}`;
      await sender.send(request(path, { method }));
      const hit = hitAt(path);
      expect(hit?.method).toBe(method);
      expect(hit?.body).toBe('');
      expect(hit?.headers['content-type']).toBeUndefined();
      expect(hit?.headers['content-length'] ?? '0').toBe('0');
      expect(hit?.headers['transfer-encoding']).toBeUndefined();
    },
  );

  it('sends no body when the payload is null', async () => {
    await sender.send(request('/echo/null', { payload: null }));
    expect(hitAt('/echo/null')?.body).toBe('');
    expect(hitAt('/echo/null')?.headers['content-type']).toBeUndefined();
  });

  it('adds user-agent, accept-encoding identity, webhook-id and a Unix-seconds webhook-timestamp', async () => {
    const outcome = await sender.send(request('/echo/added'));
    const headers = hitAt('/echo/added')?.headers ?? {};
    expect(headers['user-agent']).toBe('test-agent/1');
    expect(headers['accept-encoding']).toBe('identity');
    expect(headers['webhook-id']).toBe('evt_original');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(outcome.startedAt.getTime() / 1000)));
    expect(headers['webhook-signature']).toBeUndefined();
  });

  it('signs id.timestamp.body with each secret so an independent verifier accepts both signatures', async () => {
    const secrets = [
      `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      `whsec_${Buffer.alloc(32, 2).toString('base64')}`,
    ];
    await sender.send(request('/echo/signed', { signingSecrets: secrets }));
    const hit = hitAt('/echo/signed');
    const {
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': header,
    } = hit?.headers ?? {};
    const signatures = String(header).split(' ');
    expect(signatures).toHaveLength(2);
    for (const [index, secret] of secrets.entries()) {
      expect(
        verifiesSignature(secret, String(id), String(timestamp), hit?.raw ?? '', signatures[index] ?? ''),
      ).toBe(true);
    }
    expect(
      verifiesSignature(secrets[0] ?? '', String(id), String(timestamp), '{"tampered":1}', String(header)),
    ).toBe(false);
  });

  it('signs an empty body for a GET', async () => {
    const secret = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
    await sender.send(request('/echo/signed-get', { method: 'GET', signingSecrets: [secret] }));
    const headers = hitAt('/echo/signed-get')?.headers ?? {};
    const valid = verifiesSignature(
      secret,
      'evt_original',
      String(headers['webhook-timestamp']),
      '',
      String(headers['webhook-signature']),
    );
    expect(valid).toBe(true);
  });

  it('keeps a custom content-type instead of application/json', async () => {
    await sender.send(request('/echo/ct', { headers: { 'Content-Type': 'application/cloudevents+json' } }));
    expect(hitAt('/echo/ct')?.headers['content-type']).toBe('application/cloudevents+json');
  });

  it('overrides custom headers that would forge its own webhook-id or user-agent', async () => {
    await sender.send(request('/echo/forged', { headers: { 'Webhook-Id': 'forged', 'User-Agent': 'x' } }));
    expect(hitAt('/echo/forged')?.headers['webhook-id']).toBe('evt_original');
    expect(hitAt('/echo/forged')?.headers['user-agent']).toBe('test-agent/1');
  });

  it('reuses a keep-alive connection for consecutive calls to one origin', async () => {
    // undici waits one event-loop turn before reusing a socket, so back-to-back calls alternate
    // between two connections; warm both up first.
    for (let i = 0; i < 3; i += 1) await sender.send(request('/echo/warm'));
    const before = receiver.connections();
    for (let i = 0; i < 5; i += 1) await sender.send(request('/echo/reuse'));
    expect(receiver.connections()).toBe(before);
  });
  it('keeps reusing connections after a HEAD closed one (undici 7 rebuilt the pool on every call)', async () => {
    const fresh = createSender({
      timeoutMs: 5000,
      allowPrivateTargets: true,
      allowedHosts: [],
      userAgent: 'u/1',
    });
    await fresh.send(request('/echo/head-first', { method: 'HEAD' }));
    for (let i = 0; i < 3; i += 1) await fresh.send(request('/echo/after-head'));
    const before = receiver.connections();
    for (let i = 0; i < 5; i += 1) await fresh.send(request('/echo/after-head'));
    const after = receiver.connections();
    await fresh.close();
    expect(after).toBe(before);
  });
});
