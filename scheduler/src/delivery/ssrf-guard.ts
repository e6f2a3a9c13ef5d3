import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { buildConnector } from 'undici';
import { describeRefusal, parseAddress, refusalOf, type ParsedAddress } from './address-class.js';
import { BlockedTargetError } from './blocked-target-error.js';

/** Resolves a hostname to every address it has (the test seam of the sender). */
export type ResolveHost = (host: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** Who may be called besides public unicast addresses. */
export interface TargetPolicyOptions {
  /** Allow every address (`WEBHOOK_ALLOW_PRIVATE_TARGETS=true`). */
  allowPrivateTargets: boolean;
  /** Hostnames (`*.example.com` allowed), IPs or CIDRs whose private addresses may be called. */
  allowedHosts: readonly string[];
}

/** Decides, per hostname and the address it resolved to, whether a connection may be made. */
export interface TargetPolicy {
  /** Why `address` (resolved from `hostname`) must not be connected to, or undefined when allowed. */
  refusal(hostname: string, address: string): string | undefined;
}

const unbracket = (host: string): string =>
  host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
const canonicalName = (host: string): string => unbracket(host.toLowerCase()).replace(/\.$/, '');
const asIPv4IfMapped = (address: ParsedAddress): ParsedAddress =>
  address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() ? address.toIPv4Address() : address;

/** Parses the allow-list once; throws on an entry that is neither a hostname, an IP nor a CIDR. */
export function createTargetPolicy(options: TargetPolicyOptions): TargetPolicy {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const ranges: [ParsedAddress, number][] = [];
  for (const entry of options.allowedHosts) {
    const name = canonicalName(entry.trim());
    if (name === '') continue;
    if (name.includes('/')) {
      if (!ipaddr.isValidCIDR(name)) throw new Error(`WEBHOOK_ALLOWED_HOSTS: "${entry}" is not a valid CIDR`);
      const [network, bits] = ipaddr.parseCIDR(name);
      ranges.push([network, bits]);
    } else if (isIP(name) !== 0) {
      const address = ipaddr.parse(name);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (name.startsWith('*.')) {
      suffixes.push(name.slice(1));
    } else {
      names.add(name);
    }
  }
  const nameAllowed = (hostname: string): boolean => {
    const name = canonicalName(hostname);
    return names.has(name) || suffixes.some((suffix) => name.endsWith(suffix));
  };
  const addressAllowed = (address: ParsedAddress): boolean => {
    const plain = asIPv4IfMapped(address);
    return ranges.some(([network, bits]) => network.kind() === plain.kind() && plain.match(network, bits));
  };
  return {
    refusal(hostname, address) {
      if (options.allowPrivateTargets) return undefined;
      const parsed = parseAddress(address);
      if (parsed === undefined) return `${address} is not an IP address`;
      const refusal = refusalOf(parsed);
      if (refusal === undefined || nameAllowed(hostname) || addressAllowed(parsed)) return undefined;
      return describeRefusal(parsed, refusal);
    },
  };
}

/**
 * A `net` lookup that resolves and checks in one step, so the address that passed the check is the
 * address the socket connects to (no DNS-rebinding window). Refused addresses are dropped; a host
 * left with none is refused.
 */
export function guardedLookup(policy: TargetPolicy, resolve: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (records) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const wanted = family === 4 || family === 6 ? records.filter((r) => r.family === family) : records;
        let refusal: string | undefined;
        const usable = wanted.filter(({ address }) => {
          const reason = policy.refusal(hostname, address);
          refusal ??= reason;
          return reason === undefined;
        });
        const [first] = usable;
        if (first === undefined) {
          const error =
            refusal === undefined
              ? Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname })
              : new BlockedTargetError();
          callback(error, '');
          return;
        }
        if (options.all === true) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), '');
      },
    );
  };
}

/**
 * An undici connector that refuses IP-literal targets up front (`net` skips `lookup` for them) and
 * resolves hostnames through {@link guardedLookup}. Runs once per new connection, not per request.
 */
export function guardedConnector(
  policy: TargetPolicy,
  resolve: ResolveHost,
  timeoutMs: number,
): buildConnector.connector {
  // Only `lookup` changes: `host`/`servername` stay the hostname, so TLS SNI and certificate
  // verification still use the name, not the pinned address.
  const connect = buildConnector({
    allowH2: false,
    timeout: timeoutMs,
    lookup: guardedLookup(policy, resolve),
  });
  return (options, callback) => {
    const host = unbracket(options.hostname);
    const refusal = isIP(host) === 0 ? undefined : policy.refusal(host, host);
    if (refusal === undefined) {
      connect(options, callback);
      return;
    }
    // undici expects the callback asynchronously, as a real connect would call it.
    const error = new BlockedTargetError();
    queueMicrotask(() => {
      callback(error, null);
    });
  };
}

/** Why a `WEBHOOK_ALLOWED_HOSTS` list cannot be used, or undefined when it can (checked at start-up). */
export function allowedHostsProblem(allowedHosts: string[]): string | undefined {
  try {
    createTargetPolicy({ allowPrivateTargets: false, allowedHosts });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
