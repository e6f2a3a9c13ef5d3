import { randomUUID } from 'node:crypto';
import { ApiKey, CreatedApiKey, Member, MyTeam, SigningSecret, dataOf } from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bodies, expectBody, expectError, expectValidationError } from '../../test/expect.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { type TestUser, as, signUp, uniqueEmail } from '../../test/sessions.js';

const team = dataOf(MyTeam.strict()).strict();
const teams = dataOf(z.array(MyTeam.strict())).strict();
const member = dataOf(Member.strict()).strict();
const removal = dataOf(
  z.object({ success: z.literal(true), revoked_keys: z.number().int() }).strict(),
).strict();
const members = dataOf(z.array(Member.strict())).strict();
const createdKey = dataOf(CreatedApiKey.extend({ api_key: ApiKey.strict() }).strict()).strict();
const keys = dataOf(z.array(ApiKey.strict())).strict();
const oneKey = dataOf(ApiKey.strict()).strict();
const secret = dataOf(SigningSecret.strict()).strict();

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const addMember = (owner: TestUser, teamId: string, email: string, role?: 'owner' | 'member') =>
  app.request(
    'POST',
    `/api/dashboard/teams/${teamId}/members`,
    as(owner, { body: { email, ...(role ? { role } : {}) } }),
  );

describe('teams', () => {
  it('are created owned by their creator and listed oldest first', async () => {
    const user = await signUp(app);
    const created = expectBody(
      await app.request('POST', '/api/dashboard/teams', as(user, { body: { name: '  Acme  ' } })),
      201,
      team,
    ).data;
    expect(created).toMatchObject({ name: 'Acme', role: 'owner' });
    const listed = expectBody(await app.request('GET', '/api/dashboard/teams', as(user)), 200, teams).data;
    expect(listed.map((t) => t.id)).toEqual([user.teamId, created.id]);
  });

  it.each<[string, unknown]>([
    ['blank', { name: '   ' }],
    ['too long', { name: 'x'.repeat(201) }],
    ['missing', {}],
  ])('refuse a %s name with 400 VALIDATION_ERROR on name', async (_, body) => {
    const user = await signUp(app);
    const issues = expectValidationError(
      await app.request('POST', '/api/dashboard/teams', as(user, { body })),
    );
    expect(issues[0]?.path).toEqual(['name']);
  });
});

describe('members', () => {
  it('are added by an owner by email and listed owners first', async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    const added = expectBody(
      await addMember(owner, owner.teamId, other.email.toUpperCase()),
      201,
      member,
    ).data;
    expect(added).toMatchObject({ user_id: other.userId, email: other.email, role: 'member' });
    const listed = expectBody(
      await app.request('GET', `/api/dashboard/teams/${owner.teamId}/members`, as(other)),
      200,
      members,
    ).data;
    expect(listed.map((m) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [other.email, 'member'],
    ]);
    const theirTeams = expectBody(
      await app.request('GET', '/api/dashboard/teams', as(other)),
      200,
      teams,
    ).data;
    expect(theirTeams).toContainEqual(expect.objectContaining({ id: owner.teamId, role: 'member' }));
  });

  it('can be added as owners', async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    expect(
      expectBody(await addMember(owner, owner.teamId, other.email, 'owner'), 201, member).data.role,
    ).toBe('owner');
  });

  it('cannot be added by a member: 403 FORBIDDEN', async () => {
    const owner = await signUp(app);
    const plain = await signUp(app);
    const third = await signUp(app);
    expectBody(await addMember(owner, owner.teamId, plain.email), 201, member);
    expectError(await addMember(plain, owner.teamId, third.email), 403, 'FORBIDDEN');
  });

  it('cannot be added twice: 409 CONFLICT', async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    expectBody(await addMember(owner, owner.teamId, other.email), 201, member);
    expectError(await addMember(owner, owner.teamId, other.email), 409, 'CONFLICT');
    expectError(await addMember(owner, owner.teamId, owner.email), 409, 'CONFLICT');
  });

  it('must have an account: 400 VALIDATION_ERROR on email otherwise', async () => {
    const owner = await signUp(app);
    const issues = expectValidationError(await addMember(owner, owner.teamId, uniqueEmail('nobody')));
    expect(issues).toEqual([{ path: ['email'], message: expect.stringMatching(/sign up/) }]);
  });

  it('are removed by an owner, and then lose access to the team', async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    expectBody(await addMember(owner, owner.teamId, other.email), 201, member);
    const removed = await app.request(
      'DELETE',
      `/api/dashboard/teams/${owner.teamId}/members/${other.userId}`,
      as(owner),
    );
    expect(removed.status).toBe(200);
    expectError(
      await app.request('GET', `/api/dashboard/teams/${owner.teamId}/members`, as(other)),
      404,
      'NOT_FOUND',
    );
    const api = await app.request(
      'GET',
      '/api/v1/crons',
      as(other, { headers: { 'x-team-id': owner.teamId } }),
    );
    expectError(api, 401, 'UNAUTHORIZED');
  });

  it('may leave a team themselves, but cannot remove others', async () => {
    const owner = await signUp(app);
    const a = await signUp(app);
    const b = await signUp(app);
    for (const user of [a, b]) expectBody(await addMember(owner, owner.teamId, user.email), 201, member);
    const path = (userId: string) => `/api/dashboard/teams/${owner.teamId}/members/${userId}`;
    expectError(await app.request('DELETE', path(b.userId), as(a)), 403, 'FORBIDDEN');
    expect((await app.request('DELETE', path(a.userId), as(a))).status).toBe(200);
  });

  it('always leave an owner: the last one cannot be removed, even by themselves', async () => {
    const owner = await signUp(app);
    const response = await app.request(
      'DELETE',
      `/api/dashboard/teams/${owner.teamId}/members/${owner.userId}`,
      as(owner),
    );
    expect(expectError(response, 400, 'BAD_REQUEST').message).toMatch(/at least one owner/);
  });

  it('of another team are not found: 404 for a team the user is not in', async () => {
    const owner = await signUp(app);
    const stranger = await signUp(app);
    for (const [method, path, body] of [
      ['GET', `/api/dashboard/teams/${owner.teamId}/members`, undefined],
      ['POST', `/api/dashboard/teams/${owner.teamId}/members`, { email: stranger.email }],
      ['DELETE', `/api/dashboard/teams/${owner.teamId}/members/${owner.userId}`, undefined],
      ['GET', `/api/dashboard/teams/${randomUUID()}/members`, undefined],
    ] as const) {
      expectError(await app.request(method, path, as(stranger, { body })), 404, 'NOT_FOUND');
    }
  });
});

