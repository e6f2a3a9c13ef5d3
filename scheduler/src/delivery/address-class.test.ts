import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { describeRefusal, embeddedIPv4, parseAddress, refusalOf } from './address-class.js';

function classify(literal: string): string | undefined {
  const address = parseAddress(literal);
  if (address === undefined) throw new Error(`not an address: ${literal}`);
  return refusalOf(address);
}

describe('refusalOf', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.255.254', 'a loopback address'],
    ['10.0.0.1', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT (100.64.0.0/10) address'],
    ['100.127.255.255', 'a carrier-grade NAT (100.64.0.0/10) address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['255.255.255.255', 'a broadcast address'],
    ['240.0.0.1', 'a reserved address'],
    ['192.0.2.10', 'a reserved address'],
    ['198.18.0.1', 'a reserved address'],
    ['::1', 'a loopback address'],
    ['::', 'an unspecified address'],
    ['fe80::1', 'a link-local address'],
    ['fc00::1', 'a unique local (fc00::/7) address'],
    ['fd00:ec2::254', 'a unique local (fc00::/7) address'],
    ['ff02::1', 'a multicast address'],
    ['fec0::1', 'a site-local address'],
    ['2001:db8::1', 'a reserved address'],
    ['::7f00:1', 'an IPv4-compatible (::/96) address'],
    ['::ffff:127.0.0.1', 'embeds 127.0.0.1, a loopback address'],
    ['::ffff:a9fe:a9fe', 'embeds 169.254.169.254, a link-local address'],
    ['::ffff:0:10.0.0.1', 'embeds 10.0.0.1, a private address'],
    ['64:ff9b::127.0.0.1', 'embeds 127.0.0.1, a loopback address'],
    ['64:ff9b::192.168.0.1', 'embeds 192.168.0.1, a private address'],
    ['64:ff9b:1::8.8.8.8', 'a local-use NAT64 address'],
    ['2002:7f00:1::', 'embeds 127.0.0.1, a loopback address'],
    ['2002:a00:1::1', 'embeds 10.0.0.1, a private address'],
    // Teredo: server 65.54.227.120, client 127.0.0.1 stored inverted (0x80ff:0xfffe).
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'embeds 127.0.0.1, a loopback address'],
  ])('refuses %s as %s', (literal, reason) => {
    expect(classify(literal)).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ])('allows the public unicast address %s', (literal) => {
    expect(classify(literal)).toBeUndefined();
  });
});

describe('parseAddress', () => {
  it.each(['example.com', '10', '0x7f.1', '2130706433', '1.2.3', ''])(
    'returns undefined for the non-canonical or non-IP %j',
    (literal) => {
      expect(parseAddress(literal)).toBeUndefined();
    },
  );

  it('parses a bracketed IPv6 literal as a URL hostname has it', () => {
    expect(parseAddress('[::ffff:7f00:1]')?.toString()).toBe('::ffff:7f00:1');
  });
});

describe('embeddedIPv4', () => {
  it('returns the Teredo server and the de-obfuscated client address', () => {
    const address = ipaddr.IPv6.parse('2001:0:4136:e378:8000:63bf:3fff:fdd2');
    expect(embeddedIPv4(address).map(String)).toEqual(['65.54.227.120', '192.0.2.45']);
  });
});

describe('describeRefusal', () => {
  it('names an IPv4 address and its class', () => {
    const address = parseAddress('169.254.169.254');
    expect(address && describeRefusal(address, 'a link-local address')).toBe(
      '169.254.169.254 is a link-local address',
    );
  });

  it('names an IPv6 address in compressed form and the IPv4 address it embeds', () => {
    const address = parseAddress('0:0:0:0:0:ffff:7f00:0001');
    expect(address && describeRefusal(address, 'embeds 127.0.0.1, a loopback address')).toBe(
      '::ffff:7f00:1 embeds 127.0.0.1, a loopback address',
    );
  });
});
