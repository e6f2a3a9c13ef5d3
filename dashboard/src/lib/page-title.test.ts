import { describe, expect, it } from 'vitest';
import { pageTitle } from './page-title.js';

describe('pageTitle', () => {
  it('puts the most specific part first and the product last', () => {
    expect(pageTitle('Event 1a2b3c4d', 'Acme')).toBe('Event 1a2b3c4d · Acme · Webhook Scheduler');
  });

  it('leaves out parts that are missing or blank', () => {
    expect(pageTitle('Settings', undefined)).toBe('Settings · Webhook Scheduler');
    expect(pageTitle(' ', 'Acme')).toBe('Acme · Webhook Scheduler');
    expect(pageTitle(undefined)).toBe('Webhook Scheduler');
  });
});
