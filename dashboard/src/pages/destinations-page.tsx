import type { DestinationListQuery } from '@webhook-scheduler/sdk';
import { useCallback, useState } from 'react';
import { useTeamClient } from '../api/client.js';
import { DestinationsTable } from '../components/destinations-table.js';
import { EmptyState, ErrorBanner, Loading } from '../components/feedback.js';
import { LiveToggle } from '../components/live-toggle.js';
import { Pagination } from '../components/pagination.js';
import { Segmented } from '../components/segmented.js';
import { useTeamTitle } from '../lib/page-title.js';
import { navigate, useLocation } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';

type Sort = NonNullable<DestinationListQuery['sort']>;
const SORTS: [Sort, string][] = [
  ['-last_call_at', 'Recently called'],
  ['origin', 'By origin'],
];
const PAGE_SIZE = 25;
const REFRESH_MS = 5000;
const GUIDE = 'https://github.com/webhook-scheduler/webhook-scheduler/blob/main/docs/guides/destinations.md';

/** The origins the team's webhooks call, with their health, waiting work, circuit and settings. */
export function DestinationsPage({ teamId }: { teamId: string }) {
  const client = useTeamClient(teamId);
  const { pathname, query } = useLocation();
  const sort: Sort = query.get('sort') === 'origin' ? 'origin' : '-last_call_at';
  const page = Math.max(0, Number(query.get('page') ?? 0) || 0);
  const [live, setLive] = useState(true);
  useTeamTitle(teamId, 'Destinations');

  const load = useCallback(
    (signal: AbortSignal) => client.destinations.list({ sort, page, limit: PAGE_SIZE }, { signal }),
    [client, sort, page],
  );
  const destinations = useLoad(load, live ? REFRESH_MS : false);

  const go = (next: { sort?: Sort; page?: number }) => {
    const params = new URLSearchParams();
    const nextSort = next.sort ?? sort;
    if (nextSort !== '-last_call_at') params.set('sort', nextSort);
    if (next.page) params.set('page', String(next.page));
    navigate(params.size ? `${pathname}?${params.toString()}` : pathname);
  };

  const data = destinations.data;
  return (
    <section className="page">
      <header className="page-header">
        <h1>Destinations</h1>
      </header>
      <div className="toolbar">
        <Segmented label="Order" options={SORTS} value={sort} onChange={(value) => go({ sort: value })} />
        <LiveToggle live={live} onChange={setLive} updatedAt={destinations.updatedAt} />
      </div>
      <ErrorBanner
        error={destinations.error}
        title={data ? 'Could not refresh:' : 'Could not load the destinations:'}
      />
      {!data ? (
        destinations.error ? null : (
          <Loading />
        )
      ) : data.data.length === 0 ? (
        <EmptyState title="No destinations yet">
          <p>
            A destination is the origin your webhooks call — scheme, host and port, such as{' '}
            <code>https://hooks.example.com</code>. Once your team schedules an event or a cron, its origin
            shows here with its health; you can limit the rate of calls to it, or pause them while the
            receiver is down. <a href={GUIDE}>Read the destinations guide</a>.
          </p>
        </EmptyState>
      ) : (
        <>
          <DestinationsTable teamId={teamId} rows={data.data} />
          <Pagination pagination={data.pagination} onPage={(next) => go({ page: next })} />
        </>
      )}
    </section>
  );
}
