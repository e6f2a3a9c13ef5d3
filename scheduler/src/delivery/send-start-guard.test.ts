import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../testing/receiver.js';
import { createSender, type Sender, type WebhookRequest } from './send.js';

let receiver: Receiver;
let sender: Sender;

const request = (path: string): WebhookRequest => ({
  url: `${receiver.url}${path}`,
  method: 'POST',
  headers: null,
  payload: { n: 1 },
  webhookId: 'evt_guarded',
  signingSecrets: [],
});

const hitsAt = (path: string) => receiver.hits.filter((hit) => hit.url === path);

beforeAll(async () => {
  receiver = await startReceiver();
  sender = createSender({ timeoutMs: 5000, allowPrivateTargets: true, allowedHosts: [], userAgent: 't' });
});
afterAll(async () => {
  await sender.close();
  await receiver.close();
});

describe('send: the last check before the request is written', () => {
  it('sends nothing and answers undefined when the guard refuses at the start of the request', async () => {
    let asked = 0;
    const outcome = await sender.send(request('/refused'), () => {
      asked += 1;
      return false;
    });
    expect(outcome).toBeUndefined();
    expect(asked).toBe(1);
    expect(hitsAt('/refused')).toEqual([]);
  });

  it('sends the request when the guard allows it', async () => {
    const outcome = await sender.send(request('/allowed'), () => true);
    expect(outcome?.ok).toBe(true);
    expect(hitsAt('/allowed')).toHaveLength(1);
  });
});
