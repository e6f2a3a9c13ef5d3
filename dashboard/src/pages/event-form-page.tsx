import type { Event } from '@webhook-scheduler/sdk';
import { type SubmitEvent, useCallback, useState } from 'react';
import { useTeamClient } from '../api/client.js';
import { ApiError, fieldError, formBanner, isNotFound, toApiError } from '../api/errors.js';
import { ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { Field } from '../components/field.js';
import { RequestFieldsEditor } from '../components/request-fields-editor.js';
import { canEdit } from '../lib/event-actions.js';
import { fromLocalInput, toLocalInput, viewerTimeZone } from '../lib/format.js';
import {
  type RequestFields,
  emptyRequestFields,
  requestBodyOf,
  requestFieldsOf,
} from '../lib/request-fields.js';
import { useTeamTitle } from '../lib/page-title.js';
import { Link, navigate } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';
import { NotFound } from './not-found.js';

/** The fields the form shows: a problem of any other is spelled out in the banner. */
const SHOWN_FIELDS = ['scheduled_at', 'webhook_url', 'method', 'payload', 'headers', 'retry_config'];

/** Scheduling a new event, or editing a pending one. */
export function EventFormPage({ teamId, eventId }: { teamId: string; eventId?: string }) {
  const client = useTeamClient(teamId);
  const load = useCallback(
    (signal: AbortSignal) => (eventId ? client.events.get(eventId, { signal }) : Promise.resolve(undefined)),
    [client, eventId],
  );
  const existing = useLoad<Event | undefined>(load);
  useTeamTitle(teamId, isNotFound(existing.error) ? null : eventId ? 'Edit event' : 'Schedule an event');
  if (isNotFound(existing.error)) return <NotFound what="event" teamId={teamId} />;
  if (eventId && !existing.data) return existing.error ? <ErrorBanner error={existing.error} /> : <Loading />;
  if (existing.data && !canEdit(existing.data)) {
    return (
      <section className="page narrow">
        <h1>Edit event</h1>
        <Notice tone="warning">
          Only pending events can be edited; this one is {existing.data.status}.{' '}
          <Link to={`/t/${teamId}/events/${existing.data.id}`}>Back to the event</Link>
        </Notice>
      </section>
    );
  }
  return <EventForm teamId={teamId} existing={existing.data} />;
}

function EventForm({ teamId, existing }: { teamId: string; existing: Event | undefined }) {
  const client = useTeamClient(teamId);
  const [fields, setFields] = useState<RequestFields>(() =>
    existing ? requestFieldsOf(existing) : emptyRequestFields(),
  );
  const [when, setWhen] = useState(() =>
    toLocalInput(existing ? new Date(existing.scheduled_at) : new Date(Date.now() + 60_000)),
  );
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const request = requestBodyOf(fields);
    const scheduledAt = fromLocalInput(when);
    const problems = { ...('problems' in request ? request.problems : {}) };
    if (!scheduledAt) problems.scheduled_at = 'pick a date and time';
    if ('problems' in request || !scheduledAt) {
      setError(new ApiError('Fix the fields marked below.', 400, 'VALIDATION_ERROR', problems));
      return;
    }
    setBusy(true);
    // The form does not edit timeout_ms: a PUT (a full replacement) keeps the event's own.
    const input = { ...request.body, scheduled_at: scheduledAt, timeout_ms: existing?.timeout_ms ?? null };
    const saved = existing ? client.events.update(existing.id, input) : client.events.create(input);
    saved.then(
      (result) => navigate(`/t/${teamId}/events/${result.id}`),
      (failure: unknown) => {
        setBusy(false);
        setError(toApiError(failure));
      },
    );
  };

  const back = existing ? `/t/${teamId}/events/${existing.id}` : `/t/${teamId}/events`;
  return (
    <section className="page narrow">
      <p className="breadcrumb">
        <Link to={`/t/${teamId}/events`}>Events</Link> /
      </p>
      <h1>{existing ? 'Edit event' : 'Schedule an event'}</h1>
      <p className="muted">One webhook call at a time you choose. Its outcome is recorded on the event.</p>
      <form className="form card" onSubmit={submit} noValidate>
        <ErrorBanner error={formBanner(error, SHOWN_FIELDS)} />
        <Field
          label="When"
          error={fieldError(error, 'scheduled_at')}
          hint={`In your time zone (${viewerTimeZone()}). Must be in the future.`}
        >
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              step={1}
              required
              value={when}
              onChange={(e) => setWhen(e.target.value)}
            />
          )}
        </Field>
        <RequestFieldsEditor fields={fields} onChange={setFields} error={error} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : existing ? 'Save changes' : 'Schedule event'}
          </button>
          <Link className="btn" to={back}>
            Cancel
          </Link>
        </div>
      </form>
    </section>
  );
}
