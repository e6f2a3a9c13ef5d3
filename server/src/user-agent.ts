/** The project's home: package metadata (homepage, repository, bugs) names the same place. */
export const PROJECT_URL = 'https://github.com/webhook-scheduler/webhook-scheduler';

/** Sent with every webhook call, so a receiver's operator can find out what is calling. */
export const USER_AGENT = `WebhookScheduler/0.1 (+${PROJECT_URL})`;
