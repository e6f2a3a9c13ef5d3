import type { Event } from '@webhook-scheduler/sdk';
import type { ApiError } from '../api/errors.js';
import { formatDuration, formatShort } from '../lib/format.js';
import { Link } from '../lib/router.js';
import { ErrorBanner, Loading } from './feedback.js';
import { HttpStatus, StatusBadge } from './status-badge.js';

/** Every attempt of one delivery, first to last. */
export function AttemptsTimeline({
  teamId,
  currentId,
  attempts,
  error,
}: {
  teamId: string;
  currentId: string;
  attempts: Event[] | undefined;
  error: ApiError | undefined;
}) {
  return (
    <section className="card" aria-labelledby="attempts-title">
      <h2 id="attempts-title">Attempts</h2>
      <ErrorBanner error={error} />
      {!attempts ? (
        error ? null : (
          <Loading />
        )
      ) : (
        <ol className="timeline" data-testid="attempts">
          {attempts.map((attempt, index) => (
            <li key={attempt.id} className={`timeline-item timeline-${attempt.status}`}>
              <div className="timeline-head">
                <strong>{index === 0 ? 'First attempt' : `Retry ${index}`}</strong>
                <StatusBadge status={attempt.status} />
                {attempt.id === currentId ? (
                  <span className="muted small">this event</span>
                ) : (
                  <Link to={`/t/${teamId}/events/${attempt.id}`} className="small">
                    open
                  </Link>
                )}
              </div>
              <div className="timeline-body small">
                {attempt.executed_at ? (
                  <>
                    called {formatShort(attempt.executed_at)} ·{' '}
                    <HttpStatus status={attempt.response_status} />
                    {attempt.response_duration !== null
                      ? ` · ${formatDuration(attempt.response_duration)}`
                      : ''}
                    {attempt.response_error ? (
                      <div className="error-text">{attempt.response_error}</div>
                    ) : null}
                  </>
                ) : (
                  <>scheduled {formatShort(attempt.scheduled_at)}</>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
