import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSender, type Sender, type WebhookRequest } from './send.js';

/**
 * A receiver speaking just enough HTTP/1.1 to control its connections: `after` decides, per request
 * read (1-based on its connection), whether to answer and keep the connection, answer and close it
 * a moment later without saying so, or close it without answering.
 */
type Behaviour = 'answer' | 'answer-then-close' | 'close-unanswered';

async function startRawReceiver(after: (nth: number) => Behaviour) {
  const seen: string[] = [];
  const server = net.createServer((socket) => {
    let buffered = '';
    let nth = 0;
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.slice(0, end);
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        seen.push(/webhook-id: *(\S+)/i.exec(head)?.[1] ?? '');
        nth += 1;
        const behaviour = after(nth);
        if (behaviour === 'close-unanswered') {
          socket.end();
          return;
        }
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
        if (behaviour === 'answer-then-close') setTimeout(() => socket.destroy(), 1);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const request = (url: string, webhookId: string): WebhookRequest => ({
  url,
  method: 'POST',
  headers: null,
  payload: { n: 1 },
  webhookId,
  signingSecrets: [],
});

let sender: Sender | undefined;
afterEach(async () => {
  await sender?.close();
});

describe('send: a kept-alive connection the receiver closed', () => {
  it('sends again, once, on a new connection a request the receiver never read', async () => {
    const receiver = await startRawReceiver(() => 'answer-then-close');
    // Fewer connections than calls: each connection is reused right after its answer, racing the close.
    sender = createSender({
      timeoutMs: 5000,
      allowPrivateTargets: true,
      allowedHosts: [],
      userAgent: 't',
      connectionsPerOrigin: 4,
    });
    try {
      const ids: string[] = [];
      const started = Date.now();
      // Calls racing the receiver's closes of the connections they would reuse.
      while (Date.now() - started < 2000) {
        const wave = Array.from({ length: 8 }, (_, i) => `evt_${ids.length + i}`);
        ids.push(...wave);
        const outcomes = await Promise.all(wave.map((id) => sender!.send(request(receiver.url, id))));
        for (const outcome of outcomes) expect(outcome.error).toBeNull();
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      }
      expect(receiver.seen.sort()).toEqual(ids.sort());
    } finally {
      await receiver.close();
    }
  });

  it('records a failure and sends nothing again when the receiver read the request and closed', async () => {
    const receiver = await startRawReceiver((nth) => (nth === 1 ? 'answer' : 'close-unanswered'));
    sender = createSender({ timeoutMs: 5000, allowPrivateTargets: true, allowedHosts: [], userAgent: 't' });
    try {
      expect((await sender.send(request(receiver.url, 'evt_first'))).ok).toBe(true);
      // Long enough for the pool to take the connection back, so the next call reuses it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const outcome = await sender.send(request(receiver.url, 'evt_read'));
      expect(outcome.ok).toBe(false);
      expect(outcome.error).toMatch(/closed by .* before the response was complete/);
      expect(receiver.seen).toEqual(['evt_first', 'evt_read']);
    } finally {
      await receiver.close();
    }
  });
});
