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

/** The rows of the table: what each limit is, its value, and the usage where the team has one. */
function rows({ limits, usage }: TeamLimitsView): [string, string, string | undefined][] {
  return [
    ['Active crons', integer.format(limits.max_active_crons), integer.format(usage.active_crons)],
    [
      'Pending events created through the API',
      integer.format(limits.max_pending_events),
      integer.format(usage.pending_events),
    ],
    [
      'Payloads and headers of those pending events',
      formatLimitBytes(limits.max_pending_bytes),
      formatUsedBytes(usage.pending_bytes),
    ],
    ['Active API keys', integer.format(limits.max_api_keys), integer.format(usage.api_keys)],
    ['Payload size', formatLimitBytes(limits.max_payload_bytes), undefined],
    ['Custom headers, all together', formatLimitBytes(limits.max_headers_bytes), undefined],
    ['Shortest cron interval', duration(limits.min_cron_interval_ms), undefined],
    [
      'API requests per key',
      `${integer.format(limits.requests_per_second)}/s, bursts of ${integer.format(limits.request_burst)}`,
      undefined,
    ],
    ['Finished events kept', duration(limits.event_retention_ms), undefined],
  ];
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
        <table className="table limits-table">
          <thead>
            <tr>
              <th>Limit</th>
              <th>Value</th>
              <th>In use</th>
            </tr>
          </thead>
          <tbody>
            {rows(view.data).map(([name, value, used]) => (
              <tr key={name}>
                <td data-label="Limit">{name}</td>
                <td data-label="Value">{value}</td>
                <td data-label="In use">{used ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
