import { describe, expect, it } from 'vitest';
import {
  BodyCapture,
  captureHeaders,
  MAX_BODY_BYTES,
  MAX_HEADER_BYTES,
  MAX_HEADERS,
  MAX_READ_BYTES,
  truncateUtf8,
} from './capture.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('truncateUtf8', () => {
  it.each([
    ['a 2-byte é', 'é', 1023],
    ['a 3-byte €', '€', 1022],
    ['a 4-byte 😀', '😀', 1021],
  ])('cuts before %s whose bytes straddle byte 1024', (_name, character, prefix) => {
    const text = `${'a'.repeat(prefix)}${character}tail`;
    expect(truncateUtf8(bytes(text), 1024)).toBe('a'.repeat(prefix));
  });

  it('keeps a multi-byte character that ends exactly at byte 1024', () => {
    const text = `${'a'.repeat(1021)}€tail`;
    const kept = truncateUtf8(bytes(text), 1024);
    expect(kept).toBe(`${'a'.repeat(1021)}€`);
    expect(Buffer.byteLength(kept)).toBe(1024);
  });

  it('keeps a body of at most 1024 bytes whole', () => {
    expect(truncateUtf8(bytes('héllo'), 1024)).toBe('héllo');
  });

  it.each([
    [
      'a NUL right before the cut',
      Buffer.concat([Buffer.alloc(1023, 0x61), Buffer.from([0]), bytes('tail')]),
    ],
    ['1024 NULs', Buffer.alloc(1024, 0)],
    ['1024 invalid bytes', Buffer.alloc(1024, 0xff)],
    [
      'a lone continuation byte before the cut',
      Buffer.concat([Buffer.alloc(1022, 0x61), Buffer.from([0x80, 0x61])]),
    ],
    [
      'a truncated 4-byte sequence at the end',
      Buffer.concat([Buffer.alloc(1021, 0x61), Buffer.from([0xf0, 0x9f, 0x98])]),
    ],
  ])('keeps at most 1024 bytes of valid UTF-8 without NUL for %s', (_name, body) => {
    const kept = truncateUtf8(body, 1024);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(1024);
    expect(kept).not.toContain('\0');
    expect(Buffer.from(kept, 'utf8').toString('utf8')).toBe(kept);
  });

  it('replaces NUL with U+FFFD', () => {
    expect(truncateUtf8(bytes('a\0b'), 1024)).toBe('a\uFFFDb');
  });

  it('keeps at most 1024 bytes of valid UTF-8 for any bytes', () => {
    // A fixed-seed generator: invalid sequences, NULs and multi-byte characters in every mix.
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const alphabet = [
      0x00, 0x61, 0x7f, 0x80, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff,
    ];
    for (let run = 0; run < 2000; run += 1) {
      const length = 1000 + (next() % 60);
      const body = Buffer.from(Array.from({ length }, () => alphabet[next() % alphabet.length] ?? 0));
      const kept = truncateUtf8(body, MAX_BODY_BYTES);
      expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(MAX_BODY_BYTES);
      expect(kept).not.toContain('\0');
    }
  });
});

describe('BodyCapture', () => {
  it('asks to stop once 64 KiB have been received', () => {
    const capture = new BodyCapture();
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    const answers = [1, 2, 3, 4].map(() => capture.push(chunk));
    expect(answers).toEqual([true, true, true, false]);
    expect(capture.received).toBe(MAX_READ_BYTES);
  });

  it('records the first 1024 bytes across small chunks', () => {
    const capture = new BodyCapture();
    for (let i = 0; i < 300; i += 1) capture.push(bytes('0123456789'));
    expect(capture.text()).toBe('0123456789'.repeat(103).slice(0, MAX_BODY_BYTES));
  });

  it('records an empty body as ""', () => {
    expect(new BodyCapture().text()).toBe('');
  });
});

describe('captureHeaders', () => {
  it('lowercases names, joins repeated values with ", " and redacts set-cookie', () => {
    expect(
      captureHeaders({ 'X-Trace': 'abc', via: ['1.1 a', '1.1 b'], 'set-cookie': ['sid=secret', 'b=2'] }),
    ).toEqual({ 'x-trace': 'abc', via: '1.1 a, 1.1 b', 'set-cookie': '[redacted]' });
  });

  it('keeps the first 50 headers and drops the rest', () => {
    const raw = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`x-h-${i}`, 'v']));
    const kept = captureHeaders(raw);
    expect(Object.keys(kept)).toHaveLength(MAX_HEADERS);
    expect(kept['x-h-49']).toBe('v');
    expect(kept['x-h-50']).toBeUndefined();
  });

  it('drops the headers past 8 KB of names and values', () => {
    const raw = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`x-big-${i}`, 'v'.repeat(1000)]));
    const kept = captureHeaders(raw);
    const total = Object.entries(kept).reduce((sum, [name, value]) => sum + name.length + value.length, 0);
    expect(Object.keys(kept)).toHaveLength(8);
    expect(total).toBeLessThanOrEqual(MAX_HEADER_BYTES);
  });
});
