import { useTitle } from '../lib/page-title.js';
import { Link } from '../lib/router.js';

const WORDS = {
  page: { title: 'Page not found', body: 'Nothing lives at this address.' },
  team: {
    title: 'Team not found',
    body: 'You are not a member of this team, or it does not exist. Ask one of its owners to add you.',
  },
  event: {
    title: 'Event not found',
    body: 'This team has no event with this id. It may have been deleted (the events of a cron go with it), or the address is mistyped.',
  },
  cron: {
    title: 'Cron not found',
    body: 'This team has no cron with this id. It may have been deleted, or the address is mistyped.',
  },
  destination: {
    title: 'Destination not found',
    body: 'This team has never called this origin nor set anything for it, or the address is mistyped.',
  },
} as const;

/** An address that names no page, a team the user is not in, or an event, cron or destination that does not exist. */
export function NotFound({ what, teamId }: { what: keyof typeof WORDS; teamId?: string }) {
  const { title, body } = WORDS[what];
  useTitle(title);
  const back =
    teamId && (what === 'event' || what === 'cron' || what === 'destination')
      ? { to: `/t/${teamId}/${what}s`, label: `Back to the ${what}s` }
      : { to: '/', label: 'Go to your dashboard' };
  return (
    <section className="page narrow not-found" data-testid="not-found">
      <h1>{title}</h1>
      <p>{body}</p>
      <p>
        <Link className="btn" to={back.to}>
          {back.label}
        </Link>
      </p>
    </section>
  );
}
