import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unmigratedDatabase } from '../../../test/unmigrated-database.js';
import { shownStatus } from '../../events/store/event-row.js';

const { orm, sql, addTeam } = unmigratedDatabase('wst_queue', 2);

describe('the event_queue migration', () => {
  it('queues pending events, moves leases in flight, and leaves the rest', async () => {
    await orm().migrator.up({ to: 'Migration20261125020000_pending_quota_function' });
    const team = await addTeam();
    const [pending, inFlight, awaitingRetries, done] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    const lease = randomUUID();
    const expires = new Date(Date.now() + 60_000);
    await sql(
      `insert into events (id, team_id, attempt, scheduled_at, status, webhook_url, method, lease_token, lease_owner,
                           lease_expires_at, claim_count, created_at, updated_at)
       values ($1, $5, 0, now() + interval '1 hour', 'pending', 'https://example.com/a', 'POST', null, null, null, 0, now(), now()),
              ($2, $5, 0, now(), 'processing', 'https://example.com:8443/b', 'POST', $6, 7, $7, 2, now(), now()),
              ($3, $5, 0, now(), 'processing', 'https://example.com/c', 'POST', null, null, null, 1, now(), now()),
              ($4, $5, 0, now(), 'success', 'https://example.com/d', 'POST', null, null, null, 1, now(), now())`,
      [pending, inFlight, awaitingRetries, done, team, lease, expires],
    );

    await orm().migrator.up({ to: 'Migration20261125030000_event_queue' });

    const queue = await sql<Record<string, unknown>>(
      `select event_id, destination, lease_token, lease_owner, lease_expires_at, claim_count
       from event_queue order by lease_token nulls first`,
    );
    expect(queue).toEqual([
      {
        event_id: pending,
        destination: 'example.com',
        lease_token: null,
        lease_owner: null,
        lease_expires_at: null,
        claim_count: 0,
      },
      {
        event_id: inFlight,
        destination: 'example.com:8443',
        lease_token: lease,
        lease_owner: 7,
        lease_expires_at: expect.anything(),
        claim_count: 2,
      },
    ]);
    // The status as the API reads it; not a whole row, whose columns later migrations add to.
    const shown = async (id: string) =>
      (
        await sql<{ status: string }>(`select ${shownStatus('events')} as status from events where id = $1`, [
          id,
        ])
      )[0]?.status;
    expect(await shown(pending)).toBe('pending');
    expect(await shown(inFlight)).toBe('processing');
    expect(await shown(awaitingRetries)).toBe('processing');
    expect(await shown(done)).toBe('success');
    const [stored] = await sql<{ status: string }>('select status from events where id = $1', [inFlight]);
    expect(stored?.status).toBe('pending');
  });
});
