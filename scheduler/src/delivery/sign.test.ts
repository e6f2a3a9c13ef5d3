import { describe, expect, it } from 'vitest';
import { verifiesSignature } from '../testing/verify-signature.js';
import { signingKey, webhookSignature } from './sign.js';

const secretA = `whsec_${Buffer.from('first signing key, 24 b.').toString('base64')}`;
const secretB = `whsec_${Buffer.from('second signing key 24 b.').toString('base64')}`;

describe('webhookSignature', () => {
  it('matches the Standard Webhooks reference vector', () => {
    expect(
      webhookSignature(
        ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('produces a signature an independent verifier accepts for the same id, timestamp and body', () => {
    const header = webhookSignature([secretA], 'evt_1', 1700000000, '{"a":1}') ?? '';
    expect(verifiesSignature(secretA, 'evt_1', 1700000000, '{"a":1}', header)).toBe(true);
  });

  it('produces a signature the verifier rejects when the body, id or timestamp differ', () => {
    const header = webhookSignature([secretA], 'evt_1', 1700000000, '{"a":1}') ?? '';
    expect(verifiesSignature(secretA, 'evt_1', 1700000000, '{"a":2}', header)).toBe(false);
    expect(verifiesSignature(secretA, 'evt_2', 1700000000, '{"a":1}', header)).toBe(false);
    expect(verifiesSignature(secretA, 'evt_1', 1700000001, '{"a":1}', header)).toBe(false);
    expect(verifiesSignature(secretB, 'evt_1', 1700000000, '{"a":1}', header)).toBe(false);
  });

  it('gives two space-separated signatures, one per secret, during a rotation', () => {
    const header = webhookSignature([secretA, secretB], 'evt_1', 1700000000, '') ?? '';
    const parts = header.split(' ');
    expect(parts).toHaveLength(2);
    expect(verifiesSignature(secretA, 'evt_1', 1700000000, '', parts[0] ?? '')).toBe(true);
    expect(verifiesSignature(secretB, 'evt_1', 1700000000, '', parts[1] ?? '')).toBe(true);
  });

  it('returns undefined without secrets', () => {
    expect(webhookSignature([], 'evt_1', 1700000000, '{}')).toBeUndefined();
  });
});

describe('signingKey', () => {
  it('decodes the base64 after the whsec_ prefix, or the whole secret without one', () => {
    expect(signingKey('whsec_AQID')).toEqual(Buffer.from([1, 2, 3]));
    expect(signingKey('AQID')).toEqual(Buffer.from([1, 2, 3]));
  });

  it('throws when a secret decodes to an empty key', () => {
    expect(() => signingKey('whsec_')).toThrow(/empty key/);
  });
});
