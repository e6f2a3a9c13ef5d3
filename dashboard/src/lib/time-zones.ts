/** An IANA zone as the picker lists it: its name and its offset from UTC now (`UTC+05:30`). */
export interface ZoneOption {
  name: string;
  offset: string;
}

/** The zones the runtime knows, UTC first, each with its current offset. */
export function zoneOptions(now: Date = new Date()): ZoneOption[] {
  const names = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((name) => name !== 'UTC')];
  return names.map((name) => ({ name, offset: offsetOf(name, now) }));
}

function offsetOf(timeZone: string, now: Date): string {
  const part = new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(now)
    .find((p) => p.type === 'timeZoneName')?.value;
  return part === 'GMT' || part === undefined ? 'UTC' : part.replace('GMT', 'UTC');
}

/**
 * The zones matching what was typed, best first: every word of the query must appear in the name
 * (spaces match underscores and slashes, case ignored), names starting with it or with a part
 * after a slash that does first (`paris` finds Europe/Paris, `new york` America/New_York).
 */
export function matchZones(zones: readonly ZoneOption[], query: string, limit = 50): ZoneOption[] {
  const words = query
    .toLowerCase()
    .split(/[\s_/]+/)
    .filter(Boolean);
  if (words.length === 0) return zones.slice(0, limit);
  const scored: [number, ZoneOption][] = [];
  for (const zone of zones) {
    const name = zone.name.toLowerCase().replaceAll('_', ' ');
    if (!words.every((word) => name.includes(word))) continue;
    const parts = name.split('/');
    const first = words[0] ?? '';
    const score = name.startsWith(first) ? 0 : parts.some((part) => part.startsWith(first)) ? 1 : 2;
    scored.push([score, zone]);
  }
  return scored
    .sort((a, b) => a[0] - b[0] || a[1].name.localeCompare(b[1].name))
    .slice(0, limit)
    .map(([, zone]) => zone);
}
