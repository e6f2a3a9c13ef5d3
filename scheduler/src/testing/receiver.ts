import { readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A request as the receiver saw it. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body bytes exactly as they arrived (what a signature covers). */
  raw: Buffer;
}

/** Answers a request once its body is read; the default answers 200 "ok". */
export type Respond = (request: Received, response: ServerResponse) => void;

/** A real HTTP(S) server on loopback that records every request it got. */
export interface Receiver {
  /** `http://127.0.0.1:<port>` (or https://…), without a trailing slash. */
  url: string;
  port: number;
  hits: Received[];
  /** TLS server names clients asked for (SNI), https only. */
  serverNames: string[];
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  host?: string;
  port?: number;
  /** Serve HTTPS with the self-signed certificate for `webhook.test`, `localhost` and 127.0.0.1. */
  tls?: boolean;
}

const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

const okResponder: Respond = (_request, response) => {
  response.end('ok');
};

/** Starts a receiver (port 0 by default) and resolves once it listens. */
export async function startReceiver(respond: Respond = okResponder, options: ReceiverOptions = {}) {
  const host = options.host ?? '127.0.0.1';
  const hits: Received[] = [];
  const serverNames: string[] = [];
  const listener = (request: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const received = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: raw.toString('utf8'),
        raw,
      };
      hits.push(received);
      respond(received, response);
    });
  };
  const server: Server = options.tls
    ? createTlsServer(
        {
          key: fixture('self-signed.key.pem'),
          cert: fixture('self-signed.cert.pem'),
          SNICallback: (name, done) => {
            serverNames.push(name);
            done(null, undefined);
          },
        },
        listener,
      )
    : createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  let connections = 0;
  server.on(options.tls ? 'secureConnection' : 'connection', () => {
    connections += 1;
  });
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    port,
    hits,
    serverNames,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
  return receiver;
}
