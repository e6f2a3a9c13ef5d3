import type { DeliveriesOverview, UpcomingOverview } from '@webhook-scheduler/contract';
import { failureShare, formatCount, formatLateness } from '../lib/overview-figures.js';
import { Link } from '../lib/router.js';

function Tile({
  label,
  value,
  detail,
  tone,
}: {
  label: string;
  value: string;
  detail?: string;
  tone?: string;
}) {
  return (
    <div className={`tile${tone ? ` tile-${tone}` : ''}`}>
      <dt>{label}</dt>
      <dd>
        <span className="tile-value">{value}</span>
        {detail ? <span className="tile-detail">{detail}</span> : null}
      </dd>
    </div>
  );
}

/** The window's figures in words, first: what a glance should take away. */
export function OverviewTiles({
  teamId,
  deliveries,
  upcoming,
}: {
  teamId: string;
  deliveries: DeliveriesOverview;
  upcoming: UpcomingOverview;
}) {
  const { totals } = deliveries;
  const calls = totals.succeeded + totals.retrying + totals.failed;
  const failures = totals.retrying + totals.failed;
  const share = failureShare(totals);
  const waiting = `${formatCount(upcoming.waiting)}${upcoming.waiting_capped ? '+' : ''}`;
  return (
    <>
      <dl className="tiles" data-testid="overview-tiles">
        <Tile
          label="Calls"
          value={formatCount(calls)}
          detail={`${formatCount(totals.succeeded)} succeeded`}
        />
        <Tile
          label="Failed calls"
          value={formatCount(failures)}
          detail={share ? `${share} · ${formatCount(totals.retrying)} retried` : 'none'}
          {...(totals.failed > 0 ? { tone: 'bad' } : {})}
        />
        <Tile
          label="Lateness p50 · p99"
          value={`${formatLateness(totals.lateness_p50_ms)} · ${formatLateness(totals.lateness_p99_ms)}`}
          detail={`within ${Math.round(deliveries.lateness_relative_error * 100)} %`}
        />
        <Tile
          label="Next hour"
          value={formatCount(upcoming.events + upcoming.cron_runs)}
          detail={`${formatCount(upcoming.cron_runs)} from crons`}
        />
        <Tile
          label="Due now"
          value={waiting}
          detail={`${formatCount(upcoming.in_flight)} in flight`}
          {...(upcoming.waiting > 0 ? { tone: 'warn' } : {})}
        />
      </dl>
      {totals.failed > 0 ? (
        <p className="tiles-link small">
          <Link to={`/t/${teamId}/events?status=failed`}>See the failed events</Link>
        </p>
      ) : null}
    </>
  );
}
