import { Command } from 'commander';
import type { Role } from '../service.js';
import type { CliContext } from './context.js';
import { keysCommand } from './keys.command.js';
import { migrateCommand } from './migrate.command.js';
import { startCommand } from './start.command.js';
import { teamsCommand } from './teams.command.js';
import { usersCommand } from './users.command.js';

/** The `webhook-scheduler` command line. */
export function createProgram(ctx: CliContext, start: (role: Role) => Promise<void>): Command {
  return new Command('webhook-scheduler')
    .description('Schedule webhooks: one-time events and recurring crons, delivered on time.')
    .showHelpAfterError()
    .addCommand(startCommand(start))
    .addCommand(migrateCommand(ctx))
    .addCommand(teamsCommand(ctx))
    .addCommand(keysCommand(ctx))
    .addCommand(usersCommand(ctx));
}
