import type { EventStatus } from '@webhook-scheduler/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTeamClient } from '../api/client.js';
import { EmptyState, ErrorBanner, Loading } from '../components/feedback.js';
import { GetStarted } from '../components/get-started.js';
import { LiveToggle } from '../components/live-toggle.js';
import { Pagination } from '../components/pagination.js';
import { Segmented } from '../components/segmented.js';
import { EventsTable } from '../components/events-table.js';
import { collapseUpcoming, groupRetryChains } from '../lib/event-groups.js';
import { useTeamTitle } from '../lib/page-title.js';
import { Link, navigate, useLocation } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';

const STATUSES: EventStatus[] = ['pending', 'processing', 'success', 'failed'];
const STATUS_CHOICES: (readonly [EventStatus | '', string])[] = [
  ['', 'All'],
  ...STATUSES.map((s) => [s, s] as const),
];
const PAGE_SIZE = 25;
const REFRESH_MS = 3000;
const SEARCH_DEBOUNCE_MS = 300;
// The list reads in time order, latest scheduled first (docs/reference/behaviour.md#list-order); the retry grouping below
// works with any order.
const ORDER = { sort: '-scheduled_at' } as const;

const isStatus = (value: string | null): value is EventStatus => STATUSES.includes(value as EventStatus);

/**
 * The team's events, latest scheduled first with retries under their original and a cron's upcoming
 * runs in one row, filtered by status, cron and a URL substring, refreshing on their own.
 */
export function EventsPage({ teamId }: { teamId: string }) {
  const client = useTeamClient(teamId);
  const { pathname, query } = useLocation();
  const rawStatus = query.get('status');
  const status = isStatus(rawStatus) ? rawStatus : undefined;
  const cronId = query.get('cron_id') ?? undefined;
  const search = query.get('q') ?? '';
  const [typed, setTyped] = useState(search);
  const page = Math.max(0, Number(query.get('page') ?? 0) || 0);
  const [live, setLive] = useState(true);
  // A key created in the guide stays on screen after the first event arrives: it is shown once.
  const [keepGuide, setKeepGuide] = useState(false);
  useTeamTitle(teamId, status ? `Events (${status})` : 'Events');

  const load = useCallback(
    (signal: AbortSignal) =>
      client.events.list(
        {
          ...ORDER,
          page,
          limit: PAGE_SIZE,
          ...(status ? { status } : {}),
          ...(cronId ? { cron_id: cronId } : {}),
          ...(search ? { url_contains: search } : {}),
        },
        { signal },
      ),
    [client, page, status, cronId, search],
  );
  const events = useLoad(load, live ? REFRESH_MS : false);

  const go = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(query);
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) next.delete(name);
      else next.set(name, value);
    }
    if (!('page' in changes)) next.delete('page');
    const search = next.toString();
    navigate(search ? `${pathname}?${search}` : pathname);
  };

  // The search follows the typing once it pauses, and the address keeps it; a search changed from
  // elsewhere (back, a link) shows in the box unless the user is typing in it.
  const searchBox = useRef<HTMLInputElement>(null);
  const goRef = useRef(go);
  goRef.current = go;
  useEffect(() => {
    const text = typed.trim();
    if (text === search) return;
    const timer = window.setTimeout(
      () => goRef.current({ q: text === '' ? undefined : text }),
      SEARCH_DEBOUNCE_MS,
    );
    return () => window.clearTimeout(timer);
    // Only typing starts a search.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed]);
  useEffect(() => {
    if (document.activeElement !== searchBox.current) setTyped(search);
  }, [search]);

  const filtered = status !== undefined || cronId !== undefined || search !== '';
  const data = events.data;
  // Kept at one place in the tree, so the key it shows survives the first event's arrival.
  const showGuide = keepGuide || (data?.pagination.total === 0 && !filtered);
  return (
    <section className="page">
      <header className="page-header">
        <h1>Events</h1>
        <Link className="btn btn-primary" to={`/t/${teamId}/events/new`}>
          New event
        </Link>
      </header>
      <div className="toolbar">
        <Segmented
          label="Status"
          options={STATUS_CHOICES}
          value={status ?? ''}
          onChange={(value) => go({ status: value === '' ? undefined : value })}
        />
        <label className="search">
          <span className="visually-hidden">Search by URL</span>
          <input
            ref={searchBox}
            type="search"
            placeholder="Search by URL"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            maxLength={200}
          />
        </label>
        {cronId ? (
          <span className="chip">
            Cron <Link to={`/t/${teamId}/crons/${cronId}`}>{cronId.slice(0, 8)}</Link>
            <button
              type="button"
              aria-label="Show events of every cron"
              onClick={() => go({ cron_id: undefined })}
            >
              ×
            </button>
          </span>
        ) : null}
        <LiveToggle live={live} onChange={setLive} updatedAt={events.updatedAt} />
      </div>
      <ErrorBanner error={events.error} title={data ? 'Could not refresh:' : 'Could not load the events:'} />
      {showGuide ? (
        <GetStarted
          teamId={teamId}
          onKeyCreated={() => setKeepGuide(true)}
          onDismiss={data?.pagination.total ? () => setKeepGuide(false) : undefined}
        />
      ) : null}
      {!data ? (
        events.error ? null : (
          <Loading />
        )
      ) : data.data.length === 0 ? (
        showGuide ? null : (
          <EmptyState title="No events match">
            <p>
              Try another status{cronId ? ', every cron' : ''}
              {search ? ' or another search' : ''}.
            </p>
          </EmptyState>
        )
      ) : (
        <>
          <EventsTable
            teamId={teamId}
            rows={
              status === 'pending' && cronId
                ? groupRetryChains(data.data, { numbered: false })
                : collapseUpcoming(groupRetryChains(data.data, { numbered: status === undefined }))
            }
          />
          <Pagination pagination={data.pagination} onPage={(next) => go({ page: String(next) })} />
        </>
      )}
    </section>
  );
}
