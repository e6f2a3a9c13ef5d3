import { Email, WebhookUrl } from '@webhook-scheduler/contract';
import { Command } from 'commander';
import { SETTABLE_LIMITS, parseLimitSettings } from '../limits/team-limits.rules.js';
import { setTeamLimits } from '../limits/team-limits.service.js';
import { teamLimitsReport } from '../usage/team-usage.js';
import { addOwnerByEmail } from '../teams/members.service.js';
import { getAlertUrl, setAlertUrl } from '../teams/team-alerts.service.js';
import { listTeams } from '../teams/team-store.js';
import { createTeam, getSigningSecrets, rotateSigningSecret } from '../teams/teams.service.js';
import { type CliContext, CliError, report, requireUuid, withDatabase } from './context.js';
import { teamsTracingCommand } from './tracing.command.js';

export function teamsCommand(ctx: CliContext): Command {
  const teams = new Command('teams').description('manage teams');

  teams
    .command('create')
    .description('create a team')
    .requiredOption('--name <name>', 'team name')
    .option('--json', 'print one JSON object')
    .action(async (options: { name: string; json?: boolean }) => {
      const name = options.name.trim();
      if (name.length < 1 || name.length > 200) throw new CliError('--name must be 1 to 200 characters');
      const team = await withDatabase(ctx, (em) => createTeam(em, name, new Date()));
      report(ctx, options.json, [`Created team "${team.name}" with id ${team.id}`], {
        id: team.id,
        name: team.name,
      });
    });

  teams
    .command('list')
    .description('list teams')
    .option('--json', 'print one JSON object')
    .action(async (options: { json?: boolean }) => {
      const all = await withDatabase(ctx, (em) => listTeams(em));
      const rows = all.map((team) => ({
        id: team.id,
        name: team.name,
        created_at: team.createdAt.toISOString(),
      }));
      const human = rows.length === 0 ? ['No teams.'] : rows.map((row) => `${row.id}  ${row.name}`);
      report(ctx, options.json, human, { teams: rows });
    });

  teams
    .command('secret')
    .description("show the team's webhook signing secret, or rotate it (the old one keeps signing for 24 h)")
    .requiredOption('--team <id>', 'team id')
    .option('--rotate', 'replace the secret')
    .option('--json', 'print one JSON object')
    .action(async (options: { team: string; rotate?: boolean; json?: boolean }) => {
      const teamId = requireUuid(options.team, '--team');
      const secrets = await withDatabase(ctx, (em) =>
        options.rotate
          ? rotateSigningSecret(em, teamId, new Date())
          : getSigningSecrets(em, teamId, new Date()),
      );
      const previous = secrets.previous;
      const human = [
        `${options.rotate ? 'New signing secret' : 'Signing secret'}: ${secrets.current}`,
        ...(previous
          ? [`Previous secret (still signing until ${previous.expiresAt.toISOString()}): ${previous.secret}`]
          : []),
      ];
      report(ctx, options.json, human, {
        team_id: teamId,
        secret: secrets.current,
        previous_secret: previous?.secret ?? null,
        previous_expires_at: previous?.expiresAt.toISOString() ?? null,
      });
    });

  teams
    .command('add-owner')
    .description('make a dashboard user an owner of a team (e.g. one made by `teams create`)')
    .requiredOption('--team <id>', 'team id')
    .requiredOption('--email <email>', 'the email the user signed up with')
    .option('--json', 'print one JSON object')
    .action(async (options: { team: string; email: string; json?: boolean }) => {
      const teamId = requireUuid(options.team, '--team');
      const email = Email.safeParse(options.email);
      if (!email.success) throw new CliError(`--email must be an email address, got "${options.email}"`);
      const maxTeams = ctx.config().accounts.maxTeamsPerUser;
      const owner = await withDatabase(ctx, (em) =>
        addOwnerByEmail(em, teamId, email.data, maxTeams, new Date()),
      );
      if (!owner) throw new CliError(`No user signed up with ${email.data}: sign up in the dashboard first`);
      report(ctx, options.json, [`${owner.email} is now an owner of team ${teamId}.`], {
        team_id: teamId,
        user_id: owner.userId,
        email: owner.email,
        role: owner.role,
      });
    });

  teams
    .command('limits')
    .description(
      `show a team's limits and usage, or override some (name=default goes back to the configured default): ${Object.keys(SETTABLE_LIMITS).join(', ')}`,
    )
    .requiredOption('--team <id>', 'team id')
    .option('--set <name=value...>', 'set limits, e.g. max_active_crons=50 min_cron_interval=60s')
    .option('--json', 'print one JSON object')
    .action(async (options: { team: string; set?: string[]; json?: boolean }) => {
      const teamId = requireUuid(options.team, '--team');
      const { overrides, problems } = parseLimitSettings(options.set ?? []);
      if (problems.length > 0) throw new CliError(problems.join('; '));
      const defaults = ctx.config().teamLimits;
      const shown = await withDatabase(ctx, async (em) => {
        if (Object.keys(overrides).length > 0) await setTeamLimits(em, teamId, overrides, new Date());
        return teamLimitsReport(em, teamId, defaults);
      });
      const human = [
        `Limits of team ${teamId} (* = the team's own):`,
        ...Object.entries(shown.limits).map(
          ([name, value]) =>
            `  ${name.padEnd(22)} ${value}${shown.overrides[name as keyof typeof shown.overrides] == null ? '' : ' *'}`,
        ),
        `Usage: ${shown.usage.active_crons} active crons, ${shown.usage.pending_events} pending events created through the API holding ${shown.usage.pending_bytes} bytes, ${shown.usage.api_keys} active API keys`,
      ];
      report(ctx, options.json, human, { team_id: teamId, ...shown });
    });

  teams
    .command('alerts')
    .description(
      'show, set or turn off where failure alerts (event.failed, cron.paused) are sent, signed with the team secret',
    )
    .requiredOption('--team <id>', 'team id')
    .option('--url <url>', 'send alerts to this http(s) URL')
    .option('--off', 'send no alerts')
    .option('--json', 'print one JSON object')
    .action(async (options: { team: string; url?: string; off?: boolean; json?: boolean }) => {
      const teamId = requireUuid(options.team, '--team');
      if (options.url !== undefined && options.off)
        throw new CliError('give either --url or --off, not both');
      const url = options.url === undefined ? undefined : WebhookUrl.safeParse(options.url);
      if (url && !url.success) throw new CliError(`--url: ${url.error.issues[0]?.message ?? 'invalid URL'}`);
      const alertUrl = await withDatabase(ctx, (em) => {
        if (url) return setAlertUrl(em, teamId, url.data, new Date());
        return options.off ? setAlertUrl(em, teamId, null, new Date()) : getAlertUrl(em, teamId);
      });
      const human = [alertUrl ? `Failure alerts are sent to ${alertUrl}` : 'Failure alerts are off.'];
      report(ctx, options.json, human, { team_id: teamId, alert_url: alertUrl });
    });

  teams.addCommand(teamsTracingCommand(ctx));
  return teams;
}
