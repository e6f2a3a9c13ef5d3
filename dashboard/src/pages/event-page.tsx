import type { Event } from '@webhook-scheduler/sdk';
import { useCallback, useEffect, useState } from 'react';
import { useTeamClient } from '../api/client.js';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { type ApiError, isNotFound, toApiError } from '../api/errors.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { CopyButton } from '../components/copy-button.js';
import { ErrorBanner, Loading } from '../components/feedback.js';
import { AttemptsTimeline } from '../components/attempts-timeline.js';
import { RequestSummary, ResponseSummary } from '../components/event-details.js';
import { StatusBadge } from '../components/status-badge.js';
import { canEdit, deleteBlocker } from '../lib/event-actions.js';
import { formatInstant, formatRelative } from '../lib/format.js';
import { useTeamTitle } from '../lib/page-title.js';
import { Link, navigate } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';
import { NotFound } from './not-found.js';

const LIVE_MS = 2000;
const isLive = (event: Event | undefined) => event?.status === 'pending' || event?.status === 'processing';

/** One event: its request, the answer it got, and every attempt of its delivery. */
export function EventPage({ teamId, eventId }: { teamId: string; eventId: string }) {
  const client = useTeamClient(teamId);
  const loadEvent = useCallback(
    (signal: AbortSignal) => client.events.get(eventId, { signal }),
    [client, eventId],
  );
  // Refreshes while the delivery is under way, and stops once it ended.
  const [live, setLive] = useState(true);
  const [replayError, setReplayError] = useState<ApiError>();
  const event = useLoad(loadEvent, live ? LIVE_MS : false);
  useEffect(() => {
    if (event.data) setLive(isLive(event.data));
    else if (isNotFound(event.error)) setLive(false);
  }, [event.data, event.error]);
  const loadAttempts = useCallback(
    (signal: AbortSignal) =>
      unwrap(dashboardApi.insights.attempts({ params: { teamId, eventId }, fetchOptions: { signal } }), 200),
    [teamId, eventId],
  );
  const attempts = useLoad(loadAttempts, live ? LIVE_MS : false);
  const { reload: reloadAttempts } = attempts;
  const updatedAt = event.data?.updated_at;
  useEffect(() => {
    if (updatedAt) reloadAttempts();
  }, [updatedAt, reloadAttempts]);

  const status = event.data?.status;
  const title = status ? `${status.charAt(0).toUpperCase()}${status.slice(1)} event` : 'Event';
  useTeamTitle(teamId, isNotFound(event.error) ? null : title);

  if (isNotFound(event.error)) return <NotFound what="event" teamId={teamId} />;
  if (!event.data) return event.error ? <ErrorBanner error={event.error} /> : <Loading />;
  const data = event.data;
  const blocker = deleteBlocker(data);
  const replay = () => {
    setReplayError(undefined);
    client.events.replay(data.id).then(
      (created) => navigate(`/t/${teamId}/events/${created.id}`),
      (error: unknown) => setReplayError(toApiError(error)),
    );
  };
  const remove = async () => {
    await client.events.delete(data.id).catch((error: unknown) => Promise.reject(toApiError(error)));
    navigate(`/t/${teamId}/events`);
  };

  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to={`/t/${teamId}/events`}>Events</Link> /
      </p>
      <header className="page-header">
        <h1 className="event-title">
          <StatusBadge status={data.status} />
          <span className="visually-hidden"> event: </span>
          <span className="event-title-request">
            <span className="method">{data.method}</span> <span className="url">{data.webhook_url}</span>
          </span>
        </h1>
        <div className="actions">
          {data.status === 'success' || data.status === 'failed' ? (
            <button type="button" className="btn" onClick={replay}>
              Replay
            </button>
          ) : null}
          {canEdit(data) ? (
            <Link className="btn" to={`/t/${teamId}/events/${data.id}/edit`}>
              Edit
            </Link>
          ) : null}
          {blocker ? null : (
            <ConfirmButton
              label="Delete"
              title="Delete this event?"
              confirmLabel="Delete event"
              onConfirm={remove}
            >
              <p>
                It will not be called, and its record and retry attempts are deleted. This cannot be undone.
              </p>
            </ConfirmButton>
          )}
        </div>
      </header>
      <ErrorBanner error={event.error} title="Could not refresh:" />
      <ErrorBanner error={replayError} title="Could not replay:" />
      <div className="columns">
        <ResponseSummary event={data} />
        <RequestSummary event={data} />
      </div>
      <dl className="facts">
        <div>
          <dt>Id</dt>
          <dd className="mono">
            {data.id} <CopyButton text={data.id} />
          </dd>
        </div>
        <div>
          <dt>Scheduled</dt>
          <dd>
            {formatInstant(data.scheduled_at)}{' '}
            <span className="muted">({formatRelative(data.scheduled_at)})</span>
          </dd>
        </div>
        {data.cron_id ? (
          <div>
            <dt>Created by</dt>
            <dd>
              <Link to={`/t/${teamId}/crons/${data.cron_id}`}>its cron</Link>
            </dd>
          </div>
        ) : null}
        {data.replay_of ? (
          <div>
            <dt>Replay of</dt>
            <dd>
              <Link to={`/t/${teamId}/events/${data.replay_of}`}>the replayed event</Link>
            </dd>
          </div>
        ) : null}
        {data.retry_of ? (
          <div>
            <dt>Retry of</dt>
            <dd>
              <Link to={`/t/${teamId}/events/${data.retry_of}`}>the original event</Link>
            </dd>
          </div>
        ) : null}
        {live ? (
          <div>
            <dt>Live</dt>
            <dd className="muted">This page refreshes until the delivery ends.</dd>
          </div>
        ) : null}
      </dl>
      <AttemptsTimeline teamId={teamId} currentId={data.id} attempts={attempts.data} error={attempts.error} />
    </section>
  );
}
