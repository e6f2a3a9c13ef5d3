// The scale benchmark's requests: the pending events it adds before measuring, and the mixed API
// load while it measures.
import { Pool } from 'undici';
import type { PlannedRequest } from './load.ts';
import { RECEIVER_PORT_BASE, RECEIVER_PORTS, teamKey } from './seed-sql.ts';

const DAY_MS = 86_400_000;
const PAYLOAD = {
  type: 'order.created',
  data: {
    customer: { id: 'cus_4f1c2a9e0b7d31', email: 'someone@example.com', name: 'Some One' },
    items: Array.from({ length: 6 }, (_, k) => ({
      sku: `sku_${k}a7f3c9e1`,
      qty: k + 1,
      price_cents: 1299 * (k + 1),
      description: `Item ${k} of the order, with a description of some length`,
    })),
    metadata: { source: 'api', trace: '9c4b7f8e2a1d4c3b9e8f7a6b5c4d3e2f', region: 'eu-west-1' },
  },
};

/**
 * Half of everything belongs to team 0; the rest mostly to the first few of `teams` (as in the
 * seed, whose 100 teams are the default).
 */
export function skewedTeam(teams = 100, random = Math.random): number {
  if (teams === 1 || random() < 0.5) return 0;
  return 1 + Math.floor((teams - 1) * random() ** 2);
}

export const receiverUrl = (n: number, path: string) =>
  `http://127.0.0.1:${RECEIVER_PORT_BASE + (n % RECEIVER_PORTS)}/${path}`;

export function eventInput(url: string, at: Date) {
  return { webhook_url: url, scheduled_at: at.toISOString(), payload: PAYLOAD };
}

/** Creates events through the batch route (as a client would), `batch` at a time, `parallel` at once. */
export async function createThroughApi(
  base: string,
  events: { team: number; input: ReturnType<typeof eventInput> }[],
  { batch = 500, parallel = 4 } = {},
): Promise<void> {
  const byTeam = new Map<number, ReturnType<typeof eventInput>[]>();
  for (const { team, input } of events) byTeam.set(team, [...(byTeam.get(team) ?? []), input]);
  const requests: { team: number; inputs: ReturnType<typeof eventInput>[] }[] = [];
  for (const [team, inputs] of byTeam)
    for (let i = 0; i < inputs.length; i += batch)
      requests.push({ team, inputs: inputs.slice(i, i + batch) });
  const pool = new Pool(base, { connections: parallel });
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const { team, inputs } = requests[next++]!;
      const response = await pool.request({
        method: 'POST',
        path: '/api/v1/events/batch',
        headers: { authorization: `Bearer ${teamKey(team)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events: inputs }),
      });
      const text = await response.body.text();
      if (response.statusCode !== 201)
        throw new Error(`batch refused: ${response.statusCode} ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  await pool.close();
}

const LIST_FILTERS = ['', 'status=pending', 'status=success', 'status=failed'];
const LIST_SORTS = ['', 'sort=scheduled_at', 'sort=-scheduled_at'];

/** The mix of issue 25: lists 20 %, GET by id 50 %, creates 25 %, batches 5 %. */
export function mixedRequests(ids: { team: number; id: string }[], cronIds: { team: number; id: string }[]) {
  let n = 0;
  return (): PlannedRequest => {
    n++;
    const roll = Math.random();
    if (roll < 0.5 && ids.length > 0) {
      const { team, id } = ids[Math.floor(Math.random() * ids.length)]!;
      return { route: 'GET /events/{id}', method: 'GET', path: `/api/v1/events/${id}`, key: teamKey(team) };
    }
    const team = skewedTeam();
    if (roll < 0.7) {
      if (roll < 0.52 && cronIds.length > 0) {
        const cron = cronIds[Math.floor(Math.random() * cronIds.length)]!;
        return {
          route: 'GET /events?cron_id',
          method: 'GET',
          path: `/api/v1/events?cron_id=${cron.id}&limit=50`,
          key: teamKey(cron.team),
        };
      }
      if (roll < 0.54)
        return { route: 'GET /crons', method: 'GET', path: '/api/v1/crons?limit=50', key: teamKey(team) };
      const filter = LIST_FILTERS[n % LIST_FILTERS.length]!;
      const sort = LIST_SORTS[Math.floor(n / LIST_FILTERS.length) % LIST_SORTS.length]!;
      const query = [filter, sort, 'limit=50'].filter(Boolean).join('&');
      return {
        route: `GET /events?${[filter, sort].filter(Boolean).join('&') || '(none)'}`,
        method: 'GET',
        path: `/api/v1/events?${query}`,
        key: teamKey(team),
      };
    }
    const at = () => new Date(Date.now() + DAY_MS * (1 + Math.random() * 29));
    if (roll < 0.95) {
      return {
        route: 'POST /events',
        method: 'POST',
        path: '/api/v1/events',
        key: teamKey(team),
        body: eventInput(receiverUrl(n, `created/${n}`), at()),
      };
    }
    return {
      route: 'POST /events/batch (20)',
      method: 'POST',
      path: '/api/v1/events/batch',
      key: teamKey(team),
      body: {
        events: Array.from({ length: 20 }, (_, k) => eventInput(receiverUrl(n + k, `batch/${n}`), at())),
      },
    };
  };
}

/**
 * The measured window's start: the first instant from `earliest` at second 10 of a minute after which
 * comes a five-minute mark that no hourly cron shares (the seeded zones' hours fall at :00, :15 in
 * Kathmandu and :30 in Kolkata). A window of two minutes then holds the same bursts of crons in every
 * run: a five-minute mark and a plain minute.
 */
export function windowStart(earliest: number): number {
  const MINUTE = 60_000;
  let start = Math.ceil((earliest - 10_000) / MINUTE) * MINUTE + 10_000;
  const mark = (at: number) => new Date(at + MINUTE).getUTCMinutes();
  while (mark(start) % 5 !== 0 || [0, 15, 30].includes(mark(start))) start += MINUTE;
  return start;
}
