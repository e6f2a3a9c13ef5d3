import { describe, expect, it } from 'vitest';
import {
  CIRCUIT_COOLDOWN,
  type DestinationHealth,
  HEALTHY,
  type RecordedCall,
  isDown,
  recordCalls,
} from './circuit.rules.js';

const settings = { failures: 3, ...CIRCUIT_COOLDOWN };
const now = new Date('2026-11-26T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
let n = 0;
const call = (responseStatus: number | null, overrides: Partial<RecordedCall> = {}): RecordedCall => ({
  eventId: `e${++n}`,
  executedAt: now,
  ok: responseStatus !== null && responseStatus < 300,
  responseStatus,
  retryAfter: null,
  ...overrides,
});

describe('isDown', () => {
  it.each([
    [null, true],
    [500, true],
    [503, true],
    [404, false],
    [429, false],
    [200, false],
  ])('counts a call answered %s as a failure of the origin: %s', (status, down) => {
    expect(isDown(call(status))).toBe(down);
  });
});

describe('recordCalls', () => {
  it('counts consecutive failures and opens the circuit for 30 s at the threshold, once', () => {
    const two = recordCalls(HEALTHY, [call(500), call(null)], now, settings);
    expect(two).toEqual({ health: { ...HEALTHY, consecutiveFailures: 2 }, transition: null });
    const three = recordCalls(two.health, [call(502), call(500)], now, settings);
    expect(three.transition).toBe('opened');
    expect(three.health).toMatchObject({
      circuit: 'open',
      consecutiveFailures: 4,
      cooldownMs: 30_000,
      openUntil: later(30_000),
    });
  });

  it('resets the streak on a success or a 4xx in between', () => {
    expect(
      recordCalls(HEALTHY, [call(500), call(500), call(200), call(500)], now, settings).health,
    ).toMatchObject({
      circuit: 'closed',
      consecutiveFailures: 1,
    });
    expect(
      recordCalls({ ...HEALTHY, consecutiveFailures: 2 }, [call(404)], now, settings).health
        .consecutiveFailures,
    ).toBe(0);
  });

  const halfOpen: DestinationHealth = {
    ...HEALTHY,
    circuit: 'half_open',
    consecutiveFailures: 3,
    cooldownMs: 30_000,
    probeEventId: 'probe',
  };

  it('closes the circuit when the probe succeeds', () => {
    expect(recordCalls(halfOpen, [call(200, { eventId: 'probe' })], now, settings)).toEqual({
      health: HEALTHY,
      transition: 'closed',
    });
  });

  it('opens it again for twice as long when the probe fails, up to an hour, without a second alert', () => {
    const failed = recordCalls(halfOpen, [call(null, { eventId: 'probe' })], now, settings);
    expect(failed.transition).toBeNull();
    expect(failed.health).toMatchObject({
      circuit: 'open',
      cooldownMs: 60_000,
      openUntil: later(60_000),
      probeEventId: null,
    });
    const long = recordCalls(
      { ...halfOpen, cooldownMs: 2_400_000 },
      [call(500, { eventId: 'probe' })],
      now,
      settings,
    );
    expect(long.health.cooldownMs).toBe(3_600_000);
  });

  it('leaves an open circuit open whatever the calls started before it opened show', () => {
    const open: DestinationHealth = {
      ...HEALTHY,
      circuit: 'open',
      consecutiveFailures: 3,
      cooldownMs: 30_000,
      openUntil: later(10_000),
    };
    expect(recordCalls(open, [call(200), call(500)], now, settings)).toEqual({
      health: { ...open, consecutiveFailures: 1 },
      transition: null,
    });
  });

  it('keeps the latest Retry-After asked for, and forgets one that passed', () => {
    const asked = recordCalls(
      { ...HEALTHY, retryAfterUntil: later(-1000) },
      [call(429, { retryAfter: later(60_000) }), call(503, { retryAfter: later(5_000) })],
      now,
      settings,
    );
    expect(asked.health.retryAfterUntil).toEqual(later(60_000));
    expect(
      recordCalls({ ...HEALTHY, retryAfterUntil: later(-1) }, [call(200)], now, settings).health
        .retryAfterUntil,
    ).toBeNull();
  });
});
