import type { Destination } from '@webhook-scheduler/sdk';
import { useCallback, useState } from 'react';
import { useTeamClient } from '../api/client.js';
import { type ApiError, isNotFound, toApiError } from '../api/errors.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { CircuitBadge, PausedBadge } from '../components/destination-badges.js';
import { DestinationSettingsCard } from '../components/destination-settings-card.js';
import { LastCall } from '../components/destinations-table.js';
import { ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { ReplayFailedCard } from '../components/replay-failed-card.js';
import { eventsOfDestinationPath, failureRate, settingsSummary } from '../lib/destination-figures.js';
import { formatInstant } from '../lib/format.js';
import { formatCount } from '../lib/overview-figures.js';
import { useTeamTitle } from '../lib/page-title.js';
import { countOf } from '../lib/plural.js';
import { Link } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';
import { NotFound } from './not-found.js';

const REFRESH_MS = 5000;

function Facts({ destination }: { destination: Destination }) {
  const rate = failureRate(destination);
  return (
    <dl className="facts" data-testid="destination-facts">
      <div>
        <dt>Last 24 hours</dt>
        <dd>
          {formatCount(destination.calls_24h)} calls, {formatCount(destination.failures_24h)} failed
          {rate ? <span className="muted"> ({rate})</span> : null}
        </dd>
      </div>
      <div>
        <dt>Last call</dt>
        <dd>
          <LastCall destination={destination} />
        </dd>
      </div>
      <div>
        <dt>Waiting</dt>
        <dd>
          {formatCount(destination.pending)} pending · {formatCount(destination.in_flight)} in flight
        </dd>
      </div>
      <div>
        <dt>Circuit</dt>
        <dd>
          <CircuitBadge destination={destination} />
        </dd>
      </div>
      <div>
        <dt>Settings</dt>
        <dd data-testid="settings-summary">{settingsSummary(destination)}</dd>
      </div>
    </dl>
  );
}

/** One origin: its health, the team's settings for it, pause and resume, and replaying its failures. */
export function DestinationPage({ teamId, origin }: { teamId: string; origin: string }) {
  const client = useTeamClient(teamId);
  const load = useCallback(
    (signal: AbortSignal) => client.destinations.get(origin, { signal }),
    [client, origin],
  );
  const destination = useLoad(load, REFRESH_MS);
  const [actionError, setActionError] = useState<ApiError>();
  useTeamTitle(teamId, isNotFound(destination.error) ? null : origin);

  if (isNotFound(destination.error)) return <NotFound what="destination" teamId={teamId} />;
  const data = destination.data;
  if (!data) return destination.error ? <ErrorBanner error={destination.error} /> : <Loading />;

  const setPaused = (paused: boolean) =>
    client.destinations.patch(origin, { paused }).then(
      () => destination.reload(),
      (error: unknown) => Promise.reject(toApiError(error)),
    );
  const resume = () => {
    setActionError(undefined);
    setPaused(false).catch((error: unknown) => setActionError(toApiError(error)));
  };

  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to={`/t/${teamId}/destinations`}>Destinations</Link> /
      </p>
      <header className="page-header">
        <h1 className="event-title">
          <span className="event-title-request url">{data.origin}</span> <PausedBadge destination={data} />
        </h1>
        <div className="actions">
          <Link className="btn" to={eventsOfDestinationPath(teamId, data.origin)}>
            Its events
          </Link>
          {data.paused ? (
            <button type="button" className="btn btn-primary" onClick={resume}>
              Resume
            </button>
          ) : (
            <ConfirmButton
              label="Pause"
              title="Pause calls to this origin?"
              confirmLabel="Pause calls"
              onConfirm={() => setPaused(true)}
            >
              <p>
                No call of the team starts to <strong>{data.origin}</strong> until you resume; calls under way
                finish. Its events wait pending — none fails or spends an attempt — and are sent in order on
                resume.
              </p>
            </ConfirmButton>
          )}
        </div>
      </header>
      <ErrorBanner error={destination.error} title="Could not refresh:" />
      <ErrorBanner error={actionError} title="Could not resume:" />
      {data.paused ? (
        <Notice tone="warning">
          Paused: no call starts to this origin; {countOf(data.pending, 'event')} waiting.
        </Notice>
      ) : null}
      {data.retry_after_until ? (
        <Notice tone="warning">
          The origin asked for time (Retry-After): no call starts before{' '}
          {formatInstant(data.retry_after_until)}.
        </Notice>
      ) : null}
      <Facts destination={data} />
      <div className="columns">
        <DestinationSettingsCard teamId={teamId} destination={data} onSaved={destination.reload} />
        <ReplayFailedCard teamId={teamId} origin={data.origin} />
      </div>
    </section>
  );
}
