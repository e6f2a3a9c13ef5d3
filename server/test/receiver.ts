import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers one request. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
}

/** A real HTTP server (on 127.0.0.1 unless told) that records every request and answers as told. */
export interface Receiver {
  url: string;
  requests: Received[];
  /** Sets the reply for a path (default 200 "ok"); a function may vary it per request. */
  reply(path: string, reply: Reply | ((request: Received, count: number) => Reply)): void;
  /** Resolves once `count` requests matching `filter` arrived; rejects after `timeoutMs`. */
  waitFor(count: number, filter?: (request: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** `host`: another address of this machine, for callers that cannot reach its loopback (containers). */
export async function startReceiver(host = '127.0.0.1'): Promise<Receiver> {
  const requests: Received[] = [];
  const replies = new Map<string, Reply | ((request: Received, count: number) => Reply)>();
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const request: Received = {
        method: req.method ?? '',
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(request);
      const count = (counts.get(path) ?? 0) + 1;
      counts.set(path, count);
      const configured = replies.get(path.split('?')[0] ?? path);
      const reply = typeof configured === 'function' ? configured(request, count) : (configured ?? {});
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? 'ok');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    requests,
    reply: (path, reply) => replies.set(path, reply),
    async waitFor(count, filter = () => true, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = requests.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline)
          throw new Error(`receiver got ${matching.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Integration tests of both packages wait for conditions the same way.
export { eventually } from '@webhook-scheduler/scheduler/testing';
