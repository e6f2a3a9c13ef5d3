import { initContract } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routeMethods } from './cors.middleware.js';

const c = initContract();
const responses = { 200: z.null() };

describe('routeMethods', () => {
  it('lists each method of a nested router once, in the order the routes come', () => {
    const router = c.router({
      things: {
        list: { method: 'GET', path: '/things', responses },
        change: { method: 'PATCH', path: '/things/:id', body: z.null(), responses },
        nested: { read: { method: 'GET', path: '/things/:id', responses } },
      },
      other: { remove: { method: 'DELETE', path: '/other/:id', body: z.null(), responses } },
    });
    expect(routeMethods(router)).toEqual(['GET', 'PATCH', 'DELETE']);
  });
});
