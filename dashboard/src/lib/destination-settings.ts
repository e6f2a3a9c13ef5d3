import { DestinationPatch as PatchSchema } from '@webhook-scheduler/contract';
import type { Destination, DestinationPatch, RateLimitPer } from '@webhook-scheduler/sdk';
import type { EventReplayFilter as ReplayFilter } from '@webhook-scheduler/sdk';
import { fromLocalInput } from './format.js';

/** The settings form as typed: `per` empty for no rate limit, `maxInFlight` empty for the service's limit. */
export interface SettingsForm {
  requests: string;
  per: RateLimitPer | '';
  maxInFlight: string;
}

/** Problems found before sending, keyed by the API's field paths (`rate_limit.requests`). */
export type Problems = Record<string, string>;

const DEFAULT_REQUESTS = '10';

/** The form showing a destination's current settings. */
export function settingsFormOf(destination: Pick<Destination, 'rate_limit' | 'max_in_flight'>): SettingsForm {
  return {
    requests: destination.rate_limit ? String(destination.rate_limit.requests) : DEFAULT_REQUESTS,
    per: destination.rate_limit?.per ?? '',
    maxInFlight: destination.max_in_flight === null ? '' : String(destination.max_in_flight),
  };
}

const wholeNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined);

/**
 * The PATCH body that sets the form's rate limit and most calls at once (an empty choice clears
 * one), or the problems to fix first: what the API's schema would refuse, in its own words.
 */
export function settingsPatchOf(form: SettingsForm): { body: DestinationPatch } | { problems: Problems } {
  const problems: Problems = {};
  const requests = wholeNumber(form.requests);
  if (form.per !== '' && requests === undefined) problems['rate_limit.requests'] = 'Enter a whole number';
  const maxInFlight = form.maxInFlight.trim() === '' ? null : wholeNumber(form.maxInFlight);
  if (maxInFlight === undefined) problems.max_in_flight = 'Enter a whole number, or leave it empty';
  if (Object.keys(problems).length > 0) return { problems };

  const body: DestinationPatch = {
    rate_limit: form.per === '' ? null : { requests: requests ?? 0, per: form.per },
    max_in_flight: maxInFlight ?? null,
  };
  const checked = PatchSchema.safeParse(body);
  if (checked.success) return { body };
  for (const issue of checked.error.issues) problems[issue.path.join('.')] ??= issue.message;
  return { problems };
}

/** The filter replaying the origin's failed events scheduled after `since` (a datetime-local value). */
export function failedReplayOf(
  origin: string,
  since: string,
): { body: ReplayFilter } | { problems: Problems } {
  const after = fromLocalInput(since);
  if (after === undefined) return { problems: { scheduled_after: 'Enter a date and time' } };
  return { body: { status: 'failed', destination: origin, scheduled_after: after } };
}
