import { Command } from 'commander';
import { getSendTraceparent, setSendTraceparent } from '../teams/team-tracing.service.js';
import { type CliContext, CliError, report, requireUuid, withDatabase } from './context.js';

/** `teams tracing`: whether the team's webhook calls carry the attempt's W3C `traceparent`. */
export function teamsTracingCommand(ctx: CliContext): Command {
  return new Command('tracing')
    .description(
      "show or set whether the team's webhook calls carry a W3C traceparent header (when traces are exported)",
    )
    .requiredOption('--team <id>', 'team id')
    .option('--on', 'send the delivery attempt’s traceparent with every webhook call')
    .option('--off', 'send none (the default)')
    .option('--json', 'print one JSON object')
    .action(async (options: { team: string; on?: boolean; off?: boolean; json?: boolean }) => {
      const teamId = requireUuid(options.team, '--team');
      if (options.on && options.off) throw new CliError('give either --on or --off, not both');
      const on = await withDatabase(ctx, (em) => {
        if (options.on || options.off) return setSendTraceparent(em, teamId, options.on === true, new Date());
        return getSendTraceparent(em, teamId);
      });
      const human = [
        on ? 'Webhook calls carry a traceparent header.' : 'Webhook calls carry no traceparent header.',
      ];
      report(ctx, options.json, human, { team_id: teamId, send_traceparent: on });
    });
}
