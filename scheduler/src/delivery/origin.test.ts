import { WebhookUrl } from '@webhook-scheduler/contract';
import { describe, expect, it } from 'vitest';
import { NO_ORIGIN, webhookOrigin, webhookTarget } from './origin.js';

/** Spellings of one origin, by the URL standard: each must count as that origin and nothing else. */
const ALIASES: [kind: string, origin: string, spellings: string[]][] = [
  [
    'port padding',
    'http://127.0.0.1:8080',
    ['http://127.0.0.1:8080/hook', 'http://127.0.0.1:08080/hook', 'http://127.0.0.1:008080/hook'],
  ],
  [
    'default port written out',
    'https://example.com',
    ['https://example.com/', 'https://example.com:443/', 'https://example.com:0443/hook?x=1#top'],
  ],
  [
    'default http port written out',
    'http://example.com',
    ['http://example.com:80/a', 'http://example.com:080'],
  ],
  [
    'trailing dot',
    'https://example.com',
    ['https://example.com./hook', 'https://example.com../hook', 'https://example.com%2E/hook'],
  ],
  ['case', 'https://example.com', ['HTTPS://Example.COM/Hook', 'hTTps://EXAMPLE.com:443']],
  [
    'percent-encoded host',
    'http://example.com:8080',
    ['http://ex%61mple.com:8080/', 'http://EXAMPLE%2ECOM:8080/', 'http://%65xample.com:8080'],
  ],
  ['percent-encoded address', 'http://127.0.0.1:8080', ['http://%31%32%37.0.0.1:8080/']],
  // A backslash ends the host of an http(s) URL: what follows is the path, not user info.
  ['backslash', 'http://a.example', ['http://a.example\\@b.example/', 'http://a.example\\b.example/']],
  [
    'user info',
    'https://b.example',
    [
      'https://user:secret@b.example/hook',
      'https://a.example@b.example/',
      'https://a.example:1@b.example:443',
    ],
  ],
  [
    'IPv4 spellings',
    'http://127.0.0.1:3000',
    [
      'http://127.0.0.1:3000',
      'http://0x7f.1:3000',
      'http://2130706433:3000',
      'http://127.1:3000',
      'http://0177.0.0.1:3000',
      'http://0x7F000001:3000',
      'http://127.0.0.1.:3000',
      'http://0x7f.1..:3000',
      'http://１２７.0.0.1:3000',
    ],
  ],
  [
    'IPv6 forms',
    'http://[::1]:3000',
    ['http://[0:0:0:0:0:0:0:1]:3000', 'http://[::1]:3000', 'http://[0::0:1]:3000', 'http://[::0001]:3000'],
  ],
  [
    'IPv4-mapped IPv6 forms',
    'http://[::ffff:7f00:1]',
    ['http://[::ffff:127.0.0.1]/', 'http://[::FFFF:7F00:1]:80/', 'http://[0:0:0:0:0:ffff:127.0.0.1]'],
  ],
  [
    'IDN',
    'https://xn--bcher-kva.example',
    [
      'https://bücher.example/',
      'https://BÜCHER.example:443/',
      'https://xn--bcher-kva.example./',
      'https://b%C3%BCcher.example',
    ],
  ],
];

const spellings = ALIASES.flatMap(([kind, origin, urls]) => urls.map((url) => [kind, url, origin] as const));

describe('webhookOrigin', () => {
  it.each(spellings)('counts a %s alias, %s, as %s', (_, url, origin) => {
    expect(webhookOrigin(url)).toBe(origin);
  });

  it.each(ALIASES.map(([, origin]) => origin))('gives %s back for %s itself', (origin) => {
    expect(webhookOrigin(origin)).toBe(origin);
    expect(new URL(origin).origin).toBe(origin);
  });

  it.each([
    ['another scheme', 'http://example.com', 'https://example.com'],
    ['another port', 'https://example.com', 'https://example.com:80'],
    ['another host', 'http://a.example', 'http://b.example'],
    ['an IPv4 address and its IPv6 mapping', 'http://127.0.0.1', 'http://[::ffff:127.0.0.1]'],
    ['a name and a subdomain of it', 'http://example.com', 'http://www.example.com'],
  ])('keeps %s apart', (_, one, other) => {
    expect(webhookOrigin(one)).not.toBe(webhookOrigin(other));
  });

  it.each([
    ['no URL', 'not a url'],
    ['a relative URL', '/hooks/1'],
    ['another scheme', 'ftp://example.com/file'],
    ['a file URL', 'file:///etc/passwd'],
    ['a host of dots', 'http://../hook'],
    ['a host that ends in a number once its dots go', 'http://a.1../hook'],
  ])('has no origin for %s (%s)', (_, url) => {
    expect(webhookOrigin(url)).toBe(NO_ORIGIN);
    expect(webhookTarget(url)).toEqual({ problem: expect.any(String) });
  });
});

describe('webhookTarget', () => {
  it.each([
    ['http://a.example\\@b.example/x?y=1#z', { hostname: 'a.example', port: 80, path: '/@b.example/x?y=1' }],
    ['https://user:pw@Example.COM./hook', { hostname: 'example.com', port: 443, path: '/hook' }],
    ['http://[0:0:0:0:0:0:0:1]:0080?q', { hostname: '[::1]', port: 80, path: '/?q' }],
    ['https://bücher.example:8443', { hostname: 'xn--bcher-kva.example', port: 8443, path: '/' }],
  ])('of %s connects to %o', (url, expected) => {
    expect(webhookTarget(url)).toEqual({ origin: webhookOrigin(url), ...expected });
  });

  // The API's check and the sender agree: whatever is accepted has an origin calls can go to.
  it.each([
    ...spellings.map(([, url]) => url),
    'http://../hook',
    'http://a.1../hook',
    'http://./',
    'https://',
    'ftp://example.com',
    'http://example.com:65536',
  ])('has an origin for %s exactly when the API accepts it', (url) => {
    expect('origin' in webhookTarget(url)).toBe(WebhookUrl.safeParse(url).success);
  });
});
