import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKED_TARGET_MESSAGE } from './blocked-target-error.js';
import { startReceiver, type Receiver } from '../testing/receiver.js';
import { createSender, type WebhookRequest } from './send.js';

// Two receivers on one port: 127.0.0.2 stands for the public address DNS answers first (listed in
// WEBHOOK_ALLOWED_HOSTS), 127.0.0.1 for the internal one a rebinding DNS answers afterwards.
let checked: Receiver;
let rebound: Receiver;
let tls: Receiver;

async function receiverPair(): Promise<[Receiver, Receiver]> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const first = await startReceiver(
      (_request, response) => {
        // A new connection (and so a new lookup) for every call.
        response.setHeader('connection', 'close');
        response.end('checked');
      },
      { host: '127.0.0.2' },
    );
    try {
      return [first, await startReceiver(undefined, { host: '127.0.0.1', port: first.port })];
    } catch {
      await first.close();
    }
  }
  throw new Error('no port free on both 127.0.0.1 and 127.0.0.2');
}

const request = (url: string): WebhookRequest => ({
  url,
  method: 'POST',
  headers: null,
  payload: { ping: true },
  webhookId: 'evt_pinning',
  signingSecrets: [],
});

beforeAll(async () => {
  [checked, rebound] = await receiverPair();
  tls = await startReceiver(undefined, { tls: true });
});

afterAll(async () => {
  await Promise.all([checked.close(), rebound.close(), tls.close()]);
});

describe('send: the checked address is the connected address', () => {
  it('never connects to loopback when DNS answers an allowed address first and loopback afterwards', async () => {
    const answers = ['127.0.0.2'];
    const sender = createSender({
      timeoutMs: 2000,
      allowPrivateTargets: false,
      allowedHosts: ['127.0.0.2'],
      userAgent: 'test-agent/1',
      lookup: () => Promise.resolve([{ address: answers.shift() ?? '127.0.0.1', family: 4 }]),
    });
    const first = await sender.send(request(`http://rebind.example:${checked.port}/`));
    const second = await sender.send(request(`http://rebind.example:${checked.port}/`));
    await sender.close();
    expect(first).toMatchObject({ ok: true, body: 'checked' });
    expect(second).toMatchObject({ ok: false, permanent: true, status: null });
    expect(second.error).toBe(BLOCKED_TARGET_MESSAGE);
    expect(checked.hits).toHaveLength(1);
    expect(rebound.hits).toHaveLength(0);
  });
});

describe('send: TLS', () => {
  it('fails with a TLS error and status null against a self-signed certificate', async () => {
    const sender = createSender({
      timeoutMs: 2000,
      allowPrivateTargets: true,
      allowedHosts: [],
      userAgent: 't/1',
    });
    const outcome = await sender.send(request(`${tls.url}/`));
    await sender.close();
    expect(outcome).toMatchObject({ ok: false, status: null, permanent: false });
    expect(outcome.error).toMatch(/^TLS handshake failed: .*certificate/);
    expect(tls.hits).toHaveLength(0);
  });

  it('sends the hostname, not the pinned address, as TLS server name', async () => {
    const sender = createSender({
      timeoutMs: 2000,
      allowPrivateTargets: false,
      allowedHosts: ['webhook.test'],
      userAgent: 't/1',
      lookup: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    });
    const outcome = await sender.send(request(`https://webhook.test:${tls.port}/`));
    await sender.close();
    expect(tls.serverNames).toContain('webhook.test');
    expect(outcome.error).toMatch(/^TLS handshake failed:/);
  });
});