describe('API keys in the team settings', () => {
  it('are created once-shown, work against the API, are listed without the secret, and stop on revoke', async () => {
    const user = await signUp(app);
    const base = `/api/dashboard/teams/${user.teamId}/keys`;
    const created = expectBody(
      await app.request('POST', base, as(user, { body: { name: 'deploy bot' } })),
      201,
      createdKey,
    ).data;
    expect(created.key).toMatch(/^whs_[0-9A-Za-z]{40}$/);
    expect(created.api_key).toMatchObject({ name: 'deploy bot', expires_at: null, revoked_at: null });
    expect(created.key.startsWith(created.api_key.prefix)).toBe(true);

    expectBody(await app.request('GET', '/api/v1/crons', { key: created.key }), 200, bodies.cronPage);

    const listed = await app.request('GET', base, as(user));
    expect(expectBody(listed, 200, keys).data.map((k) => k.id)).toEqual([created.api_key.id]);
    expect(listed.text).not.toContain(created.key);
    expect(listed.body.data[0].last_used_at).not.toBeNull();

    const revoked = expectBody(
      await app.request('DELETE', `${base}/${created.api_key.id}`, as(user)),
      200,
      oneKey,
    );
    expect(revoked.data.revoked_at).not.toBeNull();
    expectError(await app.request('GET', '/api/v1/crons', { key: created.key }), 401, 'UNAUTHORIZED');
  });

  it('may expire, but not in the past: 400 VALIDATION_ERROR on expires_at', async () => {
    const user = await signUp(app);
    const base = `/api/dashboard/teams/${user.teamId}/keys`;
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = expectBody(
      await app.request('POST', base, as(user, { body: { name: 'ci', expires_at: expiresAt } })),
      201,
      createdKey,
    ).data;
    expect(created.api_key.expires_at).toBe(expiresAt);
    const past = await app.request(
      'POST',
      base,
      as(user, { body: { name: 'ci', expires_at: new Date(Date.now() - 1000).toISOString() } }),
    );
    expect(expectValidationError(past)).toEqual([
      { path: ['expires_at'], message: 'expires_at must be in the future' },
    ]);
  });

  it('of another team cannot be listed, created or revoked', async () => {
    const owner = await signUp(app);
    const stranger = await signUp(app);
    const key = await app.createTeam();
    const base = `/api/dashboard/teams/${owner.teamId}/keys`;
    expectError(await app.request('GET', base, as(stranger)), 404, 'NOT_FOUND');
    expectError(await app.request('POST', base, as(stranger, { body: { name: 'x' } })), 404, 'NOT_FOUND');
    // A key id of another team under the user's own team is not found either.
    const ownBase = `/api/dashboard/teams/${stranger.teamId}/keys`;
    expectError(await app.request('DELETE', `${ownBase}/${key.keyId}`, as(stranger)), 404, 'NOT_FOUND');
    expect((await app.request('GET', '/api/v1/crons', { key: key.key })).status).toBe(200);
  });
});

