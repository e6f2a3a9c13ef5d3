import { createHmac } from 'node:crypto';
import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { server, useMockApi } from '../../test/msw.js';
import {
  type AlertMessage,
  type CronPausedAlertData,
  type VerifiedWebhook,
  verifyWebhook,
} from '../index.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ALERT_URL = 'https://alerts.example.com/webhook-scheduler';
const CREATED_AT = '2030-01-07T08:00:31.412Z';

const ALERTS: AlertMessage[] = [
  {
    type: 'event.failed',
    created_at: CREATED_AT,
    data: {
      event_id: '6d7a1f3b-2c4e-4b8a-9f01-5e6d7c8b9a02',
      cron_id: null,
      webhook_url: 'https://example.com/hooks/order',
      scheduled_at: '2030-01-07T08:00:00+00:00',
      response_status: 503,
      response_error: 'HTTP 503: the receiver did not answer with a 2xx status',
    },
  },
  {
    type: 'cron.paused',
    created_at: CREATED_AT,
    data: {
      cron_id: '2f1c9a4e-8a43-4c57-9d5e-3c1b6f0a7d21',
      webhook_url: 'https://example.com/hooks/daily',
      consecutive_failures: 5,
      paused_reason: 'failures',
    },
  },
  {
    type: 'destination.circuit_opened',
    created_at: CREATED_AT,
    data: { origin: 'https://hooks.example.com', consecutive_failures: 10, open_until: null },
  },
  {
    type: 'destination.circuit_closed',
    created_at: CREATED_AT,
    data: { origin: 'https://hooks.example.com' },
  },
];

/** The headers the service signs a body with (Node's HMAC, not the SDK's code). */
function signedHeaders(id: string, body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

/** Sends `body` to the alert URL as the service would, and returns what the receiver verified. */
async function receive(body: string): Promise<VerifiedWebhook> {
  const verified: VerifiedWebhook[] = [];
  // A receiver on a fetch-style runtime: a Headers object and the body as an ArrayBuffer.
  server.use(
    http.post(ALERT_URL, async ({ request }) => {
      verified.push(
        await verifyWebhook({ secret: SECRET, headers: request.headers, body: await request.arrayBuffer() }),
      );
      return new HttpResponse(null, { status: 204 });
    }),
  );
  const response = await fetch(ALERT_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signedHeaders('evt_1', body) },
    body,
  });
  expect(response.status).toBe(204);
  const [first] = verified;
  if (!first) throw new Error('the receiver verified nothing');
  return first;
}

describe('verifyWebhook on an alert URL', () => {
  useMockApi();

  it.each(ALERTS.map((alert) => [alert.type, alert] as const))(
    'returns a %s message as the alert it is',
    async (_type, alert) => {
      expect((await receive(JSON.stringify(alert))).alert).toEqual(alert);
    },
  );

  it('types the alert by its type, so each message’s data reads without a cast', async () => {
    const { alert } = await receive(JSON.stringify(ALERTS[1]));
    expectTypeOf(alert).toEqualTypeOf<AlertMessage | null>();
    if (alert?.type !== 'cron.paused') throw new Error(`expected cron.paused, got ${alert?.type}`);
    expectTypeOf(alert.data).toEqualTypeOf<CronPausedAlertData>();
    expect(alert.data.consecutive_failures).toBe(5);
  });

  it.each([
    ['a webhook’s own payload', '{"orderId":42}'],
    ['an unknown type', JSON.stringify({ ...ALERTS[3], type: 'team.deleted' })],
    ['an alert without its data', JSON.stringify({ type: 'cron.paused', created_at: CREATED_AT })],
    ['a body that is not JSON', 'not json'],
    ['an empty body', ''],
  ])('returns no alert for %s, and still its id and timestamp', async (_name, body) => {
    const verified = await receive(body);
    expect(verified).toMatchObject({ id: 'evt_1', alert: null });
    expect(verified.timestamp).toBeInstanceOf(Date);
  });
});
