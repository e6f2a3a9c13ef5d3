import { EventInput, type EventStatus } from '@webhook-scheduler/contract';
import { describe, expect, it } from 'vitest';
import { deleteRefusal, eventInputIssues, eventRequestIssues, updateRefusal } from './event.rules.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const CRON = '6f1c1d6e-7d55-4a71-9a3c-2b2f7b0f6a11';
const ORIGINAL = '0b9f6a0e-2c7e-4f59-8a55-5d8f1c3e9b22';

const input = (scheduled_at: string) =>
  EventInput.parse({ webhook_url: 'https://example.com/hook', scheduled_at });

describe('eventInputIssues', () => {
  it.each([
    ['one millisecond after now', '2026-03-01T12:00:00.001Z'],
    ['a year after now', '2027-03-01T12:00:00Z'],
    ['after now, written with an offset', '2026-03-01T13:00:01+01:00'],
  ])('accepts a scheduled_at %s', (_, scheduledAt) => {
    expect(eventInputIssues(input(scheduledAt), NOW)).toEqual([]);
  });

  it.each([
    ['equal to now', '2026-03-01T12:00:00.000Z'],
    ['one millisecond before now', '2026-03-01T11:59:59.999Z'],
    ['equal to now, written with an offset', '2026-03-01T13:00:00+01:00'],
    ['years before now', '2001-01-01T00:00:00Z'],
  ])('refuses a scheduled_at %s, on the scheduled_at field', (_, scheduledAt) => {
    expect(eventInputIssues(input(scheduledAt), NOW)).toEqual([
      { path: ['scheduled_at'], message: expect.stringContaining('future') },
    ]);
  });
});

type State = { status: EventStatus; cronId: string | null; retryOf: string | null };
const manual = (status: EventStatus): State => ({ status, cronId: null, retryOf: null });

describe('eventRequestIssues', () => {
  it('checks the scheduled_at of a body the contract refused for other fields', () => {
    expect(eventRequestIssues({ webhook_url: 'x', scheduled_at: '2001-01-01T00:00:00Z' }, NOW)).toEqual([
      { path: ['scheduled_at'], message: expect.stringContaining('future') },
    ]);
    expect(eventRequestIssues({ webhook_url: 'x', scheduled_at: '2027-01-01T00:00:00Z' }, NOW)).toEqual([]);
  });

  it.each([
    ['no scheduled_at', { webhook_url: 'x' }],
    ['a scheduled_at that is no timestamp', { scheduled_at: 'yesterday' }],
    ['a scheduled_at that is a number', { scheduled_at: 0 }],
    ['no body', null],
  ])('finds nothing to check in %s', (_, sent) => {
    expect(eventRequestIssues(sent, NOW)).toEqual([]);
  });
});

describe('updateRefusal', () => {
  it.each<[State, boolean]>([
    [manual('pending'), false],
    [{ status: 'pending', cronId: CRON, retryOf: null }, false],
    [manual('processing'), true],
    [manual('success'), true],
    [manual('failed'), true],
    [{ status: 'failed', cronId: CRON, retryOf: ORIGINAL }, true],
  ])('for %j refuses: %s', (state, refused) => {
    const refusal = updateRefusal(state);
    expect(refusal !== undefined).toBe(refused);
    if (refusal) expect(refusal.details).toEqual({ currentStatus: state.status });
  });
});

describe('deleteRefusal', () => {
  it.each<[string, State, RegExp | undefined, Record<string, unknown> | undefined]>([
    ['a manual pending event', manual('pending'), undefined, undefined],
    ['a manual successful event', manual('success'), undefined, undefined],
    ['a manual failed event', manual('failed'), undefined, undefined],
    ['a manual processing event', manual('processing'), /processing/, { currentStatus: 'processing' }],
    ['a pending cron-made event', { ...manual('pending'), cronId: CRON }, /cron/, undefined],
    ['a finished cron-made event', { ...manual('success'), cronId: CRON }, /cron/, undefined],
    ['a retry attempt', { ...manual('failed'), retryOf: ORIGINAL }, /[Rr]etry/, undefined],
    ['a pending retry attempt', { ...manual('pending'), retryOf: ORIGINAL }, /[Rr]etry/, undefined],
    [
      'a retry attempt of a cron-made event',
      { ...manual('failed'), cronId: CRON, retryOf: ORIGINAL },
      /./,
      undefined,
    ],
  ])('for %s', (_, state, message, details) => {
    const refusal = deleteRefusal(state);
    if (!message) {
      expect(refusal).toBeUndefined();
      return;
    }
    expect(refusal?.message).toMatch(message);
    expect(refusal?.details).toEqual(details);
  });
});
