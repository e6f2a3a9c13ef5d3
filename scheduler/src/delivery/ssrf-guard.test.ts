import type { LookupAddress, LookupOptions } from 'node:dns';
import { describe, expect, it, vi } from 'vitest';
import { BLOCKED_TARGET_MESSAGE, BlockedTargetError } from './blocked-target-error.js';
import { createTargetPolicy, guardedConnector, guardedLookup, type ResolveHost } from './ssrf-guard.js';

const strict = createTargetPolicy({ allowPrivateTargets: false, allowedHosts: [] });

interface LookupAnswer {
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family?: number | undefined;
}

function lookupOnce(resolve: ResolveHost, host: string, options: LookupOptions): Promise<LookupAnswer> {
  const lookup = guardedLookup(strict, resolve);
  return new Promise((done) => {
    lookup(host, options, (error, address, family) => {
      done({ error, address, family });
    });
  });
}

describe('createTargetPolicy', () => {
  it('refuses a private address and says how to allow it', () => {
    expect(strict.refusal('db.internal', '10.1.2.3')).toBe('10.1.2.3 is a private address');
  });

  it('allows a public address whatever the allow-list says', () => {
    expect(strict.refusal('example.com', '93.184.216.34')).toBeUndefined();
  });

  it('allows every address when allowPrivateTargets is true', () => {
    const policy = createTargetPolicy({ allowPrivateTargets: true, allowedHosts: [] });
    expect(policy.refusal('localhost', '127.0.0.1')).toBeUndefined();
    expect(policy.refusal('metadata', '169.254.169.254')).toBeUndefined();
  });

  it('allows a listed hostname case-insensitively and ignores a trailing dot', () => {
    const policy = createTargetPolicy({ allowPrivateTargets: false, allowedHosts: [' Hooks.Internal. '] });
    expect(policy.refusal('hooks.internal', '10.0.0.5')).toBeUndefined();
    expect(policy.refusal('HOOKS.INTERNAL.', '10.0.0.5')).toBeUndefined();
    expect(policy.refusal('other.internal', '10.0.0.5')).toBe('10.0.0.5 is a private address');
  });

  it('allows subdomains for a *.suffix entry but not the bare suffix', () => {
    const policy = createTargetPolicy({ allowPrivateTargets: false, allowedHosts: ['*.corp.example'] });
    expect(policy.refusal('a.b.corp.example', '10.0.0.5')).toBeUndefined();
    expect(policy.refusal('corp.example', '10.0.0.5')).toBe('10.0.0.5 is a private address');
    expect(policy.refusal('evilcorp.example', '10.0.0.5')).toBe('10.0.0.5 is a private address');
  });

  it('allows addresses inside a listed IP or CIDR, IPv4-mapped forms included', () => {
    const policy = createTargetPolicy({
      allowPrivateTargets: false,
      allowedHosts: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '[::1]'],
    });
    expect(policy.refusal('x', '10.200.0.1')).toBeUndefined();
    expect(policy.refusal('x', '::ffff:10.200.0.1')).toBeUndefined();
    expect(policy.refusal('x', '192.168.1.7')).toBeUndefined();
    expect(policy.refusal('x', 'fd00:ec2::254')).toBeUndefined();
    expect(policy.refusal('x', '::1')).toBeUndefined();
    expect(policy.refusal('x', '192.168.1.8')).toBe('192.168.1.8 is a private address');
    expect(policy.refusal('x', '127.0.0.1')).toBe('127.0.0.1 is a loopback address');
  });

  it('throws on an allow-list entry that is not a valid CIDR', () => {
    expect(() => createTargetPolicy({ allowPrivateTargets: false, allowedHosts: ['10.0.0.0/33'] })).toThrow(
      /not a valid CIDR/,
    );
  });
});

describe('guardedLookup', () => {
  it('pins each connection to the address it checked when DNS answers public first and loopback afterwards', async () => {
    const answers = ['93.184.216.34', '127.0.0.1'];
    const resolve = vi.fn<ResolveHost>(() =>
      Promise.resolve([{ address: answers.shift() ?? '127.0.0.1', family: 4 }]),
    );
    const first = await lookupOnce(resolve, 'rebind.example', { all: true });
    const second = await lookupOnce(resolve, 'rebind.example', { all: true });
    expect(first).toEqual({
      error: null,
      address: [{ address: '93.184.216.34', family: 4 }],
      family: undefined,
    });
    expect(second.error).toBeInstanceOf(BlockedTargetError);
    expect(second.error?.message).toBe(BLOCKED_TARGET_MESSAGE);
    // One resolution per connection: nothing is resolved again between the check and the connect.
    expect(resolve).toHaveBeenCalledTimes(2);
  });

  it('refuses a name whose every address is refused, naming the first', async () => {
    const resolve: ResolveHost = () =>
      Promise.resolve([
        { address: '169.254.169.254', family: 4 },
        { address: 'fd00:ec2::254', family: 6 },
      ]);
    const answer = await lookupOnce(resolve, 'metadata.example', { all: true });
    expect(answer.error?.message).toBe(BLOCKED_TARGET_MESSAGE);
  });

  it('drops refused addresses from a mixed answer and connects only to the public ones', async () => {
    const resolve: ResolveHost = () =>
      Promise.resolve([
        { address: '127.0.0.1', family: 4 },
        { address: '93.184.216.34', family: 4 },
      ]);
    const answer = await lookupOnce(resolve, 'mixed.example', { all: true });
    expect(answer).toEqual({
      error: null,
      address: [{ address: '93.184.216.34', family: 4 }],
      family: undefined,
    });
  });

  it('answers one address and its family when net asks for a single one of a family', async () => {
    const resolve: ResolveHost = () =>
      Promise.resolve([
        { address: '2606:4700:4700::1111', family: 6 },
        { address: '1.1.1.1', family: 4 },
      ]);
    const answer = await lookupOnce(resolve, 'dual.example', { family: 4 });
    expect(answer).toEqual({ error: null, address: '1.1.1.1', family: 4 });
  });

  it('fails with ENOTFOUND when the name has no address', async () => {
    const answer = await lookupOnce(() => Promise.resolve([]), 'nope.invalid', { all: true });
    expect(answer.error?.code).toBe('ENOTFOUND');
  });

  it('passes a resolver error through unchanged', async () => {
    const failure = Object.assign(new Error('queryA ESERVFAIL x'), { code: 'ESERVFAIL' });
    const answer = await lookupOnce(() => Promise.reject(failure), 'x.example', { all: true });
    expect(answer.error).toBe(failure);
  });
});

describe('guardedConnector', () => {
  it('refuses an IP-literal target without resolving or connecting', async () => {
    const resolve = vi.fn<ResolveHost>(() => Promise.resolve([]));
    const connect = guardedConnector(strict, resolve, 1000);
    const error = await new Promise<Error | null>((done) => {
      connect({ hostname: '[::1]', host: '[::1]:9', protocol: 'http:', port: '9' }, (...args) => {
        done(args[0]);
      });
    });
    expect(error).toBeInstanceOf(BlockedTargetError);
    expect(error?.message).toBe(BLOCKED_TARGET_MESSAGE);
    expect(resolve).not.toHaveBeenCalled();
  });
});
