import type { Event } from '@webhook-scheduler/sdk';
import { describe, expect, it } from 'vitest';
import { type EventRow, collapseUpcoming, groupRetryChains } from './event-groups.js';

let created = 0;
/** An event with only what grouping reads set meaningfully. */
function event(id: string, scheduledAt: string, retryOf: string | null = null): Event {
  created += 1;
  return {
    id,
    cron_id: null,
    retry_of: retryOf,
    replay_of: null,
    scheduled_at: `2030-01-01T${scheduledAt}Z`,
    executed_at: null,
    status: 'failed',
    webhook_url: 'https://example.com/hook',
    method: 'POST',
    headers: null,
    payload: null,
    retry_config: null,
    timeout_ms: null,
    response_status: null,
    response_headers: null,
    response_body: null,
    response_duration: null,
    response_error: null,
    created_at: new Date(Date.UTC(2030, 0, 1) + created).toISOString(),
    updated_at: '2030-01-01T00:00:00.000Z',
    team_id: 't',
  };
}

const shape = (rows: EventRow[]) =>
  rows.map((row) => (row.kind === 'retry' ? `  ${row.event.id} #${row.number ?? '?'}` : row.event.id));

describe('groupRetryChains', () => {
  const original = event('original', '10:00:00');
  const first = event('first', '10:00:01', 'original');
  const second = event('second', '10:00:03', 'original');
  const other = event('other', '10:00:02');
  const cron = event('cron', '10:05:00');

  it('moves retries under their original, first retry first, when the list is newest first by creation', () => {
    const createdOrder = [cron, second, other, first, original];
    expect(shape(groupRetryChains(createdOrder, { numbered: true }))).toEqual([
      'cron',
      'other',
      'original',
      '  first #1',
      '  second #2',
    ]);
  });

  it('does the same when the list is newest first by scheduled time', () => {
    const scheduledOrder = [cron, second, other, first, original];
    const sorted = [...scheduledOrder].sort((a, b) => b.scheduled_at.localeCompare(a.scheduled_at));
    expect(shape(groupRetryChains(sorted, { numbered: true }))).toEqual([
      'cron',
      'other',
      'original',
      '  first #1',
      '  second #2',
    ]);
  });

  it('leaves a retry whose original is on another page where the list put it', () => {
    expect(shape(groupRetryChains([second, other, first], { numbered: true }))).toEqual([
      'second',
      'other',
      'first',
    ]);
  });

  it('numbers the retries on the original’s page from 1, the later ones being on earlier pages', () => {
    expect(shape(groupRetryChains([other, first, original], { numbered: true }))).toEqual([
      'other',
      'original',
      '  first #1',
    ]);
  });

  it('leaves the retries unnumbered when asked, as when a status filter may hide attempts', () => {
    expect(shape(groupRetryChains([second, original], { numbered: false }))).toEqual([
      'original',
      '  second #?',
    ]);
  });

  it('keeps a list without retries as it is', () => {
    expect(shape(groupRetryChains([cron, other, original], { numbered: true }))).toEqual([
      'cron',
      'other',
      'original',
    ]);
  });
});

describe('collapseUpcoming', () => {
  const pending = (id: string, cron: string | null, at: string) =>
    ({ ...event(id, '00:00:00'), status: 'pending', cron_id: cron, scheduled_at: at }) as Event;

  it('puts the pending runs of one cron in one row where the first was, soonest first', () => {
    const rows = groupRetryChains(
      [
        pending('c3', 'cron-a', '2030-01-14T09:00:15Z'),
        pending('m1', null, '2030-01-14T09:00:12Z'),
        pending('c2', 'cron-a', '2030-01-14T09:00:10Z'),
        pending('c1', 'cron-a', '2030-01-14T09:00:05Z'),
        pending('b1', 'cron-b', '2030-01-14T09:00:04Z'),
        { ...event('done', '00:00:00'), status: 'success', cron_id: 'cron-a' },
      ],
      { numbered: true },
    );
    const collapsed = collapseUpcoming(rows);
    expect(
      collapsed.map((row) => (row.kind === 'upcoming' ? `${row.cronId}×${row.events.length}` : row.event.id)),
    ).toEqual(['cron-a×3', 'm1', 'b1', 'done']);
    const group = collapsed[0];
    expect(group?.kind === 'upcoming' ? group.events.map((e) => e.id) : []).toEqual(['c1', 'c2', 'c3']);
  });
});
