import type { Cron } from '@webhook-scheduler/sdk';
import { type SubmitEvent, useCallback, useState } from 'react';
import { useTeamClient } from '../api/client.js';
import { ApiError, fieldError, formBanner, isNotFound, toApiError } from '../api/errors.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { CronPreview, currentProblems, useSchedulePreview } from '../components/cron-preview.js';
import { ErrorBanner, Loading } from '../components/feedback.js';
import { Field } from '../components/field.js';
import { RequestFieldsEditor } from '../components/request-fields-editor.js';
import { TimeZoneField } from '../components/time-zone-field.js';
import { SCHEDULE_EXAMPLES } from '../lib/cron-fields.js';
import { viewerTimeZone } from '../lib/format.js';
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
const SHOWN_FIELDS = [
  'cron_expression',
  'timezone',
  'webhook_url',
  'method',
  'payload',
  'headers',
  'retry_config',
];

/** Creating a cron, or editing one (a save replaces its pending events). */
export function CronFormPage({ teamId, cronId }: { teamId: string; cronId?: string }) {
  const client = useTeamClient(teamId);
  const load = useCallback(
    (signal: AbortSignal) => (cronId ? client.crons.get(cronId, { signal }) : Promise.resolve(undefined)),
    [client, cronId],
  );
  const existing = useLoad<Cron | undefined>(load);
  const title = cronId ? `Cron ${existing.data?.cron_expression ?? ''}`.trim() : 'New cron';
  useTeamTitle(teamId, isNotFound(existing.error) ? null : title);
  if (isNotFound(existing.error)) return <NotFound what="cron" teamId={teamId} />;
  if (cronId && !existing.data) return existing.error ? <ErrorBanner error={existing.error} /> : <Loading />;
  return <CronForm teamId={teamId} existing={existing.data} />;
}

function CronForm({ teamId, existing }: { teamId: string; existing: Cron | undefined }) {
  const client = useTeamClient(teamId);
  const [fields, setFields] = useState<RequestFields>(() =>
    existing ? requestFieldsOf(existing) : emptyRequestFields(),
  );
  const [expression, setExpression] = useState(existing?.cron_expression ?? '*/5 * * * *');
  const [timezone, setTimezone] = useState(existing ? (existing.timezone ?? '') : viewerTimeZone());
  const [active, setActive] = useState(existing?.is_active ?? true);
  const [apiError, setApiError] = useState<ApiError>();
  // Problems found before sending: the request is not sent, so the preview's check of the
  // schedule stands in for the API's and shows with them (as soon as it is up to date).
  const [localProblems, setLocalProblems] = useState<Record<string, string>>();
  const [busy, setBusy] = useState(false);
  const preview = useSchedulePreview(expression, timezone);
  // The preview checks the schedule as one types: its problems show under their fields, once.
  const upToDate = Object.keys(currentProblems(preview, expression, timezone)).length > 0;
  const live = upToDate ? preview.result.error : undefined;
  const reading = preview.expression === expression.trim() ? preview.result.data?.description : undefined;
  const error = localProblems
    ? new ApiError('Fix the fields marked below.', 400, 'VALIDATION_ERROR', {
        ...currentProblems(preview, expression, timezone),
        ...localProblems,
      })
    : apiError;

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const request = requestBodyOf(fields);
    if ('problems' in request) {
      setLocalProblems(request.problems);
      return;
    }
    setLocalProblems(undefined);
    setBusy(true);
    const input = {
      ...request.body,
      cron_expression: expression,
      timezone: timezone.trim() === '' ? null : timezone.trim(),
      is_active: active,
      // The form does not edit timeout_ms: a PUT (a full replacement) keeps the cron's own.
      timeout_ms: existing?.timeout_ms ?? null,
    };
    const saved = existing ? client.crons.update(existing.id, input) : client.crons.create(input);
    saved.then(
      () => navigate(`/t/${teamId}/crons`),
      (failure: unknown) => {
        setBusy(false);
        setApiError(toApiError(failure));
      },
    );
  };
  const remove = async () => {
    if (!existing) return;
    await client.crons.delete(existing.id).catch((failure: unknown) => Promise.reject(toApiError(failure)));
    navigate(`/t/${teamId}/crons`);
  };

  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to={`/t/${teamId}/crons`}>Crons</Link> /
      </p>
      <header className="page-header">
        <h1>{existing ? 'Edit cron' : 'New cron'}</h1>
        {existing ? (
          <div className="actions">
            <Link className="btn" to={`/t/${teamId}/events?cron_id=${existing.id}`}>
              Its events
            </Link>
            <ConfirmButton
              label="Delete"
              title="Delete this cron?"
              confirmLabel="Delete cron"
              onConfirm={remove}
            >
              <p>It stops firing, and all its events are deleted with it. This cannot be undone.</p>
            </ConfirmButton>
          </div>
        ) : null}
      </header>
      <form className="columns columns-form" onSubmit={submit} noValidate>
        <div className="span-all">
          <ErrorBanner error={formBanner(error, SHOWN_FIELDS)} />
        </div>
        <section className="card" aria-labelledby="schedule-title">
          <h2 id="schedule-title">Schedule</h2>
          <Field
            label="Cron expression"
            error={fieldError(error, 'cron_expression') ?? fieldError(live, 'cron_expression')}
            hint="5 fields (minute hour day month weekday), or 6 with seconds first; L, W, # and @daily-style nicknames work."
          >
            {(props) => (
              <input
                {...props}
                className="mono"
                spellCheck={false}
                autoCapitalize="off"
                value={expression}
                onChange={(e) => setExpression(e.target.value)}
              />
            )}
          </Field>
          <p className="cron-reading" data-testid="cron-reading" aria-live="polite">
            {reading ? (
              <>
                {reading}
                <span className="muted">{timezone.trim() ? ` (${timezone.trim()} time)` : ' (UTC)'}</span>
              </>
            ) : null}
          </p>
          <div className="chips" aria-label="Examples">
            {SCHEDULE_EXAMPLES.map(([example, meaning]) => (
              <button
                key={example}
                type="button"
                className="chip-button"
                onClick={() => setExpression(example)}
                title={example}
              >
                {meaning}
              </button>
            ))}
          </div>
          <TimeZoneField
            value={timezone}
            onChange={setTimezone}
            error={fieldError(error, 'timezone') ?? fieldError(live, 'timezone')}
          />
          <CronPreview preview={preview} />
        </section>
        <section className="card" aria-labelledby="request-title">
          <h2 id="request-title">Request</h2>
          <RequestFieldsEditor fields={fields} onChange={setFields} error={error} />
          <label className="check">
            <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
            Active (a paused cron keeps its settings and fires nothing)
          </label>
          {existing ? (
            <p className="muted small">
              Saving replaces the cron’s pending events with ones from the new schedule.
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? 'Saving…' : existing ? 'Save changes' : 'Create cron'}
            </button>
            <Link className="btn" to={`/t/${teamId}/crons`}>
              Cancel
            </Link>
          </div>
        </section>
      </form>
    </section>
  );
}
