import { randomBytes } from 'node:crypto';
import { Invite, InviteSummary, MyTeam, Session, dataOf } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectBody, expectError } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { expectLinkRefused, invite, inviteToken, signUpWith } from '../../test/invites.js';
import { type TestUser, as, signUp, uniqueEmail } from '../../test/sessions.js';
import { hashSecretToken } from '../shared/secret-token.js';

const sessionBody = dataOf(Session.strict()).strict();
const invites = dataOf(z.array(Invite.strict())).strict();
const summary = dataOf(InviteSummary.strict()).strict();
const joined = dataOf(MyTeam.strict()).strict();

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ accounts: { maxTeamsPerUser: 2 } });
});
afterAll(() => app.close());

const listOf = (owner: TestUser, teamId = owner.teamId) =>
  app.request('GET', `/api/dashboard/teams/${teamId}/invites`, as(owner));
const revoke = (owner: TestUser, id: string, teamId = owner.teamId) =>
  app.request('DELETE', `/api/dashboard/teams/${teamId}/invites/${id}`, as(owner));
const show = (token: string) => app.request('POST', '/api/dashboard/invites/show', { body: { token } });
const accept = (user: TestUser, token: string) =>
  app.request('POST', '/api/dashboard/invites/accept', as(user, { body: { token } }));

async function addMember(owner: TestUser, email: string): Promise<void> {
  const path = `/api/dashboard/teams/${owner.teamId}/members`;
  expect((await app.request('POST', path, as(owner, { body: { email } }))).status).toBe(201);
}

