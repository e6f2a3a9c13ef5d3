import { readFileSync } from 'node:fs';
import net from 'node:net';
import express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestTeam, createTestDatabase, startTestApp } from '../../test/harness.js';
import type { TestDatabase } from '../../test/harness.js';
import { listen } from '../service.js';

/** A raw client socket: what it received, and when the server closed it. */
interface RawClient {
  socket: net.Socket;
  /** Resolves with the bytes received once the socket closes, and how long after opening it did. */
  closed: Promise<{ afterMs: number; received: string }>;
}

const sockets: net.Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

async function connect(url: string): Promise<RawClient> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  const socket = net.connect(Number(port), hostname);
  sockets.push(socket);
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const closed = new Promise<{ afterMs: number; received: string }>((resolve) => {
    socket.once('close', () => resolve({ afterMs: Date.now() - started, received }));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed };
}

/** Resolves with the promise's value, or fails the test after `ms`. */
async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The soft limit on open files of this process (Linux), or undefined where it cannot be read. */
function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === undefined || soft === 'unlimited' ? Infinity : Number(soft);
  } catch {
    return undefined;
  }
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('slow clients', () => {
  let app: TestApp;
  let team: TestTeam;
  beforeAll(async () => {
    app = await startTestApp({
      database: db,
      http: { headersTimeoutMs: 500, requestTimeoutMs: 1500, keepAliveTimeoutMs: 1000 },
    });
    team = await app.createTeam();
  });
  afterAll(() => app.close());

  it('answers 408 and closes a connection whose headers are not complete after the headers timeout', async () => {
    const client = await connect(app.url);
    client.socket.write(
      `GET /api/v1/crons HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${team.key}\r\n`,
    );
    const { afterMs, received } = await within(10_000, client.closed, 'closing partial headers');
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeGreaterThanOrEqual(400);
  });

  it('answers 408 and closes a connection that drips its body past the request timeout', async () => {
    const client = await connect(app.url);
    client.socket.write(
      `POST /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${team.key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{',
    );
    // A byte every 100 ms: never idle for long, never done.
    const drip = setInterval(() => client.socket.writable && client.socket.write(' '), 100);
    try {
      const { afterMs, received } = await within(10_000, client.closed, 'closing a dripped body');
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(afterMs).toBeGreaterThanOrEqual(1400);
    } finally {
      clearInterval(drip);
    }
  });

  it('closes an idle keep-alive connection after the keep-alive timeout, announcing it', async () => {
    const client = await connect(app.url);
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const { afterMs, received } = await within(10_000, client.closed, 'closing an idle connection');
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toMatch(/keep-alive: timeout=1\r\n/i);
    expect(afterMs).toBeGreaterThanOrEqual(900);
  });
});

describe('slow answers', () => {
  it('are not cut: the request timeout covers receiving the request only', async () => {
    const slow = express().get('/slow', (_req, res) => {
      setTimeout(() => res.send('done'), 1500);
    });
    const limits = {
      headersTimeoutMs: 300,
      requestTimeoutMs: 500,
      keepAliveTimeoutMs: 1000,
      maxConnections: 10,
    };
    const { server, url } = await listen(slow, { port: 0, host: '127.0.0.1', http: limits });
    try {
      const client = await connect(url);
      client.socket.write('GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      const { received } = await within(10_000, client.closed, 'the slow answer');
      expect(received).toMatch(/^HTTP\/1\.1 200 [^]*done$/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('many idle connections', () => {
  const IDLE = 2000;
  let app: TestApp;
  let team: TestTeam;
  beforeAll(async () => {
    app = await startTestApp({ database: db, http: { headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 } });
    team = await app.createTeam();
  });
  afterAll(() => app.close());

  it(`answers an API request promptly while ${IDLE} idle sockets are open`, async () => {
    // Both ends of every socket live in this process.
    expect(openFileLimit() ?? Infinity, 'ulimit -n must allow 2 × 2,000 sockets').toBeGreaterThan(
      2 * IDLE + 500,
    );
    const idle: RawClient[] = [];
    for (let i = 0; i < IDLE; i += 100) {
      idle.push(...(await Promise.all(Array.from({ length: 100 }, () => connect(app.url)))));
    }
    const started = Date.now();
    const response = await within(
      10_000,
      app.request('GET', '/api/v1/crons', { key: team.key }),
      'the request',
    );
    expect(response.status).toBe(200);
    expect(Date.now() - started, 'milliseconds to answer').toBeLessThan(5000);
    // The idle sockets were held, not dropped: the last one opened still gets an answer.
    const last = idle[idle.length - 1];
    if (!last) return expect.fail('no idle socket');
    last.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    const { received } = await within(10_000, last.closed, 'the last socket');
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('connection cap', () => {
  const CAP = 20;
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ database: db, http: { maxConnections: CAP } });
  });
  afterAll(() => app.close());

  it('closes connections beyond the cap on arrival, and accepts again once some close', async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => connect(app.url)));
    // Accepted in arrival order, so this one finds the cap reached.
    const extra = await connect(app.url);
    const { received } = await within(5000, extra.closed, 'dropping the extra connection');
    expect(received).toBe('');

    for (const client of held) client.socket.destroy();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await app.request('GET', '/healthz').then(
        (response) => response.status,
        () => 0,
      );
    }
    expect(status).toBe(200);
  });
});
