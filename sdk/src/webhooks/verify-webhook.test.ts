import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError, type WebhookVerificationFailure, verifyWebhook } from '../index.js';

// The test vector of the Standard Webhooks specification.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: '1614265330',
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const VECTOR_NOW = new Date(1614265330 * 1000);

function headersOf(signature: string, id = VECTOR.id, timestamp = VECTOR.timestamp) {
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature };
}

/** Signs like the service does, with Node's HMAC rather than the SDK's code. */
function sign(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationFailure> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

describe('verifyWebhook', () => {
  it('accepts the Standard Webhooks test vector and returns its id and timestamp', async () => {
    const verified = await verifyWebhook({
      ...VECTOR,
      headers: headersOf(VECTOR.signature),
      now: VECTOR_NOW,
    });

    expect(verified).toEqual({ id: VECTOR.id, timestamp: VECTOR_NOW, alert: null });
  });

  it('accepts a signature made with Node’s HMAC over a fresh secret', async () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const body = JSON.stringify({ user: 42, note: 'naïve ☃' });

    await expect(
      verifyWebhook({
        secret,
        body,
        headers: headersOf(sign(secret, 'evt_1', timestamp, body), 'evt_1', timestamp),
      }),
    ).resolves.toMatchObject({ id: 'evt_1' });
  });

  it('accepts the body as bytes and headers as a Headers object', async () => {
    await expect(
      verifyWebhook({
        secret: VECTOR.secret,
        body: new TextEncoder().encode(VECTOR.body).buffer,
        headers: new Headers(headersOf(VECTOR.signature)),
        now: VECTOR_NOW,
      }),
    ).resolves.toMatchObject({ id: VECTOR.id });
  });

  it('matches header names case-insensitively in a plain object', async () => {
    const headers = {
      'Webhook-Id': VECTOR.id,
      'WEBHOOK-TIMESTAMP': VECTOR.timestamp,
      'Webhook-Signature': VECTOR.signature,
    };

    await expect(verifyWebhook({ ...VECTOR, headers, now: VECTOR_NOW })).resolves.toMatchObject({
      id: VECTOR.id,
    });
  });

  it('accepts any one of several signatures, as during a secret rotation', async () => {
    const oldSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const signatures = [
      sign(oldSecret, VECTOR.id, VECTOR.timestamp, VECTOR.body),
      'v1a,c2lnbmF0dXJl',
      VECTOR.signature,
    ];

    await expect(
      verifyWebhook({ ...VECTOR, headers: headersOf(signatures.join(' ')), now: VECTOR_NOW }),
    ).resolves.toMatchObject({ id: VECTOR.id });
  });

  it('rejects with invalid_signature when the body was changed', async () => {
    const reason = await rejection(
      verifyWebhook({
        ...VECTOR,
        body: '{"test": 2432232315}',
        headers: headersOf(VECTOR.signature),
        now: VECTOR_NOW,
      }),
    );
    expect(reason).toBe('invalid_signature');
  });

  it('rejects with invalid_signature when the id was changed', async () => {
    const reason = await rejection(
      verifyWebhook({ ...VECTOR, headers: headersOf(VECTOR.signature, 'msg_other'), now: VECTOR_NOW }),
    );
    expect(reason).toBe('invalid_signature');
  });

  it('rejects with invalid_signature when the secret is another one', async () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const reason = await rejection(
      verifyWebhook({ ...VECTOR, secret, headers: headersOf(VECTOR.signature), now: VECTOR_NOW }),
    );
    expect(reason).toBe('invalid_signature');
  });

  it('rejects with invalid_signature when only other versions or malformed entries are present', async () => {
    const header = `v1a,${VECTOR.signature.slice(3)} v2,${VECTOR.signature.slice(3)} v1,not-base64! ${VECTOR.signature.slice(3)}`;
    const reason = await rejection(verifyWebhook({ ...VECTOR, headers: headersOf(header), now: VECTOR_NOW }));
    expect(reason).toBe('invalid_signature');
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])(
    'rejects with missing_headers without %s',
    async (name) => {
      const headers = Object.fromEntries(
        Object.entries(headersOf(VECTOR.signature)).filter(([key]) => key !== name),
      );

      await expect(rejection(verifyWebhook({ ...VECTOR, headers, now: VECTOR_NOW }))).resolves.toBe(
        'missing_headers',
      );
    },
  );

  it.each(['', 'abc', '1614265330.5', '-1614265330'])(
    'rejects with invalid_timestamp when the timestamp is %j',
    async (timestamp) => {
      const reason = await rejection(
        verifyWebhook({
          ...VECTOR,
          headers: headersOf(VECTOR.signature, VECTOR.id, timestamp),
          now: VECTOR_NOW,
        }),
      );
      expect(reason).toBe(timestamp === '' ? 'missing_headers' : 'invalid_timestamp');
    },
  );

  it('accepts a timestamp exactly at the default tolerance of five minutes', async () => {
    const now = new Date(VECTOR_NOW.getTime() + 300_000);
    await expect(
      verifyWebhook({ ...VECTOR, headers: headersOf(VECTOR.signature), now }),
    ).resolves.toBeDefined();
  });

  it('rejects with timestamp_too_old one second past the tolerance', async () => {
    const now = new Date(VECTOR_NOW.getTime() + 301_000);
    await expect(
      rejection(verifyWebhook({ ...VECTOR, headers: headersOf(VECTOR.signature), now })),
    ).resolves.toBe('timestamp_too_old');
  });

  it('rejects with timestamp_too_new when the timestamp is ahead by more than the tolerance', async () => {
    const now = new Date(VECTOR_NOW.getTime() - 61_000);
    const reason = await rejection(
      verifyWebhook({ ...VECTOR, headers: headersOf(VECTOR.signature), now, toleranceSeconds: 60 }),
    );
    expect(reason).toBe('timestamp_too_new');
  });

  it('rejects an old timestamp before checking the signature, so replays fail even when correctly signed', async () => {
    const reason = await rejection(verifyWebhook({ ...VECTOR, headers: headersOf(VECTOR.signature) }));
    expect(reason).toBe('timestamp_too_old');
  });

  it.each(['whsec_', 'whsec_not base64', 'plain'])(
    'throws a TypeError for the malformed secret %j',
    async (secret) => {
      await expect(
        verifyWebhook({ ...VECTOR, secret, headers: headersOf(VECTOR.signature), now: VECTOR_NOW }),
      ).rejects.toThrow(TypeError);
    },
  );
});
