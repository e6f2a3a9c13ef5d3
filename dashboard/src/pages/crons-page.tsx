import type { Cron } from '@webhook-scheduler/sdk';
import { useCallback, useState } from 'react';
import { useTeamClient } from '../api/client.js';
import { type ApiError, toApiError } from '../api/errors.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { EmptyState, ErrorBanner, Loading } from '../components/feedback.js';
import { Pagination } from '../components/pagination.js';
import { Segmented } from '../components/segmented.js';
import { formatRelative } from '../lib/format.js';
import { useTeamTitle } from '../lib/page-title.js';
import { Link, navigate, useLocation } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';

const PAGE_SIZE = 25;
const FILTERS = [
  ['', 'All'],
  ['true', 'Active'],
  ['false', 'Paused'],
] as const;

/** The team's crons, with their schedule, target, and an active switch. */
export function CronsPage({ teamId }: { teamId: string }) {
  const client = useTeamClient(teamId);
  const { pathname, query } = useLocation();
  const active = query.get('is_active');
  const isActive = active === 'true' ? true : active === 'false' ? false : undefined;
  const page = Math.max(0, Number(query.get('page') ?? 0) || 0);
  const [actionError, setActionError] = useState<ApiError>();
  useTeamTitle(teamId, 'Crons');

  const load = useCallback(
    (signal: AbortSignal) =>
      client.crons.list(
        { page, limit: PAGE_SIZE, ...(isActive === undefined ? {} : { is_active: isActive }) },
        { signal },
      ),
    [client, page, isActive],
  );
  const crons = useLoad(load);

  const go = (next: { is_active?: string; page?: number }) => {
    const params = new URLSearchParams();
    const filter = 'is_active' in next ? next.is_active : (active ?? '');
    if (filter) params.set('is_active', filter);
    if (next.page) params.set('page', String(next.page));
    navigate(params.size ? `${pathname}?${params.toString()}` : pathname);
  };

  const toggle = (cron: Cron) => {
    setActionError(undefined);
    client.crons
      .patch(cron.id, { is_active: !cron.is_active })
      .then(crons.reload, (error: unknown) => setActionError(toApiError(error)));
  };
  // "Run now": one event from the cron's definition, due at once; its page shows how it went.
  const runNow = (cron: Cron) => {
    setActionError(undefined);
    client.crons.trigger(cron.id).then(
      (event) => navigate(`/t/${teamId}/events/${event.id}`),
      (error: unknown) => setActionError(toApiError(error)),
    );
  };
  const remove = async (cron: Cron) => {
    await client.crons.delete(cron.id).catch((error: unknown) => Promise.reject(toApiError(error)));
    crons.reload();
  };

  const data = crons.data;
  return (
    <section className="page">
      <header className="page-header">
        <h1>Crons</h1>
        <Link className="btn btn-primary" to={`/t/${teamId}/crons/new`}>
          New cron
        </Link>
      </header>
      <div className="toolbar">
        <Segmented
          label="Active"
          options={FILTERS}
          value={active ?? ''}
          onChange={(value) => go({ is_active: value })}
        />
      </div>
      <ErrorBanner error={crons.error ?? actionError} />
      {!data ? (
        crons.error ? null : (
          <Loading />
        )
      ) : data.data.length === 0 ? (
        isActive === undefined ? (
          <EmptyState
            title="No crons yet"
            action={
              <Link className="btn btn-primary" to={`/t/${teamId}/crons/new`}>
                Create your first cron
              </Link>
            }
          >
            <p>
              A cron calls a webhook on a schedule — every 5 minutes, every weekday at 09:00 in Paris, the
              last weekday of the month — and each call becomes an event you can inspect.
            </p>
          </EmptyState>
        ) : (
          <EmptyState title={`No ${isActive ? 'active' : 'paused'} crons`}>
            <p>Try another filter.</p>
          </EmptyState>
        )
      ) : (
        <>
          <table className="table crons-table">
            <thead>
              <tr>
                <th>Schedule</th>
                <th>Request</th>
                <th>Runs</th>
                <th>Active</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((cron) => (
                <tr key={cron.id} data-testid="cron-row">
                  <td data-label="Schedule">
                    <Link to={`/t/${teamId}/crons/${cron.id}`} className="mono">
                      {cron.cron_expression}
                    </Link>
                    <div className="muted small">{cron.timezone ?? 'UTC'}</div>
                  </td>
                  <td data-label="Request" className="cell-url">
                    <span className="method">{cron.method}</span>{' '}
                    <span className="url">{cron.webhook_url}</span>
                  </td>
                  <td data-label="Runs" className="small">
                    <CronRuns cron={cron} />
                  </td>
                  <td data-label="Active">
                    <label className="switch">
                      <input
                        type="checkbox"
                        role="switch"
                        checked={cron.is_active}
                        onChange={() => toggle(cron)}
                      />
                      <span>{cron.is_active ? 'Active' : 'Paused'}</span>
                    </label>
                  </td>
                  <td className="row-actions">
                    <button type="button" className="btn btn-small" onClick={() => runNow(cron)}>
                      Run now
                    </button>
                    <Link className="btn btn-small" to={`/t/${teamId}/events?cron_id=${cron.id}`}>
                      Events
                    </Link>
                    <ConfirmButton
                      small
                      label="Delete"
                      title="Delete this cron?"
                      confirmLabel="Delete cron"
                      onConfirm={() => remove(cron)}
                    >
                      <p>
                        <code>{cron.cron_expression}</code> stops firing, and <strong>all its events</strong>{' '}
                        are deleted with it, past ones included. This cannot be undone.
                      </p>
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination pagination={data.pagination} onPage={(next) => go({ page: next })} />
        </>
      )}
    </section>
  );
}

/** When the cron runs next, how its last occurrence ended, its failure streak, and why it is paused. */
function CronRuns({ cron }: { cron: Cron }) {
  return (
    <>
      {cron.paused_reason === 'failures' ? (
        <div className="paused-banner" role="status">
          Paused after {cron.consecutive_failures} failed runs in a row
        </div>
      ) : null}
      <div>
        Next: {cron.next_run_at ? formatRelative(cron.next_run_at) : <span className="muted">none</span>}
      </div>
      <div>
        Last:{' '}
        {cron.last_run_at ? (
          <>
            {formatRelative(cron.last_run_at)}, {cron.last_status}
          </>
        ) : (
          <span className="muted">never</span>
        )}
      </div>
      {cron.consecutive_failures > 0 ? (
        <div className="failure-streak">
          {cron.consecutive_failures} failure{cron.consecutive_failures === 1 ? '' : 's'} in a row
          {cron.pause_after_failures ? ` (pauses at ${cron.pause_after_failures})` : ''}
        </div>
      ) : null}
    </>
  );
}
