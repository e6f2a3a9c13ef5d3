import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import {
  OPEN_SHARES,
  type StoreUnderTest,
  claimOptions,
  idsOf,
  seedEvent,
  slotAround,
} from './store-under-test.js';

const SECOND = 1000;

/** Claims: which events a slot or backlog claim takes, how it leases them, and the shares. */
export function claimSemantics(current: () => StoreUnderTest): void {
  const team = randomUUID();
  const other = randomUUID();

  it('claims only the pending events of the slot that are due, oldest first, and leases them', async () => {
    const t = current();
    const now = t.now();
    const [older, newer, beforeSlot, notYet, done] = [
      seedEvent(now, team, -2 * SECOND),
      seedEvent(now, team, -1 * SECOND),
      seedEvent(now, team, -20 * 60 * SECOND),
      seedEvent(now, team, 60 * SECOND),
      seedEvent(now, team, -3 * SECOND, { status: 'success' }),
    ];
    await t.seed([older, newer, beforeSlot, notYet, done]);
    const options = claimOptions({ owner: 7, leaseMs: 30_000 });
    const claimed = await t.store.claimDue({ ...options, ...slotAround(now) });
    expect(claimed.map((a) => a.id)).toEqual([older.id, newer.id]);
    expect(claimed[0]).toMatchObject({ leaseToken: options.leaseToken, claimCount: 1, attempt: 0 });
    expect(claimed[0]).toMatchObject({ originalId: older.id, teamId: team, origin: 'https://hooks.example' });
    expect(claimed[0]?.signingSecrets.length).toBeGreaterThan(0);
    const stored = await t.read(older.id);
    expect(stored).toMatchObject({ status: 'processing', leaseToken: options.leaseToken, leaseOwner: 7 });
    expect(stored?.claimCount).toBe(1);
    const expires = stored?.leaseExpiresAt?.getTime() ?? 0;
    expect(Math.abs(expires - (t.now().getTime() + 30_000))).toBeLessThan(5 * SECOND);
    expect(await t.read(notYet.id)).toMatchObject({ status: 'pending', leaseToken: null, claimCount: 0 });
  });

  it('does not claim an event another claim holds', async () => {
    const t = current();
    const event = seedEvent(t.now(), team, -SECOND);
    await t.seed([event]);
    const first = claimOptions();
    expect(idsOf(await t.store.claimDue({ ...first, ...slotAround(t.now()) }))).toEqual([event.id]);
    expect(await t.store.claimDue({ ...claimOptions(), ...slotAround(t.now()) })).toEqual([]);
    expect(await t.store.claimBacklog(claimOptions())).toEqual([]);
    expect(await t.read(event.id)).toMatchObject({ leaseToken: first.leaseToken, claimCount: 1 });
  });

  it('claims at most the limit, the oldest first, and nothing for a limit of 0', async () => {
    const t = current();
    const events = [-3, -2, -1].map((s) => seedEvent(t.now(), team, s * SECOND));
    await t.seed(events);
    expect(await t.store.claimDue({ ...claimOptions({ limit: 0 }), ...slotAround(t.now()) })).toEqual([]);
    const claimed = await t.store.claimDue({ ...claimOptions({ limit: 2 }), ...slotAround(t.now()) });
    expect(claimed.map((a) => a.id)).toEqual([events[0]?.id, events[1]?.id]);
  });

  it('takes no more of a team than its room, and of any other team no more than the whole share', async () => {
    const t = current();
    const third = randomUUID();
    const mine = [-6, -5, -4].map((s) => seedEvent(t.now(), team, s * SECOND));
    const theirs = [-3, -2, -1].map((s) => seedEvent(t.now(), other, s * SECOND));
    const full = seedEvent(t.now(), third, -7 * SECOND);
    await t.seed([...mine, ...theirs, full]);
    const teams = [
      { teamId: team, room: 1 },
      { teamId: third, room: 0 },
    ];
    const shares = { teamMax: 2, destinationMax: 100, pairMax: 100, teams, destinations: [], pairs: [] };
    const claimed = await t.store.claimDue({ ...claimOptions({ shares }), ...slotAround(t.now()) });
    expect(idsOf(claimed)).toEqual(idsOf([mine[0], theirs[0], theirs[1]].flatMap((e) => e ?? [])));
  });

  it('takes no more calls to an origin than its room, however the URLs spell it', async () => {
    const t = current();
    const x = ['https://X.example:443/a', 'https://x.example./b', 'https://user@x.ex%61mple:0443/c'];
    const toX = x.map((webhookUrl, i) => seedEvent(t.now(), team, (i - 9) * SECOND, { webhookUrl }));
    const toY = seedEvent(t.now(), team, -SECOND, { webhookUrl: 'http://y.example:80/' });
    const toZ = [-5, -4].map((s) =>
      seedEvent(t.now(), team, s * SECOND, { webhookUrl: 'http://z.example:81/' }),
    );
    await t.seed([...toX, toY, ...toZ]);
    const destinations = [{ origin: 'https://x.example', room: 1 }];
    const shares = { teamMax: 100, destinationMax: 1, pairMax: 1, teams: [], destinations, pairs: [] };
    const claimed = await t.store.claimDue({ ...claimOptions({ shares }), ...slotAround(t.now()) });
    expect(idsOf(claimed)).toEqual(idsOf([toX[0], toY, toZ[0]].flatMap((e) => e ?? [])));
    expect(claimed.map((a) => a.origin).sort()).toEqual([
      'http://y.example',
      'http://z.example:81',
      'https://x.example',
    ]);
  });

  it('gives a destination’s room to the team holding fewest of its calls, and no team more than its room there', async () => {
    const t = current();
    const origin = 'https://shared.example';
    const theirs = [-9, -8, -7].map((s) =>
      seedEvent(t.now(), other, s * SECOND, { webhookUrl: `${origin}/slow` }),
    );
    const mine = [-2, -1].map((s) => seedEvent(t.now(), team, s * SECOND, { webhookUrl: `${origin}/fast` }));
    const elsewhere = seedEvent(t.now(), other, -3 * SECOND, { webhookUrl: 'https://other.example/' });
    await t.seed([...theirs, ...mine, elsewhere]);
    const shares = {
      teamMax: 100,
      destinationMax: 100,
      pairMax: 100,
      teams: [],
      destinations: [{ origin, room: 2 }],
      pairs: [{ teamId: other, origin, held: 1, room: 1 }],
    };
    const claimed = await t.store.claimDue({ ...claimOptions({ shares }), ...slotAround(t.now()) });
    // The destination's two places: my oldest (I hold none), then their oldest (they hold one).
    expect(idsOf(claimed)).toEqual(idsOf([theirs[0], mine[0], elsewhere].flatMap((e) => e ?? [])));
    // Their remaining events are older, but they hold one of the destination's calls and I hold none.
    const next = {
      ...shares,
      destinations: [{ origin, room: 1 }],
      pairs: [{ teamId: other, origin, held: 1, room: 10 }],
    };
    const more = await t.store.claimDue({ ...claimOptions({ shares: next }), ...slotAround(t.now()) });
    expect(idsOf(more)).toEqual(idsOf([mine[1]].flatMap((e) => e ?? [])));
  });

  it('leaves a team with no free place at a destination to the backlog’s claim, so a slot’s claim finds the events behind its due ones', async () => {
    // bench/destinations `shares`: a team leasing ahead at an origin filled the slot claim's
    // look-ahead (four rows per place) with its own due events, and another team's waited.
    const t = current();
    const origin = 'https://busy.example';
    const mine = [-9, -8, -7, -6, -5].map((s) =>
      seedEvent(t.now(), team, s * SECOND, { webhookUrl: `${origin}/hook` }),
    );
    const theirs = seedEvent(t.now(), other, -1 * SECOND, { webhookUrl: 'https://quiet.example/hook' });
    await t.seed([...mine, theirs]);
    const shares = { ...OPEN_SHARES, pairs: [{ teamId: team, origin, held: 10, room: 20, free: 0 }] };
    const slot = await t.store.claimDue({ ...claimOptions({ limit: 1, shares }), ...slotAround(t.now()) });
    expect(idsOf(slot)).toEqual([theirs.id]);
    const backlog = await t.store.claimBacklog(claimOptions({ limit: 2, shares }));
    expect(idsOf(backlog)).toEqual(idsOf(mine.slice(0, 2)));
  });

  it('serves teams in turn: each team its oldest event before any team its second', async () => {
    const t = current();
    const mine = [-5, -4, -3].map((s) => seedEvent(t.now(), team, s * SECOND));
    const theirs = [-2, -1].map((s) => seedEvent(t.now(), other, s * SECOND));
    await t.seed([...mine, ...theirs]);
    const claimed = await t.store.claimDue({ ...claimOptions({ limit: 3 }), ...slotAround(t.now()) });
    expect(idsOf(claimed)).toEqual(idsOf([mine[0], mine[1], theirs[0]].flatMap((e) => e ?? [])));
  });

  it('gives each place to the team that would hold fewest calls with it, not turn by turn', async () => {
    // bench/scale's slow scenario: in plain turns, a team of fast calls got no more of the places
    // freed than each team whose calls held theirs for a second.
    const t = current();
    const mine = [-6, -5, -4].map((s) => seedEvent(t.now(), team, s * SECOND));
    const theirs = [-3, -2, -1].map((s) => seedEvent(t.now(), other, s * SECOND));
    await t.seed([...mine, ...theirs]);
    // I hold three calls, they hold none: their three come first, then my oldest.
    const shares = { ...OPEN_SHARES, teamMax: 10, teams: [{ teamId: team, room: 7 }] };
    const claimed = await t.store.claimBacklog(claimOptions({ limit: 4, shares }));
    expect(idsOf(claimed)).toEqual(idsOf([mine[0], ...theirs].flatMap((e) => e ?? [])));
  });

  it('claims the backlog of any slot, due events only, teams in turn within their room', async () => {
    const t = current();
    const hour = 3600 * SECOND;
    const mine = [-2 * hour, -hour, -hour / 2].map((ms) => seedEvent(t.now(), team, ms));
    const theirs = seedEvent(t.now(), other, -10 * 60 * SECOND);
    const notYet = seedEvent(t.now(), other, 60 * SECOND);
    const third = randomUUID();
    const full = seedEvent(t.now(), third, -3 * hour);
    await t.seed([...mine, theirs, notYet, full]);
    const shares = {
      teamMax: 100,
      destinationMax: 100,
      pairMax: 100,
      teams: [{ teamId: third, room: 0 }],
      destinations: [],
      pairs: [],
    };
    const first = await t.store.claimBacklog(claimOptions({ limit: 2, shares }));
    expect(first.map((a) => a.id)).toEqual([mine[0]?.id, theirs.id]);
    const rest = await t.store.claimBacklog(claimOptions({ shares }));
    expect(rest.map((a) => a.id)).toEqual([mine[1]?.id, mine[2]?.id]);
    expect(await t.read(notYet.id)).toMatchObject({ status: 'pending' });
    expect(await t.read(full.id)).toMatchObject({ status: 'pending' });
  });

  it('claims, from a time on, each team’s oldest due events from then, and leaves the older ones', async () => {
    // A slot's claim while the process is full: what falls due now must not wait behind older events.
    const t = current();
    const minute = 60 * SECOND;
    const [myOld, myNew, theirOld, theirNew, notYet] = [
      seedEvent(t.now(), team, -10 * minute),
      seedEvent(t.now(), team, -2 * SECOND),
      seedEvent(t.now(), other, -5 * minute),
      seedEvent(t.now(), other, -1 * SECOND),
      seedEvent(t.now(), other, minute),
    ];
    await t.seed([myOld, myNew, theirOld, theirNew, notYet]);
    const from = new Date(t.now().getTime() - 3 * SECOND);
    const claimed = await t.store.claimBacklog({ ...claimOptions(), from });
    expect(idsOf(claimed).sort()).toEqual(idsOf([myNew, theirNew]).sort());
    const rest = await t.store.claimBacklog(claimOptions());
    expect(idsOf(rest).sort()).toEqual(idsOf([myOld, theirOld]).sort());
    expect(await t.read(notYet.id)).toMatchObject({ status: 'pending' });
  });

  it('claims, from a time on and with time ahead, each team’s events falling due within it too, in turn', async () => {
    // A slot's claim while the process is full: bench/destinations `shares`, a punctual team's events
    // were claimed only once due while another team drained 20,000, and started tens of ms late.
    const t = current();
    const now = t.now();
    const [myDue, theirSoon, mySoon, later] = [
      seedEvent(now, team, -1 * SECOND),
      seedEvent(now, other, 20 * SECOND),
      seedEvent(now, team, 25 * SECOND),
      seedEvent(now, other, 40 * SECOND),
    ];
    await t.seed([myDue, theirSoon, mySoon, later]);
    const from = new Date(now.getTime() - 3 * SECOND);
    expect(idsOf(await t.store.claimBacklog({ ...claimOptions(), from }))).toEqual(idsOf([myDue]));
    const ahead = await t.store.claimBacklog({ ...claimOptions(), from, aheadMs: 30 * SECOND });
    expect(idsOf(ahead)).toEqual(idsOf([theirSoon, mySoon]));
    const left = theirSoon.scheduledAt.getTime() - now.getTime();
    const dueInMs = ahead.find((attempt) => attempt.id === theirSoon.id)?.dueInMs;
    expect(dueInMs).toBeLessThanOrEqual(left);
    expect(dueInMs).toBeGreaterThan(left - 5 * SECOND);
    expect(await t.read(later.id)).toMatchObject({ status: 'pending' });
  });

  it('takes a team’s events due since schedulers served before those due while none did, each group oldest first', async () => {
    // bench/scale `catch-up`: after a stop, the events falling due again waited behind the stop's backlog.
    const t = current();
    const minute = 60 * SECOND;
    const servedSince = new Date(t.now().getTime() - 30 * SECOND);
    const whileDown = [-10 * minute, -5 * minute].map((ms) => seedEvent(t.now(), team, ms));
    const since = [-2 * SECOND, -1 * SECOND].map((ms) => seedEvent(t.now(), team, ms));
    await t.seed([...whileDown, ...since]);
    const first = await t.store.claimBacklog({ ...claimOptions({ limit: 3 }), servedSince });
    expect(idsOf(first)).toEqual(idsOf([since[0], since[1], whileDown[0]].flatMap((e) => e ?? [])));
    const slot = { from: new Date(t.now().getTime() - 20 * minute), before: t.now() };
    expect(idsOf(await t.store.claimDue({ ...claimOptions(), ...slot, servedSince }))).toEqual(
      idsOf([whileDown[1]].flatMap((e) => e ?? [])),
    );
  });

  it('claims a slot’s events falling due within the time ahead it is given, none later, and says when each is due', async () => {
    const t = current();
    const now = t.now();
    const [due, soon, later] = [-1, 20, 40].map((s) => seedEvent(now, team, s * SECOND));
    await t.seed([due, soon, later].flatMap((e) => e ?? []));
    const { from, before } = slotAround(now);
    expect(await t.store.nextDueAt(from, before)).toEqual(soon?.scheduledAt);
    expect(await t.store.nextDueAt(from, before, 30 * SECOND)).toEqual(later?.scheduledAt);
    const claimed = await t.store.claimDue({ ...claimOptions(), from, before, aheadMs: 30 * SECOND });
    expect(claimed.map((a) => a.id)).toEqual([due?.id, soon?.id]);
    expect(claimed[0]?.dueInMs).toBe(0);
    // The clock is read as the claim ends: never more than was left when it began.
    const left = (soon?.scheduledAt.getTime() ?? 0) - now.getTime();
    expect(claimed[1]?.dueInMs).toBeLessThanOrEqual(left);
    expect(claimed[1]?.dueInMs).toBeGreaterThan(left - 5 * SECOND);
    expect(await t.store.claimDue({ ...claimOptions(), from, before })).toEqual([]);
  });

  it('says the events due at the same time are due in as long', async () => {
    const t = current();
    const now = t.now();
    const events = [team, team, other].map((teamId) => seedEvent(now, teamId, 20 * SECOND));
    await t.seed(events);
    const claimed = await t.store.claimDue({ ...claimOptions(), ...slotAround(now), aheadMs: 30 * SECOND });
    expect(claimed).toHaveLength(3);
    expect(new Set(claimed.map((a) => a.dueInMs)).size).toBe(1);
  });

  it('tells when the next pending event of the slot falls due, and counts the due backlog', async () => {
    const t = current();
    const now = t.now();
    const due = seedEvent(now, team, -SECOND);
    const next = seedEvent(now, team, 30 * SECOND);
    const later = seedEvent(now, other, 40 * SECOND);
    const pastSlot = seedEvent(now, team, 20 * 60 * SECOND);
    await t.seed([due, later, next, pastSlot, seedEvent(now, team, -SECOND, { status: 'failed' })]);
    const { from, before } = slotAround(now);
    expect(await t.store.nextDueAt(from, before)).toEqual(next.scheduledAt);
    expect(await t.store.nextDueAt(from, next.scheduledAt)).toBeNull();
    expect(await t.store.dueBacklog()).toBe(1);
    await t.store.claimBacklog(claimOptions());
    expect(await t.store.dueBacklog()).toBe(0);
  });

  it('lists the seconds in which pending events not in flight fall due, once each', async () => {
    const t = current();
    const now = t.now();
    const second = (offset: number) => Math.floor((now.getTime() + offset) / SECOND);
    const inFlight = seedEvent(now, team, -SECOND);
    const events = [
      seedEvent(now, team, 10 * 60 * SECOND),
      seedEvent(now, other, 10 * 60 * SECOND),
      seedEvent(now, team, 11 * 60 * SECOND),
      seedEvent(now, team, 30 * 60 * SECOND),
      seedEvent(now, team, 10.5 * 60 * SECOND, { status: 'success' }),
      inFlight,
    ];
    await t.seed(events);
    await t.store.claimBacklog(claimOptions());
    const from = new Date(now.getTime() - 60 * SECOND);
    const slots = await t.store.pendingSlots(from, new Date(now.getTime() + 20 * 60 * SECOND));
    expect(slots.sort((a, b) => a - b)).toEqual([second(10 * 60 * SECOND), second(11 * 60 * SECOND)]);
  });
}
