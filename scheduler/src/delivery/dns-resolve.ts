import { Resolver, lookup } from 'node:dns/promises';
import type { ResolveHost } from './ssrf-guard.js';

/** How the sender resolves hostnames. */
export interface DnsResolveOptions {
  /** One DNS query's timeout; c-ares tries twice. Default 2 000 ms. */
  timeoutMs?: number;
  /** Most `getaddrinfo` fallbacks (names only /etc/hosts knows) at once. Default 1. */
  maxSystemLookups?: number;
  /** DNS servers (`ip` or `ip:port`) instead of the system's. */
  servers?: string[];
}

const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'ENONAME', 'NOTFOUND', 'NODATA']);

function isNoRecord(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && NO_RECORD.has(String((error as { code?: unknown }).code))
  );
}

/**
 * Resolves webhook hostnames with c-ares (`dns.Resolver`): its own sockets and its own timeout,
 * not libuv's four-thread pool that `dns.lookup` (getaddrinfo) shares with scrypt, fs and zlib.
 * Without this, a burst of sign-ins (scrypt) or a slow DNS server stalls every team's deliveries.
 *
 * `localhost` names answer loopback (RFC 6761) without a query. A name DNS does not know (one only
 * /etc/hosts has, say) falls back to `dns.lookup`, at most `maxSystemLookups` at once, so those
 * lookups never hold more than that many pool threads.
 */
export function createDnsResolve(options: DnsResolveOptions = {}): ResolveHost {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: 2 });
  if (options.servers) resolver.setServers(options.servers);
  const fallback = limited(options.maxSystemLookups ?? 1);
  return async (host) => {
    const name = host.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) {
      return [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
    }
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
    const records = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (records.length > 0) return records;
    const failures = [v4, v6].flatMap((result): unknown[] =>
      result.status === 'rejected' ? [result.reason as unknown] : [],
    );
    const other = failures.find((reason) => !isNoRecord(reason));
    // A timeout or a refused query is the answer: only "no such record" tries the system resolver.
    if (other !== undefined) throw other instanceof Error ? other : new Error('DNS resolution failed');
    return fallback(async () =>
      (await lookup(name, { all: true })).map(({ address, family }) => ({
        address,
        family: family === 6 ? (6 as const) : (4 as const),
      })),
    );
  };
}

/** Runs at most `max` of the given tasks at once, the rest in order as places free up. */
export function limited(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}
