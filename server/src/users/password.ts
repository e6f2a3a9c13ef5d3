import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { limited } from '@webhook-scheduler/scheduler';

/** scrypt's cost parameters. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/**
 * One of OWASP's scrypt settings (N=2^15, r=8, p=3): 32 MiB per hash, about 0.2 s here. At most
 * `SCRYPT_CONCURRENCY` run at once, so a burst of sign-ins stays within 64 MiB and leaves half of
 * libuv's four threads to everything else (fs, zlib, crypto).
 */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };

const KEY_BYTES = 32;
const SALT_BYTES = 16;
// scrypt$N$r$p$salt$hash: the cost travels with the hash, so it can be raised without a migration.
const STORED = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/** Hashes and checks passwords with scrypt, a memory-hard KDF built into Node.js. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Whether `password` matches the stored hash (false for a malformed one). */
  verify(password: string, stored: string): Promise<boolean>;
  /** Spends the time of a verification and answers false: for emails without an account. */
  verifyNothing(password: string): Promise<false>;
  /** Whether a stored hash was made with another cost than this hasher's. */
  needsRehash(stored: string): boolean;
}

/** Most scrypt computations at once, per process; the others queue. */
export const SCRYPT_CONCURRENCY = 2;

function scryptKey(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Unicode passwords typed on different keyboards must compare equal (NIST SP 800-63B 5.1.1.2).
    const normalized = password.normalize('NFKC');
    const maxmem = 256 * cost.N * cost.r + 1024 * 1024;
    scrypt(normalized, salt, KEY_BYTES, { ...cost, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

function parse(stored: string): { cost: ScryptCost; salt: Buffer; key: Buffer } | undefined {
  const match = STORED.exec(stored);
  if (!match) return undefined;
  const [, n, r, p, salt = '', key = ''] = match;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const sane =
    cost.N >= 2 && cost.N <= 2 ** 20 && (cost.N & (cost.N - 1)) === 0 && cost.r >= 1 && cost.p >= 1;
  return sane ? { cost, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') } : undefined;
}

export function createPasswordHasher(
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
  concurrency = SCRYPT_CONCURRENCY,
): PasswordHasher {
  const slot = limited(concurrency);
  const derive = (password: string, salt: Buffer, usedCost: ScryptCost) =>
    slot(() => scryptKey(password, salt, usedCost));
  const hash = async (password: string) => {
    const salt = randomBytes(SALT_BYTES);
    const key = await derive(password, salt, cost);
    return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64')}$${key.toString('base64')}`;
  };
  const dummy = hash('not a password of anyone');
  const verify = async (password: string, stored: string) => {
    const parsed = parse(stored);
    if (!parsed) return false;
    const key = await derive(password, parsed.salt, parsed.cost);
    return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
  };
  return {
    hash,
    verify,
    verifyNothing: async (password) => {
      await verify(password, await dummy);
      return false;
    },
    needsRehash: (stored) => {
      const parsed = parse(stored);
      return !parsed || parsed.cost.N !== cost.N || parsed.cost.r !== cost.r || parsed.cost.p !== cost.p;
    },
  };
}
