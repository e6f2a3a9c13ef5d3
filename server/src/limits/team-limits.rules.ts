import type { TeamLimits } from '@webhook-scheduler/contract';
import { parseDurationMs } from '../config.js';

/** A team's own limits: a number overrides the default, null (or absent) keeps it. */
export type LimitOverrides = { [K in keyof TeamLimits]?: number | null };

type LimitKind = 'count' | 'bytes' | 'interval' | 'retention';

/** The limits as the CLI names them (`--set name=value`), and the field each one sets. */
export const SETTABLE_LIMITS = {
  max_payload_bytes: { field: 'max_payload_bytes', kind: 'count' },
  max_headers_bytes: { field: 'max_headers_bytes', kind: 'count' },
  max_active_crons: { field: 'max_active_crons', kind: 'count' },
  max_pending_events: { field: 'max_pending_events', kind: 'count' },
  max_pending_bytes: { field: 'max_pending_bytes', kind: 'bytes' },
  min_cron_interval: { field: 'min_cron_interval_ms', kind: 'interval' },
  requests_per_second: { field: 'requests_per_second', kind: 'count' },
  request_burst: { field: 'request_burst', kind: 'count' },
  event_retention: { field: 'event_retention_ms', kind: 'retention' },
  max_api_keys: { field: 'max_api_keys', kind: 'count' },
} as const satisfies Record<string, { field: keyof TeamLimits; kind: LimitKind }>;

const INT32_MAX = 2_147_483_647;

/** The limits in force: each override where the team has one, the default elsewhere. */
export function effectiveLimits(defaults: TeamLimits, overrides: LimitOverrides): TeamLimits {
  const limits = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof TeamLimits)[]) {
    const own = overrides[key];
    if (own !== undefined && own !== null) limits[key] = own;
  }
  return limits;
}

function parseValue(kind: LimitKind, value: string): number | string {
  // A byte count may pass 2 GiB (the column is a bigint).
  if (kind === 'bytes') {
    if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
      return `must be a whole number of bytes from 1 to ${Number.MAX_SAFE_INTEGER}`;
    return Number(value);
  }
  if (kind === 'count') {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > INT32_MAX)
      return `must be a whole number from 1 to ${INT32_MAX}`;
    return Number(value);
  }
  const ms = parseDurationMs(value);
  if (ms === undefined) return 'must be a duration such as 500ms, 90s, 30m, 1h or 30d';
  if (kind === 'interval' && (ms < 1000 || ms > INT32_MAX)) return 'must be from 1s to 24d';
  // 0 keeps finished events forever.
  return ms;
}

/**
 * Parses `name=value` settings into overrides; `name=default` removes the team's own value. Every
 * bad setting is named in the problems.
 */
export function parseLimitSettings(settings: string[]): { overrides: LimitOverrides; problems: string[] } {
  const overrides: LimitOverrides = {};
  const problems: string[] = [];
  for (const setting of settings) {
    const [name = '', ...rest] = setting.split('=');
    const value = rest.join('=').trim();
    const known = Object.hasOwn(SETTABLE_LIMITS, name)
      ? SETTABLE_LIMITS[name as keyof typeof SETTABLE_LIMITS]
      : undefined;
    if (!known) {
      problems.push(`unknown limit "${name}": use one of ${Object.keys(SETTABLE_LIMITS).join(', ')}`);
      continue;
    }
    if (rest.length === 0 || value === '') {
      problems.push(`${name}: give a value as ${name}=VALUE (or ${name}=default)`);
      continue;
    }
    if (value === 'default') {
      overrides[known.field] = null;
      continue;
    }
    const parsed = parseValue(known.kind, value);
    if (typeof parsed === 'string') problems.push(`${name}: ${parsed}`);
    else overrides[known.field] = parsed;
  }
  return { overrides, problems };
}
