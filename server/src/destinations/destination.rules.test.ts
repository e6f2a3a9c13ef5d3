import { describe, expect, it } from 'vitest';
import { maxInFlightIssues } from './destination.rules.js';

describe('maxInFlightIssues', () => {
  it('refuses more calls at once than the service allows per origin', () => {
    expect(maxInFlightIssues(50, 50)).toEqual([]);
    expect(maxInFlightIssues(null, 50)).toEqual([]);
    expect(maxInFlightIssues(51, 50)).toEqual([expect.objectContaining({ path: ['max_in_flight'] })]);
  });
});
