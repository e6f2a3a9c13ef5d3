import { lookup } from 'node:dns/promises';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { limited } from '@webhook-scheduler/scheduler';
import { DEFAULT_SCRYPT_COST, createPasswordHasher } from './password.js';

const cheap = createPasswordHasher({ N: 1024, r: 8, p: 1 });

describe('createPasswordHasher', () => {
  it('verifies the password a hash was made from and refuses any other', async () => {
    const stored = await cheap.hash('correct horse battery staple');
    expect(await cheap.verify('correct horse battery staple', stored)).toBe(true);
    expect(await cheap.verify('correct horse battery stapl', stored)).toBe(false);
    expect(await cheap.verify('', stored)).toBe(false);
  });

  it('stores the cost, a salt and the key, never the password', async () => {
    const stored = await cheap.hash('s3cret-password');
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(stored).not.toContain('s3cret');
  });

  it('salts every hash, so equal passwords hash differently', async () => {
    expect(await cheap.hash('same password')).not.toBe(await cheap.hash('same password'));
  });

  it('compares Unicode passwords after NFKC normalization', async () => {
    const composed = await cheap.hash('caf\u00e9 au lait');
    expect(await cheap.verify('cafe\u0301 au lait', composed)).toBe(true);
  });

  it('verifies a hash made with another cost and says it needs a rehash', async () => {
    const stronger = createPasswordHasher({ N: 2048, r: 8, p: 1 });
    const stored = await cheap.hash('rehash me please');
    expect(await stronger.verify('rehash me please', stored)).toBe(true);
    expect(stronger.needsRehash(stored)).toBe(true);
    expect(cheap.needsRehash(stored)).toBe(false);
  });

  it.each(['', 'plain', 'scrypt$3$8$1$AAAA$AAAA', 'scrypt$1024$8$1$!!$AAAA', 'bcrypt$2b$10$abc'])(
    'answers false for the malformed stored hash %j',
    async (stored) => {
      expect(await cheap.verify('anything', stored)).toBe(false);
      expect(cheap.needsRehash(stored)).toBe(true);
    },
  );

  it('answers false from verifyNothing', async () => {
    expect(await cheap.verifyNothing('whatever')).toBe(false);
  });

  it('defaults to an OWASP scrypt cost of at least 32 MiB', () => {
    const { N, r, p } = DEFAULT_SCRYPT_COST;
    expect(128 * N * r).toBeGreaterThanOrEqual(32 * 1024 * 1024);
    expect(N * p).toBeGreaterThanOrEqual(2 ** 15 * 3);
  });
});

describe('password hashing concurrency', () => {
  it('leaves libuv threads free during a burst of sign-ins: a getaddrinfo lookup is not held up', async () => {
    const hasher = createPasswordHasher();
    const burst = Array.from({ length: 8 }, (_, i) => hasher.hash(`password ${i}`));
    // While the burst runs, work that needs the same thread pool (getaddrinfo, fs) still gets a thread.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    await lookup('localhost');
    await readFile(new URL(import.meta.url));
    const waited = performance.now() - started;
    const hashStarted = performance.now();
    await Promise.all(burst);
    const burstLeft = performance.now() - hashStarted;
    expect(burstLeft).toBeGreaterThan(100);
    expect(waited).toBeLessThan(burstLeft / 2);
  });
});

describe('limited', () => {
  it('runs at most the given number of tasks at once', async () => {
    const run = limited(2);
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        run(async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(2);
  });
});
