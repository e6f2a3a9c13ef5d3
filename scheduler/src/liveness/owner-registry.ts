import pg, { type ClientConfig } from 'pg';
import type { Logger } from 'pino';

/** First key of the two-key advisory locks that scheduler processes hold ("WHS\1"). */
export const LOCK_NAMESPACE = 0x57_48_53_01;
// At most a second apart: after a database outage, deliveries resume within a second of its end.
const RECONNECT_MS = { first: 250, max: 1000 };

/** Registered processes whose advisory lock is held: the live ones. */
const LIVE_PROCESSES = `select p.* from scheduler_processes p
  where exists (
    select 1 from pg_locks l
    where l.locktype = 'advisory' and l.granted and l.database = (select oid from pg_database where datname = current_database())
      and l.classid = ${LOCK_NAMESPACE}::oid and l.objid = p.id::oid and l.objsubid = 2)`;

/**
 * The settings `pool` connects with, password included: pg-pool makes `options.password`
 * non-enumerable (to keep it out of logs), so a spread of `pool.options` silently drops it and
 * every password-authenticated server refuses the connection.
 */
export function poolConnection(pool: pg.Pool): ClientConfig {
  const { password } = pool.options;
  return { ...pool.options, ...(password === undefined ? {} : { password }) };
}

/** The identity a process claims under, and the epoch of its current hold on it. */
export interface Owner {
  id: number;
  epoch: number;
}

/** A registered process whose lock is free: it died (or lost its connection) with leases out. */
export interface DeadOwner {
  id: number;
  /** Its Agenda name, which Agenda writes on the jobs it locks. */
  name: string;
}

/**
 * Each scheduler process registers a row naming it and holds a session-level advisory lock on the
 * row's id for as long as it lives. PostgreSQL frees the lock as soon as the session ends (kill -9,
 * crash), so a free lock tells a dead owner from a slow or stalled one, whose lock stays held.
 * Whoever recovers a dead owner holds that owner's lock meanwhile, so only one does.
 */
export class OwnerRegistry {
  #client: pg.Client | undefined;
  #owner: Owner | undefined;
  #held = false;
  #stopped = false;
  #reconnect: NodeJS.Timeout | undefined;
  #reconnectMs = RECONNECT_MS.first;
  #servedSince = new Date();
  #liveProcesses = 1;

  constructor(
    private readonly connection: ClientConfig,
    private readonly name: string,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.#connect();
  }

  /** The identity to claim under, or undefined while the lock is not held (do not claim then). */
  current(): Owner | undefined {
    return this.#held ? this.#owner : undefined;
  }

  /** Whether the lock held at `epoch` has been held without a break since. */
  holds(epoch: number): boolean {
    return this.#held && this.#owner?.epoch === epoch;
  }

  /** Since when schedulers have run without a break (as of the last {@link refreshPeers}). */
  servedSince(): Date {
    return this.#servedSince;
  }

  /** How many scheduler processes live (as of the last {@link refreshPeers}), this one included. */
  get liveProcesses(): number {
    return this.#liveProcesses;
  }

  /** Reads how many scheduler processes live and since when they have served. */
  async refreshPeers(): Promise<void> {
    const client = this.#client;
    if (!this.#held || !client) return;
    const { rows } = await client.query<{ processes: number; since: Date | null }>(
      `select count(*)::int as processes, min(served_since) as since from (${LIVE_PROCESSES}) live`,
    );
    this.#liveProcesses = Math.max(1, rows[0]?.processes ?? 1);
    if (rows[0]?.since) this.#servedSince = rows[0].since;
  }

  /** Registered owners whose lock is free; each stays locked by this process until {@link release}. */
  async takeDead(): Promise<DeadOwner[]> {
    const client = this.#client;
    if (!this.#held || !client) return [];
    const { rows } = await client.query<DeadOwner & { taken: boolean }>(
      `select id, name, pg_try_advisory_lock($1, id) as taken
       from scheduler_processes where id <> $2`,
      [LOCK_NAMESPACE, this.#owner?.id],
    );
    return rows.filter((row) => row.taken).map(({ id, name }) => ({ id, name }));
  }

  /** Removes recovered owners (or, when their recovery failed, only lets go of their locks). */
  async release(owners: DeadOwner[], { recovered }: { recovered: boolean }): Promise<void> {
    const client = this.#client;
    if (!client || owners.length === 0) return;
    const ids = owners.map((owner) => owner.id);
    if (recovered) await client.query('delete from scheduler_processes where id = any($1)', [ids]);
    await client.query('select pg_advisory_unlock($1, id) from unnest($2::int[]) as id', [
      LOCK_NAMESPACE,
      ids,
    ]);
  }

  /** Deregisters (after the last lease was settled) and closes the connection. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#reconnect);
    const client = this.#client;
    this.#client = undefined;
    this.#held = false;
    if (!client) return;
    await client
      .query('delete from scheduler_processes where id = $1', [this.#owner?.id])
      .catch(() => undefined);
    await client.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ ...this.connection, application_name: 'webhook-scheduler-owner' });
    // The lock lives as long as this session: losing it means others may now recover our leases.
    const lost = (error?: Error) => {
      if (this.#client !== client) return;
      this.#client = undefined;
      this.#held = false;
      client.end().catch(() => undefined);
      if (this.#stopped) return;
      this.logger.warn({ err: error }, 'lost the scheduler liveness lock; reconnecting');
      this.#scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      this.#owner = await this.#register(client);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.#client = client;
    this.#held = true;
    this.#reconnectMs = RECONNECT_MS.first;
  }

  /**
   * Takes back the previous identity when nobody recovered it meanwhile (its row is still there:
   * recovery deletes it while holding the lock); otherwise registers a new one in a new epoch.
   */
  async #register(client: pg.Client): Promise<Owner> {
    const previous = this.#owner;
    if (previous) {
      const { rows } = await client.query<{ kept: boolean }>(
        `select pg_try_advisory_lock($1, $2) and exists (select 1 from scheduler_processes where id = $2) as kept`,
        [LOCK_NAMESPACE, previous.id],
      );
      if (rows[0]?.kept) return previous;
      await client.query('select pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, previous.id]);
    }
    const { rows } = await client.query<{ id: number }>(`select nextval('scheduler_process_ids')::int as id`);
    const id = rows[0]?.id;
    if (id === undefined) throw new Error('no scheduler process id');
    await client.query('select pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, id]);
    const { rows: registered } = await client.query<{ served_since: Date }>(
      `insert into scheduler_processes (id, name, served_since)
       select $1, $2, coalesce((select min(served_since) from (${LIVE_PROCESSES}) live where live.id <> $1), now())
       returning served_since`,
      [id, this.name],
    );
    if (registered[0]) this.#servedSince = registered[0].served_since;
    return { id, epoch: (previous?.epoch ?? 0) + 1 };
  }

  #scheduleReconnect(): void {
    this.#reconnect = setTimeout(() => {
      this.#connect().catch((error: unknown) => {
        this.logger.warn({ err: error }, 'could not take the scheduler liveness lock; retrying');
        this.#reconnectMs = Math.min(this.#reconnectMs * 2, RECONNECT_MS.max);
        this.#scheduleReconnect();
      });
    }, this.#reconnectMs);
    this.#reconnect.unref();
  }
}
