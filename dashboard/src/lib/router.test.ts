import { describe, expect, it } from 'vitest';
import { matchPath } from './router.js';

describe('matchPath', () => {
  it.each<[string, string, Record<string, string> | undefined]>([
    ['/t/:teamId/events', '/t/abc/events', { teamId: 'abc' }],
    ['/t/:teamId/events', '/t/abc/events/', { teamId: 'abc' }],
    ['/t/:teamId/events/:id', '/t/abc/events/e%201', { teamId: 'abc', id: 'e 1' }],
    ['/t/:teamId/events', '/t/abc/events/new', undefined],
    ['/t/:teamId/events', '/t/abc/crons', undefined],
    ['/sign-in', '/sign-in', {}],
    ['/sign-in', '/sign-inx', undefined],
  ])('matches %s against %s as %j', (pattern, pathname, expected) => {
    expect(matchPath(pattern, pathname)).toEqual(expected);
  });
});
