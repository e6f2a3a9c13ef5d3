import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(outcome.error).toBe(
      'blocked: 127.0.0.1 is a loopback address; set WEBHOOK_ALLOW_PRIVATE_TARGETS=true or list it in WEBHOOK_ALLOWED_HOSTS',
    );
    expect(receiver.hits.length).toBe(before);
  });

  it.each([
    [
      'an IPv4-mapped IPv6 literal',
      (port: number) => `http://[::ffff:127.0.0.1]:${port}/`,
      /::ffff:7f00:1 embeds 127\.0\.0\.1/,
    ],
    ['a decimal IPv4 literal', (port: number) => `http://2130706433:${port}/`, /127\.0\.0\.1 is a loopback/],
    ['the literal 0', (port: number) => `http://0:${port}/`, /0\.0\.0\.0 is an unspecified/],
    ['localhost', (port: number) => `http://localhost:${port}/`, /is a loopback address/],
  ])('refuses %s that reaches loopback', async (_name, url, reason) => {
    const before = receiver.hits.length;
    const outcome = await sendOnce({}, url(receiver.port));
    expect(outcome.permanent).toBe(true);
    expect(outcome.error).toMatch(reason);
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
    expect(outcome.error).toMatch(/^blocked: 127\.0\.0\.1 is a loopback address/);
    expect(receiver.hits.length).toBe(before);
  });
});
