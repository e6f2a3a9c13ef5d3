import { describe, expect, test } from 'vitest';
import { nextOccurrences } from './occurrences.js';

// The clocks of a zone share what they learn of its offsets, and compiled expressions are kept: an
// answer must not depend on what was asked before it. Each query is asked in one order, then in the
// reverse order and interleaved with the other zones', around each zone's 2026 transitions.
const ZONES = [
  'Europe/Paris',
  'America/New_York',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Asia/Kathmandu',
];
const TRANSITIONS = [
  '2026-03-08',
  '2026-03-29',
  '2026-04-04',
  '2026-09-26',
  '2026-10-03',
  '2026-10-25',
  '2026-11-01',
];
const EXPRESSIONS = ['30 2 * * *', '*/15 * * * *', '0 3 * * 0', '0 0 1 * *'];
const HOUR = 3_600_000;

interface Query {
  expression: string;
  timezone: string;
  after: number;
}

const queries: Query[] = ZONES.flatMap((timezone, z) =>
  TRANSITIONS.flatMap((day) =>
    Array.from({ length: 24 }, (_, step) => ({
      expression: EXPRESSIONS[(z + step) % EXPRESSIONS.length] ?? '* * * * *',
      timezone,
      // Every 5 hours from two days before the transition's day to three days after it.
      after: Date.parse(`${day}T00:00:00Z`) - 48 * HOUR + step * 5 * HOUR + z * 1_000,
    })),
  ),
);

const answer = ({ expression, timezone, after }: Query) =>
  nextOccurrences(expression, timezone, new Date(after), { until: new Date(after), min: 3, max: 3 }).map(
    (date) => date.toISOString(),
  );

describe('nextOccurrences: answers independent of earlier questions', () => {
  test('the same answers in reverse order and interleaved across zones', () => {
    const inOrder = queries.map(answer);
    const reversed = [...queries].reverse().map(answer).reverse();
    const byStep = queries.map((_, i) => i).sort((a, b) => (a % 24) - (b % 24) || a - b);
    const interleaved = new Array<string[]>(queries.length);
    for (const i of byStep) interleaved[i] = answer(queries[i] as Query);
    expect(reversed).toEqual(inOrder);
    expect(interleaved).toEqual(inOrder);
    expect(inOrder.every((found) => found.length === 3)).toBe(true);
  });
});
