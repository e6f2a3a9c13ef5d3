import { describe, expect, it } from 'vitest';
import { failedReplayOf, settingsFormOf, settingsPatchOf } from './destination-settings.js';
import { toLocalInput } from './format.js';

const form = (overrides: Partial<Parameters<typeof settingsPatchOf>[0]> = {}) => ({
  requests: '10',
  per: 'minute' as const,
  maxInFlight: '',
  ...overrides,
});

describe('settingsFormOf', () => {
  it('shows the stored rate limit and most calls at once', () => {
    expect(settingsFormOf({ rate_limit: { requests: 30, per: 'hour' }, max_in_flight: 4 })).toEqual({
      requests: '30',
      per: 'hour',
      maxInFlight: '4',
    });
  });

  it('shows no rate limit and the service’s limit as empty choices', () => {
    expect(settingsFormOf({ rate_limit: null, max_in_flight: null })).toEqual({
      requests: '10',
      per: '',
      maxInFlight: '',
    });
  });
});

describe('settingsPatchOf', () => {
  it('sends the rate limit and most calls at once as numbers', () => {
    expect(settingsPatchOf(form({ requests: ' 25 ', maxInFlight: '3' }))).toEqual({
      body: { rate_limit: { requests: 25, per: 'minute' }, max_in_flight: 3 },
    });
  });

  it('clears both with the empty choices, whatever the requests field holds', () => {
    expect(settingsPatchOf(form({ per: '', requests: 'x' }))).toEqual({
      body: { rate_limit: null, max_in_flight: null },
    });
  });

  it.each([
    [{ requests: '' }, 'rate_limit.requests', 'Enter a whole number'],
    [{ requests: '2.5' }, 'rate_limit.requests', 'Enter a whole number'],
    [{ requests: '0' }, 'rate_limit.requests', 'requests must be from 1 to 100000'],
    [{ requests: '100001' }, 'rate_limit.requests', 'requests must be from 1 to 100000'],
    [{ maxInFlight: '-1' }, 'max_in_flight', 'Enter a whole number, or leave it empty'],
    [{ maxInFlight: '0' }, 'max_in_flight', 'max_in_flight must be at least 1'],
  ])('refuses %j with a problem at %s', (overrides, path, message) => {
    expect(settingsPatchOf(form(overrides))).toEqual({ problems: { [path]: message } });
  });
});

describe('failedReplayOf', () => {
  it('replays the origin’s failed events scheduled after the local time given', () => {
    const since = new Date('2030-01-14T08:30:00Z');
    expect(failedReplayOf('https://a.example', toLocalInput(since))).toEqual({
      body: { status: 'failed', destination: 'https://a.example', scheduled_after: since.toISOString() },
    });
  });

  it('asks for a time when none is given', () => {
    expect(failedReplayOf('https://a.example', '')).toEqual({
      problems: { scheduled_after: 'Enter a date and time' },
    });
  });
});
