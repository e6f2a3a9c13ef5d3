import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { createDnsResolve, limited } from './dns-resolve.js';

describe('createDnsResolve', () => {
  it('answers localhost names with loopback without a query', async () => {
    const resolve = createDnsResolve();
    for (const name of ['localhost', 'LOCALHOST.', 'api.localhost']) {
      expect(await resolve(name)).toEqual([
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]);
    }
  });

  it('gives up on a DNS server that never answers after its own timeout, with ETIMEOUT', async () => {
    // A UDP socket on loopback that reads queries and never answers.
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const resolve = createDnsResolve({ timeoutMs: 200, servers: [`127.0.0.1:${silent.address().port}`] });
      const started = Date.now();
      const answer = await resolve('hooks.example.test').catch((e: unknown) => e);
      expect(answer).toMatchObject({ code: 'ETIMEOUT' });
      // Two tries of 200 ms (c-ares doubles the second), far below a webhook's 30 s.
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      silent.close();
    }
  });

  it('answers from a DNS server with the A and AAAA records, on c-ares’ own sockets', async () => {
    const server = fakeDnsServer({ A: ['192.0.2.10'], AAAA: ['2001:db8::10'] });
    const port = await server.listening;
    try {
      const resolve = createDnsResolve({ servers: [`127.0.0.1:${port}`] });
      expect(await resolve('hooks.example.test')).toEqual([
        { address: '192.0.2.10', family: 4 },
        { address: '2001:db8::10', family: 6 },
      ]);
    } finally {
      server.close();
    }
  });
});

/** A minimal DNS server on loopback: answers every A and AAAA question with the given records. */
function fakeDnsServer(records: { A: string[]; AAAA: string[] }) {
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    // Header (12 bytes), then the question: labels up to a zero byte, QTYPE, QCLASS.
    let end = 12;
    while (query[end] !== 0) end += (query[end] ?? 0) + 1;
    const question = query.subarray(12, end + 5);
    const type = query.readUInt16BE(end + 1);
    const addresses = type === 1 ? records.A : type === 28 ? records.AAAA : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8180, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(addresses.length, 6);
    const answers = addresses.map((address) => {
      const data = type === 1 ? Buffer.from(address.split('.').map(Number)) : ipv6Bytes(address);
      const answer = Buffer.alloc(12);
      answer.writeUInt16BE(0xc00c, 0);
      answer.writeUInt16BE(type, 2);
      answer.writeUInt16BE(1, 4);
      answer.writeUInt32BE(60, 6);
      answer.writeUInt16BE(data.length, 10);
      return Buffer.concat([answer, data]);
    });
    socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address);
  });
  const listening = new Promise<number>((resolve) =>
    socket.bind(0, '127.0.0.1', () => resolve(socket.address().port)),
  );
  return { listening, close: () => socket.close() };
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const bytes = Buffer.alloc(16);
  groups.forEach((group, i) => bytes.writeUInt16BE(parseInt(group, 16), i * 2));
  return bytes;
}

describe('limited', () => {
  it('runs at most the given number of tasks at once, the rest in order', async () => {
    const run = limited(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        run(async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 10));
          order.push(i);
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order).toHaveLength(6);
  });
});
