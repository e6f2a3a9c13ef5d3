import { createHmac, timingSafeEqual } from 'node:crypto';
import { createClient, verifyWebhook, type WebhookSchedulerClient } from '@webhook-scheduler/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSigningSecrets, rotateSigningSecret } from '../src/teams/teams.service.js';
import { dueSoon } from './due-soon.js';
import { type TestApp, type TestTeam, startTestApp } from './harness.js';
import { type Receiver, eventually, startReceiver } from './receiver.js';

// The published SDK against the real app and its scheduler, calling a real receiver on loopback.

let app: TestApp;
let team: TestTeam;
let client: WebhookSchedulerClient;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ scheduler: { webhookTimeoutMs: 2000 } });
  team = await app.createTeam();
  client = createClient({ baseUrl: app.url, apiKey: team.key, retry: 0 });
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

/** Standard Webhooks, written here independently of the service and of the SDK. */
function signatureMatches(
  secret: string,
  id: string,
  timestamp: string,
  body: string,
  signature: string,
): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  const [version, value] = signature.split(',');
  if (version !== 'v1' || !value) return false;
  const given = Buffer.from(value, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('delivery through the SDK', () => {
  it('waits for an event to be delivered and reads its recorded outcome', async () => {
    receiver.reply('/sdk', { status: 202, body: 'accepted' });
    const created = await dueSoon((at) =>
      client.events.create({ webhook_url: `${receiver.url}/sdk`, scheduled_at: at, payload: { order: 7 } }),
    );
    const delivered = await eventually(
      () => client.events.get(created.id),
      (event) => event.status === 'success',
    );
    expect(delivered).toMatchObject({
      response_status: 202,
      response_body: 'accepted',
      response_error: null,
    });
    expect(delivered.response_duration).toBeGreaterThanOrEqual(0);
    expect(new Date(delivered.executed_at ?? 0).getTime()).toBeGreaterThanOrEqual(
      new Date(created.scheduled_at).getTime(),
    );
  });

  it('signs each call so that the SDK’s verifyWebhook and an independent check both accept it', async () => {
    const { current } = await getSigningSecrets(app.orm.em.fork(), team.teamId, new Date());
    const created = await dueSoon((at) =>
      client.events.create({ webhook_url: `${receiver.url}/signed`, scheduled_at: at, payload: { a: 1 } }),
    );
    const [call] = await receiver.waitFor(1, (request) => request.path === '/signed');
    const headers = call!.headers as Record<string, string>;
    expect(headers['webhook-id']).toBe(created.id);
    expect(
      signatureMatches(
        current,
        headers['webhook-id']!,
        headers['webhook-timestamp']!,
        call!.body,
        headers['webhook-signature']!,
      ),
    ).toBe(true);
    await expect(verifyWebhook({ secret: current, headers, body: call!.body })).resolves.toMatchObject({
      id: created.id,
    });
    const tampered = verifyWebhook({ secret: current, headers, body: call!.body.replace('1', '2') });
    await expect(tampered).rejects.toThrow();
  });

  it('signs with both secrets during a rotation', async () => {
    const rotated = await rotateSigningSecret(app.orm.em.fork(), team.teamId, new Date());
    await dueSoon((at) => client.events.create({ webhook_url: `${receiver.url}/rotated`, scheduled_at: at }));
    const [call] = await receiver.waitFor(1, (request) => request.path === '/rotated');
    const headers = call!.headers as Record<string, string>;
    const signatures = headers['webhook-signature']!.split(' ');
    expect(signatures).toHaveLength(2);
    for (const secret of [rotated.current, rotated.previous!.secret]) {
      expect(
        signatures.some((s) =>
          signatureMatches(secret, headers['webhook-id']!, headers['webhook-timestamp']!, call!.body, s),
        ),
      ).toBe(true);
      await expect(verifyWebhook({ secret, headers, body: call!.body })).resolves.toBeTruthy();
    }
  });
});
