import { Command, Option } from 'commander';
import type { Role } from '../service.js';

export function startCommand(run: (role: Role) => Promise<void>): Command {
  return new Command('start')
    .description('run the service (API and scheduler by default)')
    .addOption(
      new Option('--role <role>', 'which part to run').choices(['all', 'api', 'scheduler']).default('all'),
    )
    .action(async (options: { role: Role }) => run(options.role));
}
