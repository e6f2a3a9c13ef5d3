import { CliError, type CliContext } from './cli/context.js';
import { createProgram } from './cli/program.js';
import { ConfigError, loadConfig } from './config.js';
import type { Role } from './service.js';

const ctx: CliContext = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  config: () => loadConfig(process.env),
};

function startBanner(url: string, role: Role): string[] {
  if (role === 'scheduler') return [`Webhook Scheduler (scheduler) is running; health and metrics on ${url}`];
  return [
    '',
    `Webhook Scheduler (${role}) is listening on ${url}`,
    '',
    `  Dashboard:      ${url}/   sign up, create an API key, and watch your webhooks`,
    `  API reference:  ${url}/docs`,
    '',
  ];
}

function firstStartBanner(url: string, first: { key: string; teamId: string }): string[] {
  const { key, teamId } = first;
  return [
    'For scripts, this first start also created a "default" team and an API key, shown only this once:',
    '',
    `  ${key}`,
    '',
    `To manage that team in the dashboard, sign up, then: npx webhook-scheduler teams add-owner --team ${teamId} --email <your email>`,
    '',
    'Schedule a webhook 10 seconds from now:',
    '',
    `  curl -X POST ${url}/api/v1/events \\`,
    `    -H 'Authorization: Bearer ${key}' \\`,
    `    -H 'Content-Type: application/json' \\`,
    `    -d "{\\"webhook_url\\": \\"https://example.com/hook\\", \\"scheduled_at\\": \\"$(date -u -d '+10 seconds' +%Y-%m-%dT%H:%M:%SZ)\\"}"`,
    '',
  ];
}

/**
 * Runs the service until SIGTERM or SIGINT, shuts down gracefully, and exits. The exit is explicit:
 * once everything is stopped, Agenda can still hold a timer (its job watchdog, up to half a lock
 * lifetime) that would otherwise keep the process alive for no reason.
 */
async function runService(role: Role): Promise<void> {
  const config = ctx.config();
  // Loaded here so the other commands do not load the HTTP stack and the scheduler.
  const [{ createLogger }, { startService }] = await Promise.all([
    import('./logger.js'),
    import('./service.js'),
  ]);
  const logger = createLogger(config.logLevel, process.stdout);
  const exit = (code: number) => logger.flush(() => process.exit(code));
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService(config, role, logger);
  } catch (error) {
    ctx.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    exit(1);
    return;
  }
  startBanner(service.url, role).forEach(ctx.out);
  if (service.firstKey) firstStartBanner(service.url, service.firstKey).forEach(ctx.out);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    service.stop().then(
      () => {
        logger.info('stopped');
        exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** Entry point of the `webhook-scheduler` binary. */
export async function main(argv: string[]): Promise<void> {
  try {
    await createProgram(ctx, runService).parseAsync(argv);
  } catch (error) {
    if (error instanceof ConfigError) {
      ctx.err(error.message);
    } else if (error instanceof CliError || error instanceof Error) {
      ctx.err(`error: ${error.message}`);
    } else {
      ctx.err(`error: ${String(error)}`);
    }
    process.exitCode = 1;
  }
}
