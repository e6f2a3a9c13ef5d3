import type { DeliveriesOverview } from '@webhook-scheduler/contract';
import { describe, expect, it } from 'vitest';
import { failureShare, formatLateness, outcomeChart, stackedTops } from './overview-figures.js';

const bin = (at: string, succeeded: number, retrying: number, failed: number) => ({
  at,
  succeeded,
  retrying,
  failed,
  lateness_p50_ms: null,
  lateness_p99_ms: null,
});

describe('stackedTops', () => {
  it('adds each series to those below it', () => {
    const chart = outcomeChart({
      bins: [bin('2030-01-14T09:00:00Z', 5, 1, 2), bin('2030-01-14T09:01:00Z', 0, 0, 3)],
    } as DeliveriesOverview);
    expect(chart.times).toEqual([1894611600, 1894611660]);
    expect(stackedTops(chart.series)).toEqual([
      [5, 0],
      [6, 0],
      [8, 3],
    ]);
  });
});

describe('formatLateness', () => {
  it.each([
    [null, '—'],
    [0, 'under 1 ms'],
    [2.4, '2.4 ms'],
    [123.4, '123 ms'],
    [2100, '2.1 s'],
    [90_000, '1.5 min'],
  ])('writes %j as %j', (ms, text) => {
    expect(formatLateness(ms)).toBe(text);
  });
});

describe('failureShare', () => {
  it('counts retried and final failures against every call, and says nothing without a call', () => {
    const totals = { succeeded: 97, retrying: 2, failed: 1, lateness_p50_ms: 1, lateness_p99_ms: 2 };
    expect(failureShare(totals)).toBe('3.0 %');
    expect(failureShare({ ...totals, succeeded: 0, retrying: 0, failed: 0 })).toBeUndefined();
  });
});
