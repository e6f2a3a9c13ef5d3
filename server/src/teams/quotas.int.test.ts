import {
  CreatedApiKey,
  MyTeam,
  QuotaExceededDetails,
  TeamLimitsView,
  dataOf,
} from '@webhook-scheduler/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBody, expectError } from '../../test/expect.js';
import { type ApiResponse, type TestApp, startTestApp } from '../../test/harness.js';
import { type TestUser, as, signUp } from '../../test/sessions.js';
import { setTeamLimits } from '../limits/team-limits.service.js';

// The key quota (max_api_keys) and the teams a user may belong to (MAX_TEAMS_PER_USER), through
// the dashboard's routes of two API processes over one database.

const MAX_TEAMS = 3;
const DEFAULT_KEYS = 4;
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  const options = { teamLimits: { max_api_keys: DEFAULT_KEYS }, accounts: { maxTeamsPerUser: MAX_TEAMS } };
  first = await startTestApp(options);
  second = await startTestApp({ ...options, database: first.db });
});
afterAll(async () => {
  await second.close();
  await first.close();
});

const createdKey = dataOf(CreatedApiKey).strict();
const myTeam = dataOf(MyTeam.strict()).strict();

function expectQuota(response: ApiResponse, details: QuotaExceededDetails): string {
  const error = expectError(response, 403, 'QUOTA_EXCEEDED');
  expect(QuotaExceededDetails.strict().parse(error.details)).toEqual(details);
  return error.message;
}

const createKey = (owner: TestUser, app = first) =>
  app.request('POST', `/api/dashboard/teams/${owner.teamId}/keys`, as(owner, { body: { name: 'ci' } }));
const createTeam = (user: TestUser, app = first) =>
  app.request('POST', '/api/dashboard/teams', as(user, { body: { name: 'another' } }));
const addMember = (owner: TestUser, teamId: string, email: string, app = first) =>
  app.request('POST', `/api/dashboard/teams/${teamId}/members`, as(owner, { body: { email } }));

async function countKeys(teamId: string): Promise<number> {
  const [row] = await first.sql<{ n: string }>(
    'select count(*) as n from api_keys where team_id = $1 and revoked_at is null',
    [teamId],
  );
  return Number(row?.n);
}

async function countTeams(userId: string): Promise<number> {
  const [row] = await first.sql<{ n: string }>('select count(*) as n from team_members where user_id = $1', [
    userId,
  ]);
  return Number(row?.n);
}

describe('the API key quota', () => {
  it('creates keys below and at the default limit, then refuses with 403 QUOTA_EXCEEDED', async () => {
    const owner = await signUp(first);
    for (let i = 0; i < DEFAULT_KEYS; i++) expectBody(await createKey(owner), 201, createdKey);
    const message = expectQuota(await createKey(owner), { quota: 'api_keys', limit: 4, current: 4 });
    expect(message).toBe('Quota exceeded: the team has 4 active API keys and its limit is 4');
    expect(await countKeys(owner.teamId)).toBe(4);
  });

  it('follows the team’s own limit, and refuses above it when the limit was lowered under the keys', async () => {
    const owner = await signUp(first);
    await setTeamLimits(first.orm.em.fork(), owner.teamId, { max_api_keys: 2 }, new Date());
    expectBody(await createKey(owner), 201, createdKey);
    expectBody(await createKey(owner), 201, createdKey);
    expectQuota(await createKey(owner), { quota: 'api_keys', limit: 2, current: 2 });
    await setTeamLimits(first.orm.em.fork(), owner.teamId, { max_api_keys: 1 }, new Date());
    expectQuota(await createKey(owner), { quota: 'api_keys', limit: 1, current: 2 });
  });

  it('counts active keys only: revoking a key or its expiry frees a place', async () => {
    const owner = await signUp(first);
    await setTeamLimits(first.orm.em.fork(), owner.teamId, { max_api_keys: 2 }, new Date());
    const one = expectBody(await createKey(owner), 201, createdKey).data.api_key;
    const two = expectBody(await createKey(owner), 201, createdKey).data.api_key;
    expectQuota(await createKey(owner), { quota: 'api_keys', limit: 2, current: 2 });

    const revoke = `/api/dashboard/teams/${owner.teamId}/keys/${one.id}`;
    expect((await first.request('DELETE', revoke, as(owner))).status).toBe(200);
    expectBody(await createKey(owner), 201, createdKey);
    expectQuota(await createKey(owner), { quota: 'api_keys', limit: 2, current: 2 });

    await first.sql(`update api_keys set expires_at = now() - interval '1 second' where id = $1`, [two.id]);
    expectBody(await createKey(owner), 201, createdKey);
  });

  it('is shown with the team’s usage in its limits', async () => {
    const owner = await signUp(first);
    await createKey(owner);
    const view = expectBody(
      await first.request('GET', `/api/dashboard/teams/${owner.teamId}/limits`, as(owner)),
      200,
      dataOf(TeamLimitsView.strict()).strict(),
    ).data;
    expect(view.limits.max_api_keys).toBe(DEFAULT_KEYS);
    expect(view.usage.api_keys).toBe(1);
  });

  it('is never passed by simultaneous creates in two API processes', async () => {
    const owner = await signUp(first);
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, i) => createKey(owner, i % 2 ? first : second)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(DEFAULT_KEYS);
    expect(statuses.filter((status) => status === 403)).toHaveLength(24 - DEFAULT_KEYS);
    expect(await countKeys(owner.teamId)).toBe(DEFAULT_KEYS);
  });
});

describe('the teams a user belongs to', () => {
  it('may be created up to MAX_TEAMS_PER_USER, the sign-up team included; one more is 403 QUOTA_EXCEEDED', async () => {
    const user = await signUp(first);
    expectBody(await createTeam(user), 201, myTeam);
    expectBody(await createTeam(user), 201, myTeam);
    const message = expectQuota(await createTeam(user), { quota: 'teams', limit: 3, current: 3 });
    expect(message).toBe('Quota exceeded: the user belongs to 3 teams and its limit is 3');
    expect(await countTeams(user.userId)).toBe(3);
  });

  it('include the teams a user was added to: adding one more is refused, and leaving one frees a place', async () => {
    const user = await signUp(first);
    const owners = await Promise.all([signUp(first), signUp(first), signUp(first)]);
    const [a, b, c] = owners;
    expect((await addMember(a, a.teamId, user.email)).status).toBe(201);
    expect((await addMember(b, b.teamId, user.email)).status).toBe(201);
    expectQuota(await addMember(c, c.teamId, user.email), { quota: 'teams', limit: 3, current: 3 });
    expectQuota(await createTeam(user), { quota: 'teams', limit: 3, current: 3 });

    const leave = `/api/dashboard/teams/${a.teamId}/members/${user.userId}`;
    expect((await first.request('DELETE', leave, as(user))).status).toBe(200);
    expect((await addMember(c, c.teamId, user.email)).status).toBe(201);
  });

  it('are never more than the limit after simultaneous creates and adds in two API processes', async () => {
    const user = await signUp(first);
    const owners = await Promise.all(Array.from({ length: 6 }, () => signUp(first)));
    const responses = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => createTeam(user, i % 2 ? first : second)),
      ...owners.map((owner, i) => addMember(owner, owner.teamId, user.email, i % 2 ? second : first)),
    ]);
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_TEAMS - 1);
    expect(statuses.filter((status) => status === 403)).toHaveLength(12 - (MAX_TEAMS - 1));
    expect(await countTeams(user.userId)).toBe(MAX_TEAMS);
  });
});
