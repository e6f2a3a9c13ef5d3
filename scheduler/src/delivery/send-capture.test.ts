import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../testing/receiver.js';
import { createSender, type Sender, type WebhookRequest } from './send.js';

let receiver: Receiver;
let sender: Sender;
let endlessClosed: Promise<void> | undefined;

function writeForever(response: ServerResponse): void {
  const chunk = Buffer.alloc(16 * 1024, 0x78);
  endlessClosed = new Promise<void>((resolve) => response.on('close', resolve));
  response.writeHead(200, { 'content-type': 'text/plain' });
  const pump = (): void => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once('drain', pump);
  };
  pump();
}

const request = (path: string): WebhookRequest => ({
  url: `${receiver.url}${path}`,
  method: 'POST',
  headers: null,
  payload: null,
  webhookId: 'evt_capture',
  signingSecrets: [],
});

beforeAll(async () => {
  receiver = await startReceiver((received, response) => {
    switch (received.url) {
      case '/euro':
        response.end(`${'a'.repeat(1022)}€ and more`);
        return;
      case '/emoji':
        response.end(`${'a'.repeat(1021)}😀 and more`);
        return;
      case '/endless':
        writeForever(response);
        return;
      case '/many-headers':
        for (let i = 0; i < 80; i += 1) response.setHeader(`X-Header-${String(i).padStart(2, '0')}`, 'v');
        response.end();
        return;
      case '/big-headers':
        for (let i = 0; i < 12; i += 1) response.setHeader(`x-big-${i}`, 'v'.repeat(1000));
        response.end();
        return;
      default:
        response.setHeader('X-Mixed-Case', 'yes');
        response.setHeader('Via', ['1.1 first', '1.1 second']);
        response.setHeader('Set-Cookie', ['session=secret-token; HttpOnly', 'theme=dark']);
        response.end('fine');
    }
  });
  sender = createSender({
    timeoutMs: 10_000,
    allowPrivateTargets: true,
    allowedHosts: [],
    userAgent: 'test-agent/1',
  });
});

afterAll(async () => {
  await sender.close();
  await receiver.close();
});

describe('send: bounded capture', () => {
  it('records the first 1024 bytes cut before a 3-byte character that straddles byte 1024', async () => {
    const outcome = await sender.send(request('/euro'));
    expect(outcome.body).toBe('a'.repeat(1022));
  });

  it('records the first 1024 bytes cut before a 4-byte character that straddles byte 1024', async () => {
    const outcome = await sender.send(request('/emoji'));
    expect(outcome.body).toBe('a'.repeat(1021));
    expect(outcome.body).not.toContain('\uFFFD');
  });

  it('stops after 64 KiB of an endless response and drops the connection', async () => {
    const started = Date.now();
    const outcome = await sender.send(request('/endless'));
    expect(outcome).toMatchObject({ ok: true, status: 200, error: null, body: 'x'.repeat(1024) });
    expect(Date.now() - started).toBeLessThan(2000);
    // The server sees its socket closed: the sender destroyed it rather than draining the rest.
    await expect(endlessClosed).resolves.toBeUndefined();
  });

  it('keeps the first 50 response headers and drops the rest', async () => {
    const outcome = await sender.send(request('/many-headers'));
    const names = Object.keys(outcome.headers ?? {});
    expect(names).toHaveLength(50);
    expect(names).toContain('x-header-49');
    expect(names).not.toContain('x-header-50');
  });

  it('keeps response headers within 8 KB of names and values and drops the rest', async () => {
    const outcome = await sender.send(request('/big-headers'));
    const entries = Object.entries(outcome.headers ?? {});
    const size = entries.reduce((sum, [name, value]) => sum + name.length + value.length, 0);
    expect(size).toBeLessThanOrEqual(8 * 1024);
    expect(entries.length).toBe(8);
  });

  it('lowercases header names, joins repeated values and redacts set-cookie', async () => {
    const outcome = await sender.send(request('/plain'));
    expect(outcome.headers).toMatchObject({
      'x-mixed-case': 'yes',
      via: '1.1 first, 1.1 second',
      'set-cookie': '[redacted]',
    });
    expect(JSON.stringify(outcome.headers)).not.toContain('secret-token');
  });
});