describe('invites, as owners make them', () => {
  it('are made for one email and role, listed while pending, and stored as a hash of their secret', async () => {
    const owner = await signUp(app);
    const email = uniqueEmail('bob');
    const { id, token } = await inviteToken(app, owner, email.toUpperCase(), { role: 'owner' });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const listed = expectBody(await listOf(owner), 200, invites).data;
    expect(listed).toEqual([
      {
        id,
        email,
        role: 'owner',
        created_at: expect.any(String),
        expires_at: expect.any(String),
        invited_by: owner.email,
      },
    ]);
    const [first] = listed;
    const valid = Date.parse(first?.expires_at ?? '') - Date.parse(first?.created_at ?? '');
    expect(valid).toBe(7 * 24 * 3600_000);
    const [row] = await app.sql<{ token_hash: string }>('select token_hash from team_invites where id = $1', [
      id,
    ]);
    expect(row?.token_hash).toBe(hashSecretToken(token));
  });

  it('are for owners only: a member gets 403 FORBIDDEN listing, making or revoking them', async () => {
    const owner = await signUp(app);
    const member = await signUp(app);
    await addMember(owner, member.email);
    const { id } = await inviteToken(app, owner, uniqueEmail());
    expectError(await listOf(member, owner.teamId), 403, 'FORBIDDEN');
    expectError(await invite(app, member, uniqueEmail(), { teamId: owner.teamId }), 403, 'FORBIDDEN');
    expectError(await revoke(member, id, owner.teamId), 403, 'FORBIDDEN');
  });

  it('of another team are not found: its team and its invite ids answer 404', async () => {
    const owner = await signUp(app);
    const stranger = await signUp(app);
    const { id } = await inviteToken(app, owner, uniqueEmail());
    expectError(await listOf(stranger, owner.teamId), 404, 'NOT_FOUND');
    expectError(await invite(app, stranger, uniqueEmail(), { teamId: owner.teamId }), 404, 'NOT_FOUND');
    expectError(await revoke(stranger, id), 404, 'NOT_FOUND');
    expect(expectBody(await listOf(owner), 200, invites).data.map((i) => i.id)).toEqual([id]);
  });

  it('replace a pending invite of the same email: the earlier link stops working', async () => {
    const owner = await signUp(app);
    const email = uniqueEmail();
    const earlier = await inviteToken(app, owner, email);
    const later = await inviteToken(app, owner, email, { role: 'owner' });
    expectLinkRefused(await show(earlier.token), 'unknown');
    expect(expectBody(await show(later.token), 200, summary).data.role).toBe('owner');
    expect(expectBody(await listOf(owner), 200, invites).data.map((i) => i.id)).toEqual([later.id]);
  });

  it('refuse an email that is a member already with 409 CONFLICT', async () => {
    const owner = await signUp(app);
    const member = await signUp(app);
    await addMember(owner, member.email);
    expectError(await invite(app, owner, member.email), 409, 'CONFLICT');
    expectError(await invite(app, owner, owner.email), 409, 'CONFLICT');
  });

  it('stop working once revoked; revoking one again is 404', async () => {
    const owner = await signUp(app);
    const { id, token } = await inviteToken(app, owner, uniqueEmail());
    expect((await revoke(owner, id)).status).toBe(200);
    expectLinkRefused(await show(token), 'unknown');
    expectError(await revoke(owner, id), 404, 'NOT_FOUND');
    expect(expectBody(await listOf(owner), 200, invites).data).toEqual([]);
  });

  it('wait at most 100 at once per team: below and at it are made, above is 403 QUOTA_EXCEEDED', async () => {
    const owner = await signUp(app);
    await app.sql(
      `insert into team_invites (id, team_id, email, role, token_hash, created_at, expires_at)
       select gen_random_uuid(), $1, 'someone' || n || '@example.com', 'member', md5(random()::text),
              now(), now() + interval '7 days'
       from generate_series(1, 98) as n`,
      [owner.teamId],
    );
    expect((await invite(app, owner, uniqueEmail())).status).toBe(201);
    expect((await invite(app, owner, uniqueEmail())).status).toBe(201);
    const refused = expectError(await invite(app, owner, uniqueEmail()), 403, 'QUOTA_EXCEEDED');
    expect(refused.details).toEqual({ quota: 'pending_invites', limit: 100, current: 100 });
    // An expired invite waits no more.
    await app.sql(`update team_invites set expires_at = now() where email = 'someone1@example.com'`);
    expect((await invite(app, owner, uniqueEmail())).status).toBe(201);
  });

  it('never pass 100 pending however many are made at once', async () => {
    const owner = await signUp(app);
    await app.sql(
      `insert into team_invites (id, team_id, email, role, token_hash, created_at, expires_at)
       select gen_random_uuid(), $1, 'many' || n || '@example.com', 'member', md5(random()::text),
              now(), now() + interval '7 days'
       from generate_series(1, 97) as n`,
      [owner.teamId],
    );
    const responses = await Promise.all(Array.from({ length: 24 }, () => invite(app, owner, uniqueEmail())));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 403)).toHaveLength(21);
    const [row] = await app.sql<{ n: string }>('select count(*) as n from team_invites where team_id = $1', [
      owner.teamId,
    ]);
    expect(Number(row?.n)).toBe(100);
  });
});

