import { Link } from '../lib/router.js';
import { KeyCreator } from './key-creator.js';

/** The first thing a new team sees: a key and a first webhook, two steps. */
export function GetStarted({
  teamId,
  onKeyCreated,
  onDismiss,
}: {
  teamId: string;
  onKeyCreated?: () => void;
  onDismiss?: (() => void) | undefined;
}) {
  return (
    <section className="get-started" aria-labelledby="get-started-title">
      <div className="page-header">
        <h2 id="get-started-title">Send your first webhook</h2>
        {onDismiss ? (
          <button type="button" className="btn btn-small btn-ghost" onClick={onDismiss}>
            Hide
          </button>
        ) : null}
      </div>
      <p>
        Events are the webhook calls of your team: the one-time ones you schedule, and the ones your crons
        create. Each one records what the endpoint answered.
      </p>
      <ol className="steps">
        <li>
          <h3>Create an API key</h3>
          <p className="muted">
            Your code schedules webhooks with it, through the REST API or the TypeScript SDK.
          </p>
          <KeyCreator
            teamId={teamId}
            defaultName="My first key"
            {...(onKeyCreated ? { onCreated: onKeyCreated } : {})}
          />
        </li>
        <li>
          <h3>Schedule an event</h3>
          <p className="muted">
            Run the command your new key comes with, or{' '}
            <Link to={`/t/${teamId}/events/new`}>schedule one from here</Link>. It shows up below within
            seconds.
          </p>
        </li>
      </ol>
    </section>
  );
}
