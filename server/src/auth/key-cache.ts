import pg, { type ClientConfig } from 'pg';
import type { Logger } from 'pino';
import type { KeyCredentials } from '../teams/api-key-store.js';

/** What authentication needs to know of a stored key, as the owner of api_keys reads it. */
export type CachedKey = KeyCredentials;

const CHANNEL = 'api_key_changed';
const MAX_ENTRIES = 10_000;
const TTL_MS = 60_000;
const RECONNECT_MS = 1000;

/**
 * API keys by hash, kept only while this process listens to `api_key_changed` (a trigger notifies
 * on any revocation, expiry change or deletion, whoever makes it). While the listener is down
 * nothing is cached, so a revoked key can never authenticate from a stale entry.
 */
export class KeyCache {
  readonly #entries = new Map<string, { key: CachedKey; at: number }>();
  #client: pg.Client | undefined;
  #listening = false;
  #closed = false;
  #version = 0;

  constructor(
    private readonly connection: ClientConfig,
    private readonly logger: Logger,
  ) {}

  get(hash: string, now: number): CachedKey | undefined {
    const entry = this.#entries.get(hash);
    if (!entry || now - entry.at > TTL_MS) return undefined;
    return entry.key;
  }

  /** Changes whenever a notification arrives; read it before querying a key, pass it to `set`. */
  get version(): number {
    return this.#version;
  }

  /** Caches a key read from the database, unless a change was notified since `readAtVersion`. */
  set(key: CachedKey, now: number, readAtVersion: number): void {
    if (!this.#listening || readAtVersion !== this.#version) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key.keyHash, { key, at: now });
  }

  /** Drops keys this process just revoked, before the database's notification comes back. */
  forget(hashes: readonly string[]): void {
    this.#version++;
    for (const hash of hashes) this.#entries.delete(hash);
  }

  async start(): Promise<void> {
    const client = new pg.Client({ ...this.connection, application_name: 'webhook-scheduler-keys' });
    client.on('notification', (message) => {
      this.#version++;
      if (message.payload) this.#entries.delete(message.payload);
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, new Error('connection ended')));
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    this.#client = client;
    this.#listening = true;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    await this.#client?.end().catch(() => {});
  }

  #lost(client: pg.Client, error: Error): void {
    if (client !== this.#client || this.#closed) return;
    this.#client = undefined;
    this.#listening = false;
    this.#version++;
    this.#entries.clear();
    this.logger.warn({ err: error }, 'API key change listener lost; caching paused until it reconnects');
    const retry = () => {
      if (this.#closed) return;
      this.start().catch(() => setTimeout(retry, RECONNECT_MS));
    };
    setTimeout(retry, RECONNECT_MS);
  }
}
