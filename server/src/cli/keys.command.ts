import { Command } from 'commander';
import { createApiKeyWithinQuota, listApiKeys, revokeApiKey } from '../teams/teams.service.js';
import { type CliContext, CliError, report, requireUuid, withDatabase } from './context.js';

function parseExpiry(value: string | undefined): Date | null {
  if (value === undefined) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new CliError(`--expires-at must be an ISO 8601 date, got "${value}"`);
  if (date <= new Date()) throw new CliError('--expires-at must be in the future');
  return date;
}

export function keysCommand(ctx: CliContext): Command {
  const keys = new Command('keys').description('manage API keys');

  keys
    .command('create')
    .description('create an API key for a team (the key is printed once)')
    .requiredOption('--team <id>', 'team id')
    .option('--name <name>', 'a name to recognise the key by', 'cli')
    .option('--expires-at <date>', 'ISO 8601 expiry')
    .option('--json', 'print one JSON object')
    .action(async (options: { team: string; name: string; expiresAt?: string; json?: boolean }) => {
      const teamId = requireUuid(options.team, '--team');
      const expiresAt = parseExpiry(options.expiresAt);
      const defaults = ctx.config().teamLimits;
      const { apiKey, key } = await withDatabase(ctx, (em) =>
        createApiKeyWithinQuota(em, teamId, { name: options.name, expiresAt }, defaults, new Date()),
      );
      report(
        ctx,
        options.json,
        [
          `Created key ${apiKey.id} (${apiKey.prefix}…) for team ${teamId}.`,
          `Key (shown once, store it now): ${key}`,
        ],
        { id: apiKey.id, key, team_id: teamId, prefix: apiKey.prefix },
      );
    });

  keys
    .command('list')
    .description("list a team's API keys")
    .requiredOption('--team <id>', 'team id')
    .option('--json', 'print one JSON object')
    .action(async (options: { team: string; json?: boolean }) => {
      const teamId = requireUuid(options.team, '--team');
      const all = await withDatabase(ctx, (em) => listApiKeys(em, teamId));
      const rows = all.map((key) => ({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        created_at: key.createdAt.toISOString(),
        last_used_at: key.lastUsedAt?.toISOString() ?? null,
        expires_at: key.expiresAt?.toISOString() ?? null,
        revoked_at: key.revokedAt?.toISOString() ?? null,
      }));
      const human =
        rows.length === 0
          ? ['No keys.']
          : rows.map((row) => `${row.id}  ${row.prefix}…  ${row.name}${row.revoked_at ? '  (revoked)' : ''}`);
      report(ctx, options.json, human, { keys: rows });
    });

  keys
    .command('revoke')
    .description('revoke an API key')
    .argument('<keyId>', 'key id')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, options: { json?: boolean }) => {
      requireUuid(keyId, 'the key id');
      const key = await withDatabase(ctx, (em) => revokeApiKey(em, keyId, new Date()));
      const revokedAt = key.revokedAt?.toISOString() ?? null;
      report(ctx, options.json, [`Revoked key ${key.id} (${key.prefix}…).`], {
        id: key.id,
        revoked_at: revokedAt,
      });
    });

  return keys;
}
