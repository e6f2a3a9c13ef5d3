import { Email } from '@webhook-scheduler/contract';
import { Command } from 'commander';
import { generateSecretToken } from '../shared/secret-token.js';
import { createUserAlone } from '../teams/accounts.service.js';
import { createPasswordHasher } from '../users/password.js';
import {
  NEW_ACCOUNT_LINK_VALID_MS,
  RESET_LINK_VALID_MS,
  createPasswordResetLink,
} from '../users/password-resets.service.js';
import { findUserByEmail } from '../users/user-store.js';
import { type CliContext, CliError, report, withDatabase } from './context.js';

function parseEmail(value: string): string {
  const email = Email.safeParse(value);
  if (!email.success) throw new CliError(`--email must be an email address, got "${value}"`);
  return email.data;
}

/** The dashboard page that sets a password; the token rides in the fragment, which no server sees. */
function resetLink(ctx: CliContext, token: string): string {
  return `${ctx.config().accounts.publicUrl}/reset-password#${token}`;
}

interface LinkOutput {
  userId: string;
  email: string;
  token: string;
  expiresAt: Date;
}

function reportLink(ctx: CliContext, json: boolean | undefined, heading: string, link: LinkOutput) {
  const url = resetLink(ctx, link.token);
  const expires = link.expiresAt.toISOString();
  report(ctx, json, [heading, `Send them this link (it works once, until ${expires}):`, url], {
    user_id: link.userId,
    email: link.email,
    url,
    expires_at: expires,
  });
}

export function usersCommand(ctx: CliContext): Command {
  const users = new Command('users').description('manage dashboard accounts');

  users
    .command('create')
    .description(
      'create an account (sign-up may be closed) and print a link, valid 7 days, where its owner sets a password',
    )
    .requiredOption('--email <email>', 'the email the user signs in with')
    .option('--json', 'print one JSON object')
    .action(async (options: { email: string; json?: boolean }) => {
      const email = parseEmail(options.email);
      // Nobody knows this password: the account is usable once its owner sets one from the link.
      const unknowable = await createPasswordHasher().hash(generateSecretToken());
      const now = new Date();
      const link = await withDatabase(ctx, (em) =>
        em.transactional(async (tx) => {
          if (await findUserByEmail(tx, email)) {
            throw new CliError(
              `${email} has an account already: \`users reset-password --email ${email}\` prints a link to set its password`,
            );
          }
          const user = await createUserAlone(tx, email, unknowable, now);
          return {
            userId: user.id,
            email,
            ...(await createPasswordResetLink(tx, user.id, NEW_ACCOUNT_LINK_VALID_MS, now)),
          };
        }),
      );
      reportLink(ctx, options.json, `Created the account ${email} (id ${link.userId}).`, link);
    });

  users
    .command('reset-password')
    .description(
      "print a one-time link, valid 1 hour, that sets a user's password and signs out their other sessions",
    )
    .requiredOption('--email <email>', 'the email the user signs in with')
    .option('--json', 'print one JSON object')
    .action(async (options: { email: string; json?: boolean }) => {
      const email = parseEmail(options.email);
      const link = await withDatabase(ctx, async (em) => {
        const user = await findUserByEmail(em, email);
        if (!user) throw new CliError(`No user signed up with ${email}`);
        return {
          userId: user.id,
          email,
          ...(await createPasswordResetLink(em, user.id, RESET_LINK_VALID_MS, new Date())),
        };
      });
      reportLink(ctx, options.json, `A password reset for ${email}; earlier links no longer work.`, link);
    });

  return users;
}
