import type { Destination } from '@webhook-scheduler/sdk';
import { describe, expect, it } from 'vitest';
import {
  circuitText,
  destinationPath,
  destinationsToWatch,
  eventsOfDestinationPath,
  failureRate,
  settingsSummary,
} from './destination-figures.js';

const destination = (overrides: Partial<Destination> = {}): Destination => ({
  origin: 'https://hooks.example.com',
  pending: 0,
  in_flight: 0,
  calls_24h: 0,
  failures_24h: 0,
  last_status: null,
  last_response_status: null,
  last_call_at: null,
  circuit: 'closed',
  open_until: null,
  retry_after_until: null,
  rate_limit: null,
  max_in_flight: null,
  paused: false,
  ...overrides,
});

describe('destination paths', () => {
  it('encodes the origin as one path segment', () => {
    expect(destinationPath('t1', 'http://127.0.0.1:8080')).toBe(
      '/t/t1/destinations/http%3A%2F%2F127.0.0.1%3A8080',
    );
  });

  it('searches the events list for the origin', () => {
    expect(eventsOfDestinationPath('t1', 'https://a.example')).toBe('/t/t1/events?q=https%3A%2F%2Fa.example');
  });
});

describe('failureRate', () => {
  it('is the share of the 24 hours’ calls that failed, and nothing without a call', () => {
    expect(failureRate(destination({ calls_24h: 8, failures_24h: 2 }))).toBe('25 %');
    expect(failureRate(destination({ calls_24h: 200, failures_24h: 3 }))).toBe('1.5 %');
    expect(failureRate(destination())).toBeUndefined();
  });
});

describe('circuitText', () => {
  it('says until when an open circuit waits, in the time zone given', () => {
    const open = destination({ circuit: 'open', open_until: '2030-07-01T07:00:30Z' });
    expect(circuitText(open, 'Europe/Paris')).toEqual({
      label: 'Open',
      detail: 'until Mon, 1 Jul 2030, 09:00:30',
    });
    expect(circuitText(open, 'America/New_York').detail).toBe('until Mon, 1 Jul 2030, 03:00:30');
  });

  it('names a closed and a half-open circuit', () => {
    expect(circuitText(destination())).toEqual({ label: 'Closed', detail: undefined });
    expect(circuitText(destination({ circuit: 'half_open' })).label).toBe('Half-open');
  });
});

describe('settingsSummary', () => {
  it.each([
    [{}, 'No limits'],
    [{ rate_limit: { requests: 1, per: 'second' as const } }, '1 call per second'],
    [
      { rate_limit: { requests: 1200, per: 'hour' as const }, max_in_flight: 5 },
      '1,200 calls per hour · 5 at once',
    ],
    [{ max_in_flight: 2 }, '2 at once'],
  ])('writes %j as %j', (overrides, expected) => {
    expect(settingsSummary(destination(overrides))).toBe(expected);
  });
});

describe('destinationsToWatch', () => {
  it('lists open circuits, then paused destinations, then the top failing others, each once', () => {
    const list = [
      destination({ origin: 'https://a', failures_24h: 1 }),
      destination({ origin: 'https://b', failures_24h: 9, circuit: 'open' }),
      destination({ origin: 'https://c', failures_24h: 5, paused: true }),
      destination({ origin: 'https://d', failures_24h: 7 }),
      destination({ origin: 'https://e', failures_24h: 3 }),
      destination({ origin: 'https://f' }),
      destination({ origin: 'https://g', circuit: 'half_open' }),
    ];
    const watched = destinationsToWatch(list, 2);
    expect(watched.open.map((d) => d.origin)).toEqual(['https://b', 'https://g']);
    expect(watched.paused.map((d) => d.origin)).toEqual(['https://c']);
    expect(watched.failing.map((d) => d.origin)).toEqual(['https://d', 'https://e']);
  });

  it('lists nothing when every destination is healthy', () => {
    expect(destinationsToWatch([destination(), destination({ origin: 'https://b' })])).toEqual({
      open: [],
      paused: [],
      failing: [],
    });
  });
});
