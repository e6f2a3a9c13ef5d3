import type { MikroORM } from '@mikro-orm/postgresql';
import { Timers } from '@webhook-scheduler/scheduler';
import { type StoredEvent, describeDeliverySemantics } from '@webhook-scheduler/scheduler/testing';
import { afterAll, beforeAll } from 'vitest';
import { makeCron, makeEvent } from '../../test/factories.js';
import { type TestDatabase, createTestDatabase } from '../../test/harness.js';
import { createOrm } from '../db/orm.js';
import { asDate, asDateOrNull, rawQuery } from '../shared/raw-query.js';
import { shownStatus } from '../events/store/event-row.js';
import { createEventStore } from './event-store.js';

let db: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await createOrm(db.connection, 4);
});

afterAll(async () => {
  await orm.close();
  await db.drop();
});

interface Row {
  status: StoredEvent['status'];
  retry_of: string | null;
  attempt: number;
  scheduled_at: string;
  lease_token: string | null;
  lease_owner: number | null;
  lease_expires_at: string | null;
  claim_count: number;
  executed_at: string | null;
  response_status: number | null;
  response_error: string | null;
}

async function read(id: string): Promise<StoredEvent | undefined> {
  const [row] = await rawQuery<Row>(
    orm.em.fork(),
    `select ${shownStatus('e')} as status,
            e.retry_of, e.attempt, e.scheduled_at, q.lease_token, q.lease_owner, q.lease_expires_at,
            coalesce(q.claim_count, e.claim_count) as claim_count, e.executed_at, e.response_status, e.response_error
     from events e left join event_queue q on q.event_id = e.id where e.id = $1`,
    [id],
  );
  return (
    row && {
      status: row.status,
      retryOf: row.retry_of,
      attempt: row.attempt,
      scheduledAt: asDate(row.scheduled_at),
      leaseToken: row.lease_token,
      leaseOwner: row.lease_owner,
      leaseExpiresAt: asDateOrNull(row.lease_expires_at),
      claimCount: row.claim_count,
      executedAt: asDateOrNull(row.executed_at),
      responseStatus: row.response_status,
      responseError: row.response_error,
    }
  );
}

async function ensureTeams(ids: string[]): Promise<void> {
  await rawQuery(
    orm.em.fork(),
    `insert into teams (id, name, signing_secret, created_at, updated_at)
     select id, 'semantics', 'whsec_semantics', now(), now() from unnest($1::uuid[]) as t(id)
     on conflict do nothing`,
    [[...new Set(ids)]],
  );
}

// The store reads the database clock, which only real time moves: time passes by waiting.
describeDeliverySemantics('PostgreSQL', async () => {
  const em = orm.em.fork();
  await rawQuery(em, 'truncate events, teams cascade');
  return {
    store: createEventStore(orm, new Timers({ shards: 1 }), { circuitFailures: 10 }),
    seed: async (events) => {
      await ensureTeams(events.map((event) => event.teamId));
      for (const event of events) await makeEvent(em, event.teamId, event);
    },
    seedCrons: async (crons) => {
      await ensureTeams(crons.map((cron) => cron.teamId));
      for (const cron of crons) await makeCron(em, cron.teamId, cron);
    },
    read,
    now: () => new Date(),
    advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    close: () => Promise.resolve(),
  };
});
