import type { TeamLimitsView } from '@webhook-scheduler/contract';
import { useCallback } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { formatLimitBytes, formatUsedBytes } from '../lib/byte-sizes.js';
import { useLoad } from '../lib/use-load.js';
import { ErrorBanner, Loading } from './feedback.js';

const integer = new Intl.NumberFormat('en-GB');

function duration(ms: number): string {
  if (ms === 0) return 'forever';
  if (ms % 86_400_000 === 0) return `${integer.format(ms / 86_400_000)} days`;
  if (ms % 3_600_000 === 0) return `${integer.format(ms / 3_600_000)} h`;
  if (ms % 60_000 === 0) return `${integer.format(ms / 60_000)} min`;
  return `${integer.format(ms / 1000)} s`;
}

/** A quota the team uses up: its limit and what is in use, drawn as a bar. */
interface Quota {
  name: string;
  limit: number;
  used: number;
  /** How its figures read (counts by default). */
  format?: { limit: (value: number) => string; used: (value: number) => string };
}

/** The quotas a create uses up (403 `QUOTA_EXCEEDED` when full). */
function quotas({ limits, usage }: TeamLimitsView): Quota[] {
  return [
    { name: 'Active crons', limit: limits.max_active_crons, used: usage.active_crons },
    {
      name: 'Pending events created through the API',
      limit: limits.max_pending_events,
      used: usage.pending_events,
    },
    {
      name: 'Payloads and headers of those pending events',
      limit: limits.max_pending_bytes,
      used: usage.pending_bytes,
      format: { limit: formatLimitBytes, used: formatUsedBytes },
    },
    { name: 'Active API keys', limit: limits.max_api_keys, used: usage.api_keys },
  ];
}

/** The limits that bound one request or one key, not a count the team fills. */
function fixedLimits({ limits }: TeamLimitsView): [string, string][] {
  return [
    ['Payload size', formatLimitBytes(limits.max_payload_bytes)],
    ['Custom headers, all together', formatLimitBytes(limits.max_headers_bytes)],
    ['Shortest cron interval', duration(limits.min_cron_interval_ms)],
    [
      'API requests per key',
      `${integer.format(limits.requests_per_second)}/s, bursts of ${integer.format(limits.request_burst)}`,
    ],
    ['Finished events kept', duration(limits.event_retention_ms)],
  ];
}

function percent(quota: Quota): number {
  return quota.limit <= 0 ? 100 : Math.min(100, (quota.used / quota.limit) * 100);
}

/** `0.3 %`, `45 %`, `100 %`: enough digits to see a quota that is barely used. */
function formatPercent(value: number): string {
  return value > 0 && value < 10 ? `${value.toFixed(1)} %` : `${Math.round(value)} %`;
}

function UsageBar({ quota }: { quota: Quota }) {
  const share = percent(quota);
  const limit = (quota.format?.limit ?? integer.format)(quota.limit);
  const used = (quota.format?.used ?? integer.format)(quota.used);
  const level = share >= 90 ? 'full' : share >= 70 ? 'high' : 'ok';
  return (
    <div className="usage" data-testid="usage">
      <div className="usage-head">
        <span className="usage-name">{quota.name}</span>
        <span className="usage-figures">
          {used} of {limit} · {formatPercent(share)}
        </span>
      </div>
      <meter
        className={`usage-bar usage-${level}`}
        min={0}
        max={quota.limit}
        low={quota.limit * 0.7}
        high={quota.limit * 0.9}
        optimum={0}
        value={quota.used}
        aria-label={`${quota.name}: ${used} of ${limit}`}
      />
    </div>
  );
}

/** The team's limits and how much of its quotas it uses; an operator changes them with the CLI. */
export function LimitsSection({ teamId }: { teamId: string }) {
  const load = useCallback(
    (signal: AbortSignal) =>
      unwrap(dashboardApi.limits.get({ params: { teamId }, fetchOptions: { signal } }), 200),
    [teamId],
  );
  const view = useLoad(load);
  return (
    <section className="card" id="limits" aria-labelledby="limits-title">
      <h2 id="limits-title">Limits and usage</h2>
      <p className="muted">
        Creates beyond a quota are refused (403 <code>QUOTA_EXCEEDED</code>); requests beyond the rate are
        answered 429 with <code>Retry-After</code>. The operator of this service can change them.
      </p>
      <ErrorBanner error={view.error} />
      {!view.data ? (
        view.error ? null : (
          <Loading />
        )
      ) : (
        <>
          <div className="usages">
            {quotas(view.data).map((quota) => (
              <UsageBar key={quota.name} quota={quota} />
            ))}
          </div>
          <table className="table limits-table">
            <thead>
              <tr>
                <th>Limit</th>
                <th>Value</th>
              </tr>
            </thead>
            <tbody>
              {fixedLimits(view.data).map(([name, value]) => (
                <tr key={name}>
                  <td data-label="Limit">{name}</td>
                  <td data-label="Value">{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
