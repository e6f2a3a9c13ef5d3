import http from 'node:http';
import type { ApiResponse } from '../harness.js';

/** What to send, byte for byte: unlike fetch, a GET or DELETE may carry a body. */
export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

/** Sends one request over `agent` with node:http and reads the whole response. */
export function sendRaw(baseUrl: string, agent: http.Agent, request: RawRequest): Promise<ApiResponse> {
  const url = new URL(baseUrl);
  // node:http frames a GET's or DELETE's body only with an explicit length.
  const headers = request.body
    ? { ...request.headers, 'content-length': String(request.body.byteLength) }
    : request.headers;
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers,
        agent,
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (typeof value === 'string') headers.set(name, value);
          }
          const isJson = /\bjson\b/.test(headers.get('content-type') ?? '');
          resolve({
            status: incoming.statusCode ?? 0,
            body: isJson && text ? (JSON.parse(text) as unknown) : text,
            text,
            headers,
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}
