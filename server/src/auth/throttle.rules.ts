import { isIP } from 'node:net';
/** How many attempts a key (an email, a client address) may make per fixed window. */
export interface ThrottleLimit {
  hits: number;
  windowMs: number;
}

/** The limits on unauthenticated dashboard requests, each counted across every API process. */
export interface AuthLimits {
  signInPerEmail: ThrottleLimit;
  signInPerAddress: ThrottleLimit;
  signUpPerAddress: ThrottleLimit;
}

const MINUTE = 60_000;

/**
 * Ten guesses per account per quarter hour stops online guessing of a password without locking
 * its owner out for long; the per-address limits stop one client from trying many accounts or
 * creating them in bulk (every attempt costs a 32 MiB scrypt).
 */
export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  signInPerEmail: { hits: 10, windowMs: 15 * MINUTE },
  signInPerAddress: { hits: 100, windowMs: 15 * MINUTE },
  signUpPerAddress: { hits: 20, windowMs: 60 * MINUTE },
};

/** A counter after one more hit. */
export interface ThrottleCount {
  hits: number;
  windowStartedAt: Date;
}

/** Seconds until the window reopens when the hit went over the limit; undefined when it is allowed. */
export function retryAfterSeconds(count: ThrottleCount, limit: ThrottleLimit, now: Date): number | undefined {
  if (count.hits <= limit.hits) return undefined;
  const reopensAt = count.windowStartedAt.getTime() + limit.windowMs;
  return Math.max(1, Math.ceil((reopensAt - now.getTime()) / 1000));
}

/** "Try again in 3 minutes": a wait people read, rounded up. */
export function waitMessage(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * The address a sign-in limit counts a client by: an IPv4 address as is (an IPv4-mapped IPv6 one
 * too), an IPv6 address by its /64, which one subscriber usually holds whole and can walk through.
 */
export function throttledAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIP(address) !== 6) return address;
  const groups = expandIPv6(address.split('%')[0] ?? address);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  // A trailing dotted IPv4 part is two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...(tail === undefined ? [] : zeros), ...right].map((group) =>
    group.replace(/^0+(?=.)/, ''),
  );
}