describe('the signing secret', () => {
  it('is revealed and rotated by owners only, keeping the previous one for 24 hours', async () => {
    const owner = await signUp(app);
    const plain = await signUp(app);
    expectBody(await addMember(owner, owner.teamId, plain.email), 201, member);
    const path = `/api/dashboard/teams/${owner.teamId}/signing-secret`;
    expectError(await app.request('GET', path, as(plain)), 403, 'FORBIDDEN');
    const shown = expectBody(await app.request('GET', path, as(owner)), 200, secret).data;
    expect(shown).toEqual({
      secret: expect.stringMatching(/^whsec_/),
      previous_secret: null,
      previous_expires_at: null,
    });

    expectError(await app.request('POST', `${path}/rotate`, as(plain)), 403, 'FORBIDDEN');
    const rotated = expectBody(await app.request('POST', `${path}/rotate`, as(owner)), 200, secret).data;
    expect(rotated.previous_secret).toBe(shown.secret);
    expect(rotated.secret).not.toBe(shown.secret);
    const grace = Date.parse(rotated.previous_expires_at ?? '') - Date.now();
    expect(grace).toBeGreaterThan(23.9 * 3600_000);
  });

  it('of another team is not found', async () => {
    const owner = await signUp(app);
    const stranger = await signUp(app);
    const path = `/api/dashboard/teams/${owner.teamId}/signing-secret`;
    expectError(await app.request('GET', path, as(stranger)), 404, 'NOT_FOUND');
    expectError(await app.request('POST', `${path}/rotate`, as(stranger)), 404, 'NOT_FOUND');
  });
});

describe('owner-only key and secret actions', () => {
  it('refuse a member creating or revoking a key with 403 FORBIDDEN, and let them list keys', async () => {
    const owner = await signUp(app);
    const plain = await signUp(app);
    expectBody(await addMember(owner, owner.teamId, plain.email), 201, member);
    const base = `/api/dashboard/teams/${owner.teamId}/keys`;
    const created = expectBody(
      await app.request('POST', base, as(owner, { body: { name: 'ci' } })),
      201,
      createdKey,
    ).data;
    const refused = expectError(
      await app.request('POST', base, as(plain, { body: { name: 'mine' } })),
      403,
      'FORBIDDEN',
    );
    expect(refused.message).toBe('Only owners of this team can create API keys.');
    expectError(await app.request('DELETE', `${base}/${created.api_key.id}`, as(plain)), 403, 'FORBIDDEN');
    expect(expectBody(await app.request('GET', base, as(plain)), 200, keys).data).toHaveLength(1);
    expect((await app.request('GET', '/api/v1/crons', { key: created.key })).status).toBe(200);
  });
});

describe('removing a member', () => {
  it('revokes the API keys they created (and says how many), keeps the others, and ends their access to the secret', async () => {
    const owner = await signUp(app);
    const leaving = await signUp(app);
    expectBody(await addMember(owner, owner.teamId, leaving.email, 'owner'), 201, member);
    const base = `/api/dashboard/teams/${owner.teamId}/keys`;
    const create = async (user: TestUser) =>
      expectBody(await app.request('POST', base, as(user, { body: { name: 'k' } })), 201, createdKey).data;
    const theirs = [await create(leaving), await create(leaving)];
    const ours = await create(owner);
    expectBody(await app.request('DELETE', `${base}/${theirs[1]?.api_key.id}`, as(owner)), 200, oneKey);

    const removed = await app.request(
      'DELETE',
      `/api/dashboard/teams/${owner.teamId}/members/${leaving.userId}`,
      as(owner),
    );
    expect(expectBody(removed, 200, removal).data).toEqual({ success: true, revoked_keys: 1 });
    for (const key of theirs) {
      expectError(await app.request('GET', '/api/v1/crons', { key: key.key }), 401, 'UNAUTHORIZED');
    }
    expect((await app.request('GET', '/api/v1/crons', { key: ours.key })).status).toBe(200);
    const secretPath = `/api/dashboard/teams/${owner.teamId}/signing-secret`;
    expectError(await app.request('GET', secretPath, as(leaving)), 404, 'NOT_FOUND');
    const listed = expectBody(await app.request('GET', base, as(owner)), 200, keys).data;
    expect(listed.filter((key) => key.revoked_at === null).map((key) => key.id)).toEqual([ours.api_key.id]);
  });
});
