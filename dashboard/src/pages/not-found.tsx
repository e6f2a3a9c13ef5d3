import { Link } from '../lib/router.js';

/** An address that names no page, or a team the user is not in. */
export function NotFound({ what }: { what: 'page' | 'team' }) {
  return (
    <section className="page narrow">
      <h1>{what === 'team' ? 'Team not found' : 'Page not found'}</h1>
      <p>
        {what === 'team'
          ? 'You are not a member of this team, or it does not exist. Ask one of its owners to add you.'
          : 'Nothing lives at this address.'}
      </p>
      <p>
        <Link to="/">Go to your dashboard</Link>
      </p>
    </section>
  );
}
