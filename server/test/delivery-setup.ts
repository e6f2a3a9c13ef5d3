import { afterAll, beforeAll } from 'vitest';
import { type TestApp, type TestTeam, startTestApp } from './harness.js';
import { type Receiver, startReceiver } from './receiver.js';
import { type TeamEvents, teamEvents } from './team-events.js';

/** What the delivery tests run against: an app with its scheduler, a team, a receiver. */
export interface DeliverySetup {
  app: TestApp;
  team: TestTeam;
  receiver: Receiver;
  /** The team's events through the API. */
  api: TeamEvents;
}

/** Starts them before the file's tests and stops them after (calls time out after 1 s). */
export function deliverySetup(): DeliverySetup {
  const setup = {} as DeliverySetup;
  beforeAll(async () => {
    setup.receiver = await startReceiver();
    setup.app = await startTestApp({ scheduler: { webhookTimeoutMs: 1000 } });
    setup.team = await setup.app.createTeam();
    setup.api = teamEvents(setup.app, setup.team);
  });
  afterAll(async () => {
    await setup.app.close();
    await setup.receiver.close();
  });
  return setup;
}
