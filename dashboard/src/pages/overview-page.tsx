import type { OverviewWindow } from '@webhook-scheduler/contract';
import { useCallback, useMemo, useState } from 'react';
import { useTeamClient } from '../api/client.js';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { DestinationsHealthCard } from '../components/destinations-health-card.js';
import { ErrorBanner, Loading } from '../components/feedback.js';
import { GetStarted } from '../components/get-started.js';
import { OverviewTiles } from '../components/overview-tiles.js';
import { Segmented } from '../components/segmented.js';
import { TimeChart } from '../components/time-chart.js';
import { latenessChart, outcomeChart, upcomingChart } from '../lib/overview-figures.js';
import { useTeamTitle } from '../lib/page-title.js';
import { Link, navigate, useLocation } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';

const WINDOWS: [OverviewWindow, string][] = [
  ['1h', 'Last hour'],
  ['24h', '24 hours'],
  ['7d', '7 days'],
];
const REFRESH_MS = 15_000;
const isWindow = (value: string | null): value is OverviewWindow => WINDOWS.some(([key]) => key === value);

/** The team's landing page: its deliveries over time, their lateness, and the next hour's load. */
export function OverviewPage({ teamId }: { teamId: string }) {
  const client = useTeamClient(teamId);
  const { pathname, query } = useLocation();
  const raw = query.get('window');
  const window: OverviewWindow = isWindow(raw) ? raw : '1h';
  const [keepGuide, setKeepGuide] = useState(false);
  useTeamTitle(teamId, 'Overview');

  const loadDeliveries = useCallback(
    (signal: AbortSignal) =>
      unwrap(
        dashboardApi.overview.deliveries({ params: { teamId }, query: { window }, fetchOptions: { signal } }),
        200,
      ),
    [teamId, window],
  );
  const loadUpcoming = useCallback(
    (signal: AbortSignal) =>
      unwrap(dashboardApi.overview.upcoming({ params: { teamId }, fetchOptions: { signal } }), 200),
    [teamId],
  );
  // One row is enough to know whether the team has any event: its total comes from counters.
  const loadAny = useCallback(
    (signal: AbortSignal) =>
      client.events.list({ limit: 1 }, { signal }).then((page) => page.pagination.total),
    [client],
  );
  const deliveries = useLoad(loadDeliveries, REFRESH_MS);
  const upcoming = useLoad(loadUpcoming, REFRESH_MS);
  const anyEvent = useLoad(loadAny, REFRESH_MS);

  const outcomes = useMemo(() => deliveries.data && outcomeChart(deliveries.data), [deliveries.data]);
  const lateness = useMemo(() => deliveries.data && latenessChart(deliveries.data), [deliveries.data]);
  const ahead = useMemo(() => upcoming.data && upcomingChart(upcoming.data), [upcoming.data]);
  const showGuide = keepGuide || anyEvent.data === 0;
  const binWords = window === '1h' ? 'minute' : window === '24h' ? '15 minutes' : '2 hours';

  return (
    <section className="page overview">
      <header className="page-header">
        <h1>Overview</h1>
        <Segmented
          label="Window"
          options={WINDOWS}
          value={window}
          onChange={(key) => navigate(key === '1h' ? pathname : `${pathname}?window=${key}`)}
        />
      </header>
      {showGuide ? (
        <GetStarted
          teamId={teamId}
          onKeyCreated={() => setKeepGuide(true)}
          onDismiss={anyEvent.data ? () => setKeepGuide(false) : undefined}
        />
      ) : null}
      <ErrorBanner error={deliveries.error ?? upcoming.error} title="Could not load the figures:" />
      {deliveries.data && upcoming.data ? (
        <OverviewTiles teamId={teamId} deliveries={deliveries.data} upcoming={upcoming.data} />
      ) : deliveries.error || upcoming.error ? null : (
        <Loading />
      )}
      <div className="overview-grid">
        <section className="card" aria-labelledby="calls-title">
          <h2 id="calls-title">Calls per {binWords}, by outcome</h2>
          {outcomes ? <TimeChart data={outcomes} title="Calls by outcome" testId="outcomes-chart" /> : null}
        </section>
        <section className="card" aria-labelledby="lateness-title">
          <h2 id="lateness-title">Lateness: call start after its scheduled time</h2>
          {lateness ? (
            <TimeChart data={lateness} title="Lateness p50 and p99" testId="lateness-chart" />
          ) : null}
        </section>
        <DestinationsHealthCard teamId={teamId} />
        <section className="card" aria-labelledby="upcoming-title">
          <h2 id="upcoming-title">The next hour, per minute</h2>
          {ahead ? <TimeChart data={ahead} title="The next hour" testId="upcoming-chart" /> : null}
          <p className="muted small">
            <Link to={`/t/${teamId}/events?status=pending`}>Pending events</Link>, and the runs of the active
            crons not created as events yet.
          </p>
        </section>
      </div>
    </section>
  );
}
