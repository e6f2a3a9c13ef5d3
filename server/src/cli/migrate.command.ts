import { Command } from 'commander';
import { type CliContext, report, withDatabase } from './context.js';

export function migrateCommand(ctx: CliContext): Command {
  return new Command('migrate')
    .description('apply pending database migrations (start does this too)')
    .option('--json', 'print one JSON object')
    .action(async (options: { json?: boolean }) => {
      await withDatabase(ctx, async () => {});
      report(ctx, options.json, ['Database is up to date.'], { migrated: true });
    });
}