describe('an invite link', () => {
  it('shows whom it is for and which team, before it is used', async () => {
    const owner = await signUp(app);
    const email = uniqueEmail('carol');
    const { token } = await inviteToken(app, owner, email);
    const { data } = expectBody(await show(token), 200, summary);
    expect(data).toEqual({
      email,
      team_name: `${owner.email.split('@')[0]}'s team`,
      role: 'member',
      expires_at: expect.any(String),
      account_exists: false,
    });
  });

  it('signs a new user up into its team only, with its role, and works once', async () => {
    const owner = await signUp(app);
    const email = uniqueEmail('dave');
    const { token } = await inviteToken(app, owner, email);
    const { data } = expectBody(await signUpWith(app, email, token), 201, sessionBody);
    expect(data.teams).toEqual([expect.objectContaining({ id: owner.teamId, role: 'member' })]);
    const message = expectLinkRefused(await signUpWith(app, uniqueEmail(), token), 'used');
    expect(message).toBe('This invite link was used already: each link works once, so ask for a new one.');
    expectLinkRefused(await show(token), 'used');
    expect(expectBody(await listOf(owner), 200, invites).data).toEqual([]);
  });

  it('is bound to its email: another one is 400 VALIDATION_ERROR on email, and the link still works', async () => {
    const owner = await signUp(app);
    const email = uniqueEmail();
    const { token } = await inviteToken(app, owner, email);
    const response = await signUpWith(app, uniqueEmail('mallory'), token);
    const error = expectError(response, 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([
      { path: ['email'], message: `this invite is for ${email}: sign up with that email` },
    ]);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect((await signUpWith(app, email, token)).status).toBe(201);
  });

  it('is refused once expired, and when unknown or malformed, with 400 BAD_REQUEST saying why', async () => {
    const owner = await signUp(app);
    const email = uniqueEmail();
    const { id, token } = await inviteToken(app, owner, email);
    await app.sql(`update team_invites set expires_at = now() - interval '1 second' where id = $1`, [id]);
    expectLinkRefused(await show(token), 'expired');
    expectLinkRefused(await signUpWith(app, email, token), 'expired');
    expectLinkRefused(await show(randomBytes(32).toString('base64url')), 'unknown');
    expectLinkRefused(await show('not-a-token'), 'unknown');
    const [user] = await app.sql('select id from users where email = $1', [email]);
    expect(user).toBeUndefined();
  });

  it('for an email with an account is accepted by that user signed in, once', async () => {
    const owner = await signUp(app);
    const user = await signUp(app);
    const { token } = await inviteToken(app, owner, user.email, { role: 'owner' });
    expect(expectBody(await show(token), 200, summary).data.account_exists).toBe(true);
    expectError(await signUpWith(app, user.email, token), 409, 'CONFLICT');

    const team = expectBody(await accept(user, token), 200, joined).data;
    expect(team).toMatchObject({ id: owner.teamId, role: 'owner' });
    const session = expectBody(
      await app.request('GET', '/api/dashboard/session', as(user)),
      200,
      sessionBody,
    );
    expect(session.data.teams.map((t) => t.id)).toEqual([owner.teamId, user.teamId]); // oldest first
    expectLinkRefused(await accept(user, token), 'used');
  });

  it('is refused to another signed-in user with 403 FORBIDDEN, and to a member with 409, staying usable', async () => {
    const owner = await signUp(app);
    const user = await signUp(app);
    const other = await signUp(app);
    const { token } = await inviteToken(app, owner, user.email);
    const forbidden = expectError(await accept(other, token), 403, 'FORBIDDEN');
    expect(forbidden.message).toBe(
      `This invite is for ${user.email}, and you are signed in as ${other.email}: sign out, then open the link again.`,
    );
    await app.sql(
      'insert into team_members (team_id, user_id, role, created_at) values ($1, $2, $3, now())',
      [owner.teamId, user.userId, 'member'],
    );
    expectError(await accept(user, token), 409, 'CONFLICT');
    expect(expectBody(await show(token), 200, summary).data.email).toBe(user.email);
  });

  it('is refused to a user in as many teams as allowed with 403 QUOTA_EXCEEDED', async () => {
    const owner = await signUp(app);
    const user = await signUp(app);
    await app.request('POST', '/api/dashboard/teams', as(user, { body: { name: 'second' } }));
    const { token } = await inviteToken(app, owner, user.email);
    const error = expectError(await accept(user, token), 403, 'QUOTA_EXCEEDED');
    expect(error.details).toEqual({ quota: 'teams', limit: 2, current: 2 });
    expect(expectBody(await show(token), 200, summary).data.email).toBe(user.email);
  });

  it('joins the team once however many times it is accepted at once', async () => {
    const owner = await signUp(app);
    const user = await signUp(app);
    const { token } = await inviteToken(app, owner, user.email);
    const statuses = (await Promise.all(Array.from({ length: 6 }, () => accept(user, token)))).map(
      (response) => response.status,
    );
    expect(statuses.sort()).toEqual([200, 400, 400, 400, 400, 400]);
  });
});
