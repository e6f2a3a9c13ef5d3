import { describe, expect, it } from 'vitest';
import { matchZones, zoneOptions } from './time-zones.js';

const zones = zoneOptions(new Date('2030-01-14T12:00:00Z'));
const names = (query: string) => matchZones(zones, query, 5).map((zone) => zone.name);

describe('zoneOptions', () => {
  it('lists UTC first and every zone of the runtime with its offset', () => {
    expect(zones[0]?.name).toBe('UTC');
    expect(zones[0]?.offset).toMatch(/^UTC(\+00:00)?$/);
    expect(zones.length).toBeGreaterThan(300);
    expect(zones.find((zone) => zone.name === 'Asia/Tokyo')?.offset).toBe('UTC+09:00');
    expect(zones.find((zone) => zone.name === 'Europe/Paris')?.offset).toBe('UTC+01:00');
  });
});

describe('matchZones', () => {
  it('finds a zone by its city, ignoring case, spaces for underscores', () => {
    expect(names('paris')).toEqual(['Europe/Paris']);
    expect(names('new york')[0]).toBe('America/New_York');
    expect(names('NEW_YORK')[0]).toBe('America/New_York');
  });

  it('puts names that start with the query first', () => {
    expect(names('europe/')[0]?.startsWith('Europe/')).toBe(true);
    expect(names('lon')).toContain('Europe/London');
    expect(names('america/')).toHaveLength(5);
  });

  it('finds nothing for a name no zone has', () => {
    expect(names('mars olympus')).toEqual([]);
  });
});
