import diagnostics from 'node:diagnostics_channel';
import { isIPv6 } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../testing/receiver.js';
import { webhookOrigin } from './origin.js';
import { createSender, type WebhookRequest } from './send.js';

// What undici hands its connector for each new connection: the target the socket is opened to.
interface ConnectParams {
  protocol: string;
  hostname: string;
  port: string | number;
}

let v4: Receiver;
let v6: Receiver;
let connects: ConnectParams[] = [];
const onConnect = (message: unknown) =>
  connects.push((message as { connectParams: ConnectParams }).connectParams);

/** Receivers on 127.0.0.1 and [::1] at one port, so every spelling below reaches one of them. */
async function receiverPair(): Promise<[Receiver, Receiver]> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const first = await startReceiver();
    try {
      return [first, await startReceiver(undefined, { host: '::1', port: first.port })];
    } catch {
      await first.close();
    }
  }
  throw new Error('no port free on both 127.0.0.1 and [::1]');
}

beforeAll(async () => {
  [v4, v6] = await receiverPair();
  diagnostics.subscribe('undici:client:beforeConnect', onConnect);
});
afterAll(async () => {
  diagnostics.unsubscribe('undici:client:beforeConnect', onConnect);
  await Promise.all([v4.close(), v6.close()]);
});
beforeEach(() => {
  connects = [];
});

/** The origin of a connection's target, spelled as `URL.origin` spells one. */
function connectedOrigin({ protocol, hostname, port }: ConnectParams): string {
  const host = isIPv6(hostname) ? `[${hostname}]` : hostname;
  return new URL(`${protocol}//${host}${port === '' ? '' : `:${String(port)}`}`).origin;
}

const request = (url: string): WebhookRequest => ({
  url,
  method: 'POST',
  headers: null,
  payload: { ping: true },
  webhookId: 'evt_origin',
  signingSecrets: [],
});

/** Spellings of the receivers' origins (`PORT` is theirs; names resolve to 127.0.0.1), and of default ports. */
const SPELLINGS = [
  'http://127.0.0.1:0PORT/padded',
  'http://127.0.0.1:00PORT/padded',
  'http://0x7f.1:PORT/hex',
  'http://2130706433:PORT/decimal',
  'http://127.1:PORT/short',
  'http://0177.0.0.1:PORT/octal',
  'http://127.0.0.1.:PORT/dot',
  'http://%31%32%37.0.0.1:PORT/encoded',
  'http://[0:0:0:0:0:0:0:1]:PORT/v6',
  'http://[::1]:0PORT/v6',
  'http://[::ffff:127.0.0.1]:PORT/mapped',
  'http://Hooks.EXAMPLE.:PORT/case-and-dot',
  'http://hooks.ex%61mple:PORT/encoded-name',
  'http://a.example:PORT\\@b.example/backslash',
  'http://b.example\\@a.example:PORT/backslash',
  'http://user:secret@b.example:0PORT/userinfo',
  'http://bücher.example:PORT/idn',
  'http://hooks.example:80/default',
  'http://127.0.0.1:080/default',
  'https://hooks.example:0443/default',
  'https://bücher.example./default',
];

describe('send: the connection goes to the origin the event counts as', () => {
  it.each(SPELLINGS)(
    'opens the connection of %s to its computed origin, resolving that host',
    async (spelling) => {
      const url = spelling.replace('PORT', String(v4.port));
      const origin = webhookOrigin(url);
      const { hostname, host, port } = new URL(origin);
      const served = Number(port) === v4.port;
      const resolved: string[] = [];
      const sender = createSender({
        timeoutMs: 5000,
        // Off where no receiver listens: the guard then refuses loopback once the target is known.
        allowPrivateTargets: served,
        allowedHosts: [],
        userAgent: 'test-agent/1',
        lookup: (name) => {
          resolved.push(name);
          return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
        },
      });
      const hitsBefore = v4.hits.length + v6.hits.length;
      try {
        const outcome = await sender.send(request(url));
        expect(connects.map(connectedOrigin)).toEqual([origin]);
        // The SSRF guard resolved (and judged) that very host; an address needs no resolving.
        const named = !/^[\d.]+$|^\[/.test(hostname);
        expect(resolved).toEqual(named ? [hostname] : []);
        if (!served) return;
        expect(outcome.ok, outcome.error ?? '').toBe(true);
        expect(v4.hits.length + v6.hits.length - hitsBefore).toBe(1);
        const hit = hostname === '[::1]' ? v6.hits.at(-1) : v4.hits.at(-1);
        expect(hit?.headers.host).toBe(host);
      } finally {
        await sender.close();
      }
    },
  );
});
