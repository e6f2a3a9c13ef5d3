import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKED_TARGET_MESSAGE } from './blocked-target-error.js';
import { startReceiver, type Receiver } from '../testing/receiver.js';
import { createSender, type SenderOptions, type WebhookRequest } from './send.js';

let receiver: Receiver;

const request = (url: string): WebhookRequest => ({
  url,
  method: 'POST',
  headers: null,
  payload: { ping: true },
  webhookId: 'evt_guard',
  signingSecrets: [],
});

async function sendOnce(options: Partial<SenderOptions>, url: string) {
  const sender = createSender({
    timeoutMs: 2000,
    allowPrivateTargets: false,
    allowedHosts: [],
    userAgent: 'test-agent/1',
    ...options,
  });
  try {
    return await sender.send(request(url));
  } finally {
    await sender.close();
  }
}

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
});

describe('send: SSRF guard', () => {
  it('refuses loopback permanently when private targets are not allowed, and nothing reaches the receiver', async () => {
    const before = receiver.hits.length;
    const outcome = await sendOnce({}, `${receiver.url}/refused`);
    expect(outcome).toMatchObject({ ok: false, status: null, headers: null, body: null, permanent: true });
    expect(outcome.error).toBe(BLOCKED_TARGET_MESSAGE);
    expect(receiver.hits.length).toBe(before);
  });

  it.each([
    ['an IPv4-mapped IPv6 literal', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
    ['a decimal IPv4 literal', (port: number) => `http://2130706433:${port}/`],
    ['the literal 0', (port: number) => `http://0:${port}/`],
    ['localhost', (port: number) => `http://localhost:${port}/`],
  ])('refuses %s that reaches loopback, naming no address', async (_name, url) => {
    const before = receiver.hits.length;
    const outcome = await sendOnce({}, url(receiver.port));
    expect(outcome.permanent).toBe(true);
    expect(outcome.error).toBe(BLOCKED_TARGET_MESSAGE);
    expect(outcome.error).not.toMatch(/127\.0\.0\.1|::1|0\.0\.0\.0/);
    expect(receiver.hits.length).toBe(before);
  });

  it('delivers to loopback when allowPrivateTargets is true', async () => {
    const outcome = await sendOnce({ allowPrivateTargets: true }, `${receiver.url}/allowed`);
    expect(outcome).toMatchObject({ ok: true, status: 200, permanent: false });
  });

  it.each([['127.0.0.1'], ['127.0.0.0/8']])(
    'delivers to 127.0.0.1 when WEBHOOK_ALLOWED_HOSTS lists %s',
    async (entry) => {
      const outcome = await sendOnce({ allowedHosts: [entry] }, `${receiver.url}/listed`);
      expect(outcome).toMatchObject({ ok: true, status: 200 });
    },
  );

  it('delivers to localhost when WEBHOOK_ALLOWED_HOSTS lists localhost', async () => {
    const outcome = await sendOnce(
      { allowedHosts: ['localhost'], lookup: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]) },
      `http://localhost:${receiver.port}/by-name`,
    );
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(receiver.hits.at(-1)?.headers.host).toBe(`localhost:${receiver.port}`);
  });

  it('refuses a name whose lookup answers loopback, without contacting the receiver', async () => {
    const before = receiver.hits.length;
    const outcome = await sendOnce(
      { lookup: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]) },
      `http://hooks.example:${receiver.port}/`,
    );
    expect(outcome).toMatchObject({ permanent: true, status: null });
    expect(outcome.error).toBe(BLOCKED_TARGET_MESSAGE);
    expect(receiver.hits.length).toBe(before);
  });
});
