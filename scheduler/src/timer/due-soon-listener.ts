import pg, { type ClientConfig } from 'pg';
import type { Logger } from 'pino';
import { DUE_SOON_CHANNEL } from './slot-jobs.js';

const RECONNECT_MS = 1000;

/**
 * Listens on {@link DUE_SOON_CHANNEL} on a session of its own and hands each slot notified to
 * `onDueSoon`. While the session is lost (it reconnects every second) nothing is missed for good:
 * the slots' polls and Agenda's still find the events, only up to a poll later.
 */
export class DueSoonListener {
  #client: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: ClientConfig,
    private readonly logger: Logger,
    private readonly onDueSoon: (slot: number) => void,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ ...this.connection, application_name: 'webhook-scheduler-due-soon' });
    client.on('notification', (message) => {
      const slot = Number(message.payload);
      if (Number.isSafeInteger(slot)) this.onDueSoon(slot);
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, new Error('connection ended')));
    this.#client = client;
    try {
      await client.connect();
      await client.query(`listen ${DUE_SOON_CHANNEL}`);
    } catch (error) {
      this.#lost(client, error as Error);
    }
  }

  async stop(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    await this.#client?.end().catch(() => {});
  }

  #lost(client: pg.Client, error: Error): void {
    if (client !== this.#client || this.#closed) return;
    this.#client = undefined;
    client.end().catch(() => {});
    this.logger.warn(
      { err: error },
      'lost the due-soon listener; events due soon wait for the polls until it reconnects',
    );
    this.#retry = setTimeout(() => void this.start(), RECONNECT_MS);
  }
}
