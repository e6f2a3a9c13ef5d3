import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

const IPV4_NOUNS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (100.64.0.0/10) address',
  private: 'a private address',
  reserved: 'a reserved address',
};

const IPV6_NOUNS: Record<string, string> = {
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  uniqueLocal: 'a unique local (fc00::/7) address',
  deprecatedSiteLocal: 'a site-local address',
  reserved: 'a reserved address',
};

/** An IP address that is allowed or refused as the target of an outbound call, parsed once. */
export type ParsedAddress = IPv4 | IPv6;

/** Parses an IP literal (brackets allowed), or undefined when it is not one. */
export function parseAddress(literal: string): ParsedAddress | undefined {
  const bare = literal.startsWith('[') && literal.endsWith(']') ? literal.slice(1, -1) : literal;
  // ipaddr also accepts "10" or "0x7f.1" as IPv4; only canonical forms are addresses here.
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare) && !ipaddr.IPv6.isValid(bare)) return undefined;
  return ipaddr.parse(bare);
}

/** The IPv4 address an IPv6 address stands for (mapped, NAT64, 6to4, Teredo client), if any. */
export function embeddedIPv4(address: IPv6): IPv4[] {
  const p = address.parts;
  const v4 = (high = 0, low = 0): IPv4 => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return [v4(p[6], p[7])];
  if (range === '6to4') return [v4(p[1], p[2])];
  // Teredo: server IPv4 in bits 32..63, client IPv4 obfuscated (inverted) in bits 96..127.
  if (range === 'teredo') return [v4(p[2], p[3]), v4(~(p[6] ?? 0) & 0xffff, ~(p[7] ?? 0) & 0xffff)];
  return [];
}

function ipv4Refusal(address: IPv4): string | undefined {
  const range = address.range();
  if (range === 'unicast') return undefined;
  return IPV4_NOUNS[range] ?? `a special-purpose (${range}) address`;
}

/**
 * Why an address must not be called (e.g. "a loopback address"), or undefined for public unicast.
 * IPv6 forms that embed an IPv4 address are judged by the embedded address.
 */
export function refusalOf(address: ParsedAddress): string | undefined {
  if (address instanceof ipaddr.IPv4) return ipv4Refusal(address);
  const range = address.range();
  const embedded = embeddedIPv4(address);
  if (embedded.length > 0) {
    // RFC 8215's local-use NAT64 prefix (64:ff9b:1::/48) places the IPv4 address elsewhere.
    if (range === 'rfc6052' && address.parts[2] !== 0) return 'a local-use NAT64 address';
    for (const inner of embedded) {
      const refusal = ipv4Refusal(inner);
      if (refusal !== undefined) return `embeds ${inner.toString()}, ${refusal}`;
    }
    return undefined;
  }
  if (range !== 'unicast') return IPV6_NOUNS[range] ?? `a special-purpose (${range}) address`;
  // ::a.b.c.d (deprecated IPv4-compatible) is "unicast" to ipaddr but never a public target.
  if (address.parts.slice(0, 6).every((part) => part === 0)) return 'an IPv4-compatible (::/96) address';
  return undefined;
}

/** Formats a refusal as "<address> is <noun>" or "<address> embeds …". */
export function describeRefusal(address: ParsedAddress, refusal: string): string {
  const text = address instanceof ipaddr.IPv6 ? address.toRFC5952String() : address.toString();
  return refusal.startsWith('embeds ') ? `${text} ${refusal}` : `${text} is ${refusal}`;
}
